package dev.chartwell.server.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The server's TLS identity and the Jetty context factory every TLS port shares: TLS 1.2 and 1.3
 * only, with the JDK's cipher suites less Jetty's weak ones. Given certificate and key files, it
 * reads them again whenever their content changes (checked every few seconds), so a renewed
 * certificate is used for new connections without a restart; a changed file that does not make a
 * usable identity (half written, wrong key, not PEM) leaves the previous one in use, and says why
 * in one log line.
 */
public final class Tls implements AutoCloseable {
  /** The protocols served. */
  static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

  private final SslContextFactory.Server factory;
  private final Path certFile; // null for a key store made here
  private final Path keyFile;
  private final Consumer<String> log;
  private final ScheduledExecutorService watcher; // null for a key store made here
  private volatile String fingerprint;
  private byte[][] loaded; // the cert and key bytes in use
  private byte[][] refused; // the last bytes that failed (logged once); {} after a read failure

  private Tls(Path certFile, Path keyFile, Consumer<String> log, Duration checkEvery) {
    this.factory = new SslContextFactory.Server();
    this.certFile = certFile;
    this.keyFile = keyFile;
    this.log = log;
    factory.setIncludeProtocols(PROTOCOLS);
    factory.setExcludeProtocols("SSL", "SSLv2", "SSLv2Hello", "SSLv3", "TLSv1", "TLSv1.1");
    factory.setRenegotiationAllowed(false);
    factory.setSniRequired(false);
    if (certFile != null && checkEvery != null) {
      watcher =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "chartwell-tls-files");
                t.setDaemon(true);
                return t;
              });
    } else {
      watcher = null;
    }
  }

  /**
   * Reads the PEM files now (a problem is an {@link IOException} naming the file) and checks them
   * again every {@code checkEvery}.
   *
   * @param certFile the certificate chain, the server's certificate first
   * @param keyFile its private key
   * @param checkEvery how often the files are compared with what is in use
   * @param log where a reload or a refused change is reported, one line each
   * @return the TLS identity
   * @throws IOException when the files cannot be read or do not make a usable identity
   */
  public static Tls fromFiles(
      Path certFile, Path keyFile, Duration checkEvery, Consumer<String> log) throws IOException {
    Tls tls = new Tls(certFile, keyFile, log, checkEvery);
    byte[][] bytes = tls.readFiles();
    tls.use(tls.identity(bytes));
    tls.loaded = bytes;
    long every = checkEvery.toMillis();
    tls.watcher.scheduleWithFixedDelay(tls::check, every, every, TimeUnit.MILLISECONDS);
    return tls;
  }

  /**
   * @return a TLS identity whose key store is given later, with {@link #useKeyStore}, before any
   *     port serves
   */
  public static Tls pending() {
    return new Tls(null, null, l -> {}, null);
  }

  /**
   * Sets the certificate of a {@link #pending()} identity; it is never reloaded.
   *
   * @param keyStore a key store with one key entry
   * @param password its password (the key's too)
   */
  public void useKeyStore(KeyStore keyStore, char[] password) {
    factory.setKeyStore(keyStore);
    factory.setKeyStorePassword(new String(password));
    factory.setKeyManagerPassword(new String(password));
    fingerprint = firstFingerprint(keyStore);
  }

  /**
   * @return the context factory for Jetty's {@code SslConnectionFactory}
   */
  public SslContextFactory.Server factory() {
    return factory;
  }

  /**
   * @return the SHA-256 fingerprint of the certificate in use
   */
  public String fingerprint() {
    return fingerprint;
  }

  /**
   * Compares the files with those in use and reloads them when they changed and make a usable
   * identity. Runs on the watcher's thread; tests may call it too.
   */
  synchronized void check() {
    if (certFile == null) {
      return;
    }
    byte[][] bytes;
    try {
      bytes = readFiles();
    } catch (IOException e) {
      refuse(null, e.getMessage());
      return;
    }
    if (Arrays.deepEquals(bytes, loaded) || Arrays.deepEquals(bytes, refused)) {
      return;
    }
    Pem.Identity identity;
    try {
      identity = identity(bytes);
    } catch (IOException e) {
      refuse(bytes, e.getMessage());
      return;
    }
    try {
      factory.reload(f -> set(f, identity));
    } catch (Exception e) {
      refuse(bytes, "the TLS context did not accept them: " + e.getMessage());
      return;
    }
    loaded = bytes;
    refused = null;
    fingerprint = identity.fingerprint();
    log.accept(
        "TLS certificate reloaded from " + certFile + " (SHA-256 fingerprint " + fingerprint + ")");
  }

  private void refuse(byte[][] bytes, String why) {
    if (bytes != null || refused == null || refused.length != 0) {
      log.accept(
          "TLS certificate files changed but the previous certificate stays in use: "
              + why.replaceAll("\\s+", " "));
    }
    refused = bytes == null ? new byte[0][] : bytes;
  }

  private void use(Pem.Identity identity) {
    set(factory, identity);
    fingerprint = identity.fingerprint();
  }

  private static void set(SslContextFactory f, Pem.Identity identity) {
    f.setKeyStore(identity.keyStore());
    f.setKeyStorePassword(new String(identity.password()));
    f.setKeyManagerPassword(new String(identity.password()));
  }

  /** Both files: the certificate's bytes, the key's. */
  private byte[][] readFiles() throws IOException {
    return new byte[][] {read(certFile, "--tls-cert"), read(keyFile, "--tls-key")};
  }

  private static byte[] read(Path file, String flag) throws IOException {
    try {
      if (Files.size(file) > 1 << 20) {
        throw new IOException(flag + " " + file + " is larger than 1 MiB: not a PEM file");
      }
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new IOException(flag + " " + file + " does not exist", e);
    } catch (IOException e) {
      if (e.getMessage() != null && e.getMessage().startsWith(flag)) {
        throw e;
      }
      throw new IOException("cannot read " + flag + " " + file + ": " + e, e);
    }
  }

  private Pem.Identity identity(byte[][] both) throws IOException {
    String cert = new String(both[0], StandardCharsets.ISO_8859_1);
    String key = new String(both[1], StandardCharsets.ISO_8859_1);
    Pem.Identity identity;
    try {
      Pem.certificates(cert);
    } catch (IOException e) {
      throw new IOException("--tls-cert " + certFile + ": " + e.getMessage(), e);
    }
    try {
      Pem.privateKey(key);
    } catch (IOException e) {
      throw new IOException("--tls-key " + keyFile + ": " + e.getMessage(), e);
    }
    try {
      identity = Pem.read(cert, key);
    } catch (IOException e) {
      throw new IOException("--tls-key " + keyFile + ": " + e.getMessage(), e);
    }
    return identity;
  }

  private static String firstFingerprint(KeyStore ks) {
    try {
      for (String alias : java.util.Collections.list(ks.aliases())) {
        Certificate c = ks.getCertificate(alias);
        if (c != null) {
          return Pem.Identity.fingerprint(c);
        }
      }
    } catch (java.security.KeyStoreException e) {
      throw new IllegalStateException(e);
    }
    throw new IllegalArgumentException("the key store holds no certificate");
  }

  /** Stops checking the files. */
  @Override
  public void close() {
    if (watcher != null) {
      watcher.shutdownNow();
    }
  }
}
