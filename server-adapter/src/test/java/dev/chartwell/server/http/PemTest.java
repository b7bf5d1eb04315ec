package dev.chartwell.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PEM certificates and keys in every accepted form, and what a refusal says. */
class PemTest {
  @TempDir Path dir;

  static String fixture(String name) throws Exception {
    return Files.readString(Path.of(PemTest.class.getResource("/tls/" + name).toURI()));
  }

  @Test
  void aChainWithAPkcs8EcKey() throws Exception {
    Pem.Identity id = Pem.read(fixture("server.pem"), fixture("server-key.pem"));
    assertEquals(2, id.chain().size());
    assertEquals("CN=localhost", id.chain().get(0).getSubjectX500Principal().getName());
    assertEquals("CN=Chartwell test CA", id.chain().get(1).getSubjectX500Principal().getName());
    assertTrue(id.keyStore().isKeyEntry(Pem.ALIAS));
    assertTrue(id.fingerprint().matches("([0-9A-F]{2}:){31}[0-9A-F]{2}"), id.fingerprint());
  }

  @Test
  void sec1EcAndPkcs1RsaKeys() throws Exception {
    assertEquals("EC", Pem.privateKey(fixture("server-key-sec1.pem")).getAlgorithm());
    assertEquals(
        ((java.security.interfaces.ECPrivateKey) Pem.privateKey(fixture("server-key.pem"))).getS(),
        ((java.security.interfaces.ECPrivateKey) Pem.privateKey(fixture("server-key-sec1.pem")))
            .getS());
    Pem.read(fixture("server.pem"), fixture("server-key-sec1.pem"));
    assertEquals("RSA", Pem.privateKey(fixture("server2-key-rsa.pem")).getAlgorithm());
    Pem.read(fixture("server2.pem"), fixture("server2-key-rsa.pem"));
  }

  @Test
  void refusalsSayWhatIsWrongAndHowToFixIt() throws Exception {
    assertEquals(
        "the private key does not belong to the certificate (the first one in the certificate"
            + " file)",
        assertThrows(
                java.io.IOException.class,
                () -> Pem.read(fixture("server2.pem"), fixture("server-key.pem")))
            .getMessage());
    assertTrue(
        message("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----")
            .contains("openssl pkey -in key.pem -out key-plain.pem"));
    assertTrue(
        message("-----BEGIN DSA PRIVATE KEY-----\nAAAA\n-----END DSA PRIVATE KEY-----")
            .contains("convert it to PKCS#8: openssl pkey"));
    assertTrue(
        message("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----")
            .contains("does not parse as an RSA, EC or Ed25519 key"));
    assertTrue(message(fixture("server.pem")).startsWith("no PEM private key found"));
    assertTrue(
        assertThrows(java.io.IOException.class, () -> Pem.certificates(fixture("server-key.pem")))
            .getMessage()
            .startsWith("the certificate file holds a private key"));
    assertTrue(
        assertThrows(
                java.io.IOException.class,
                () ->
                    Pem.certificates(
                        "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"))
            .getMessage()
            .startsWith("certificate 1 in the file does not parse"));
  }

  private static String message(String keyPem) {
    return assertThrows(java.io.IOException.class, () -> Pem.privateKey(keyPem)).getMessage();
  }

  @Test
  void onlyTls12And13AreServed() throws Exception {
    Path cert = dir.resolve("c.pem");
    Path key = dir.resolve("k.pem");
    Files.writeString(cert, fixture("server.pem"));
    Files.writeString(key, fixture("server-key.pem"));
    try (Tls tls = Tls.fromFiles(cert, key, Duration.ofHours(1), l -> {})) {
      tls.factory().start();
      try {
        assertEquals(List.of("TLSv1.3", "TLSv1.2"), List.of(tls.factory().getSelectedProtocols()));
      } finally {
        tls.factory().stop();
      }
    }
  }
}
