package dev.chartwell.clickhouse;

import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * A TLS context whose engines are made for one host name whatever address the HTTP client connects
 * to: the JDK's HTTP client, given the IP literal a policy checked, would otherwise send no server
 * name (SNI) and skip verifying the certificate's name. With this context the engine's peer is the
 * host name, so the server name sent and the name the certificate must hold are the host's, and the
 * JDK's own checks apply.
 */
final class NamedSslContext {
  private NamedSslContext() {}

  /**
   * @param base the context that decides on certificates (the JDK's default in the server)
   * @param host the host name every engine is made for
   * @return a context for that name
   */
  static SSLContext of(SSLContext base, String host) {
    SSLContextSpi spi =
        new SSLContextSpi() {
          @Override
          protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom random) {
            throw new UnsupportedOperationException("already initialised");
          }

          @Override
          protected SSLSocketFactory engineGetSocketFactory() {
            return base.getSocketFactory();
          }

          @Override
          protected SSLServerSocketFactory engineGetServerSocketFactory() {
            return base.getServerSocketFactory();
          }

          @Override
          protected SSLEngine engineCreateSSLEngine() {
            return base.createSSLEngine(host, 443);
          }

          @Override
          protected SSLEngine engineCreateSSLEngine(String ignored, int port) {
            return base.createSSLEngine(host, port);
          }

          @Override
          protected SSLSessionContext engineGetServerSessionContext() {
            return base.getServerSessionContext();
          }

          @Override
          protected SSLSessionContext engineGetClientSessionContext() {
            return base.getClientSessionContext();
          }

          @Override
          protected SSLParameters engineGetDefaultSSLParameters() {
            return base.getDefaultSSLParameters();
          }

          @Override
          protected SSLParameters engineGetSupportedSSLParameters() {
            return base.getSupportedSSLParameters();
          }
        };
    return new SSLContext(spi, base.getProvider(), base.getProtocol()) {};
  }
}
