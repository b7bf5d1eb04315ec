package dev.chartwell.server;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.Map;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * {@code java -cp chartwell-server.jar dev.chartwell.server.HealthCheck}: exits 0 when the server
 * of this machine answers {@code GET /health} with 200, 1 otherwise; for container health checks
 * (dist/Dockerfile), which have no HTTP client of their own. It reads the server's port and TLS
 * settings from the same {@code CHARTWELL_*} variables the server does and asks 127.0.0.1. Over TLS
 * the certificate is not checked: the request goes to this machine, carries no credentials and
 * reads nothing but the status.
 */
public final class HealthCheck {
  private HealthCheck() {}

  /**
   * @param args ignored
   */
  public static void main(String[] args) {
    int status;
    try {
      status = check(System.getenv());
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      System.err.println("chartwell health check: " + e.getMessage());
      status = -1;
    }
    System.exit(status == 200 ? 0 : 1);
  }

  /**
   * @param env the server's environment
   * @return the status {@code /health} answered
   * @throws IOException when the server cannot be reached
   * @throws GeneralSecurityException when TLS cannot be set up
   */
  static int check(Map<String, String> env) throws IOException, GeneralSecurityException {
    boolean tls =
        env.containsKey("CHARTWELL_TLS_CERT")
            || "true".equalsIgnoreCase(env.getOrDefault("CHARTWELL_TLS_SELF_SIGNED", "false"));
    String port = env.getOrDefault("CHARTWELL_PORT", "8080");
    URI uri = URI.create((tls ? "https" : "http") + "://127.0.0.1:" + port + "/health");
    HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
    if (c instanceof HttpsURLConnection s) {
      SSLContext any = SSLContext.getInstance("TLS");
      any.init(null, new TrustManager[] {new AnyCertificate()}, null);
      s.setSSLSocketFactory(any.getSocketFactory());
      s.setHostnameVerifier((host, session) -> true);
    }
    c.setConnectTimeout(5_000);
    c.setReadTimeout(5_000);
    try {
      return c.getResponseCode();
    } finally {
      c.disconnect();
    }
  }

  /** Accepts the server's certificate: see the class comment for why that is safe here. */
  private static final class AnyCertificate implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
