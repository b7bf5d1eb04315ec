package dev.chartwell.server.http;

import dev.chartwell.engine.internal.storage.OwnerOnly;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The self-signed certificate of {@code --tls-self-signed}: made once with the JDK's own {@code
 * keytool} (the JDK has no public API for certificates) into {@code tls/self-signed.p12} under the
 * data directory, with its certificate also in {@code tls/self-signed.pem} for clients to trust;
 * both owner-only, the folder too. Later starts reuse it. Its names: {@code localhost}, {@code
 * 127.0.0.1}, {@code ::1} and the bound address when it is a specific one.
 */
public final class SelfSigned {
  /** The key store's password. The file's permissions (0600 in a 0700 folder) protect the key. */
  static final char[] PASSWORD = "chartwell".toCharArray();

  /** The key store, under the data directory. */
  public static final String KEY_STORE = "tls/self-signed.p12";

  /** The certificate alone, in PEM, under the data directory. */
  public static final String CERTIFICATE = "tls/self-signed.pem";

  private SelfSigned() {}

  /**
   * @param dataDir the data directory
   * @param host the bound address
   * @return the key store, made now if there was none
   * @throws IOException when keytool fails or the files cannot be written or read
   */
  public static KeyStore ensure(Path dataDir, String host) throws IOException {
    Path store = dataDir.resolve(KEY_STORE);
    Path pem = dataDir.resolve(CERTIFICATE);
    Path folder = store.getParent();
    if (!Files.isDirectory(folder)) {
      OwnerOnly.createDirectories(folder);
    }
    if (!Files.exists(store)) {
      generate(store, host);
    }
    KeyStore ks;
    try (InputStream in = Files.newInputStream(store)) {
      ks = KeyStore.getInstance("PKCS12");
      ks.load(in, PASSWORD);
    } catch (GeneralSecurityException | IOException e) {
      throw new IOException(
          "cannot read "
              + store
              + " ("
              + e.getMessage()
              + "); delete it and the server makes a new self-signed certificate",
          e);
    }
    Certificate cert;
    try {
      cert = ks.getCertificate(Pem.ALIAS);
    } catch (GeneralSecurityException e) {
      throw new IOException(e);
    }
    if (cert == null) {
      throw new IOException(store + " holds no certificate '" + Pem.ALIAS + "'; delete it");
    }
    String text = pem(cert);
    if (!Files.exists(pem) || !Files.readString(pem, StandardCharsets.US_ASCII).equals(text)) {
      Path tmp = pem.resolveSibling(pem.getFileName() + ".tmp");
      Files.writeString(tmp, text, StandardCharsets.US_ASCII);
      OwnerOnly.restrict(tmp);
      Files.move(tmp, pem, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
    return ks;
  }

  /**
   * @return the key store's password
   */
  public static char[] password() {
    return PASSWORD.clone();
  }

  private static void generate(Path store, String host) throws IOException {
    Path tmp = store.resolveSibling(store.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    StringBuilder san = new StringBuilder("SAN=dns:localhost,ip:127.0.0.1,ip:::1");
    String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    if (!h.equals("localhost")
        && !h.equals("127.0.0.1")
        && !h.equals("::1")
        && !h.equals("0.0.0.0")
        && !h.equals("::")) {
      san.append(",ip:").append(h);
    }
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    List<String> command =
        new ArrayList<>(
            List.of(
                keytool.toString(),
                "-genkeypair",
                "-alias",
                Pem.ALIAS,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-sigalg",
                "SHA256withECDSA",
                "-dname",
                "CN=Chartwell self-signed",
                "-ext",
                san.toString(),
                "-ext",
                "EKU=serverAuth",
                "-validity",
                "825",
                "-storetype",
                "PKCS12",
                "-keystore",
                tmp.toString(),
                "-storepass",
                new String(PASSWORD),
                "-keypass",
                new String(PASSWORD)));
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new IOException(
          "--tls-self-signed needs the JDK's keytool (" + keytool + "): " + e.getMessage(), e);
    }
    p.getOutputStream().close();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("keytool did not finish making the self-signed certificate");
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while making the self-signed certificate", e);
    }
    if (p.exitValue() != 0 || !Files.exists(tmp)) {
      Files.deleteIfExists(tmp);
      throw new IOException(
          "keytool could not make the self-signed certificate: "
              + output.strip().replaceAll("\\s+", " "));
    }
    OwnerOnly.restrict(tmp);
    Files.move(tmp, store, StandardCopyOption.ATOMIC_MOVE);
  }

  private static String pem(Certificate cert) throws IOException {
    try {
      return "-----BEGIN CERTIFICATE-----\n"
          + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(cert.getEncoded())
          + "\n-----END CERTIFICATE-----\n";
    } catch (GeneralSecurityException e) {
      throw new IOException(e);
    }
  }
}
