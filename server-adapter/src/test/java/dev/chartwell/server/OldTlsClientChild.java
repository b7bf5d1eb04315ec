package dev.chartwell.server;

import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * A TLS client in a JVM of its own, started with the JDK's TLS 1.0/1.1 ban lifted (a security
 * property, which would otherwise hold for the whole test JVM): tries a handshake with each
 * protocol given and prints {@code OK <protocol>} or {@code REFUSED <why>} per line.
 */
public final class OldTlsClientChild {
  private OldTlsClientChild() {}

  /**
   * @param args the port, then the protocols to try one by one
   */
  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    TrustManager trustAll =
        new X509TrustManager() {
          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        };
    for (int i = 1; i < args.length; i++) {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {trustAll}, null);
      try (SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
        s.setSoTimeout(30_000);
        s.setEnabledProtocols(new String[] {args[i]});
        // Every suite the JDK has, so that the protocol alone decides.
        s.setEnabledCipherSuites(s.getSupportedCipherSuites());
        s.startHandshake();
        System.out.println("OK " + s.getSession().getProtocol());
      } catch (SSLException e) {
        System.out.println("REFUSED " + e.getMessage());
      }
    }
  }
}
