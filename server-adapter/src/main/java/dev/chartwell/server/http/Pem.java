package dev.chartwell.server.http;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a certificate chain and its private key from PEM text with the JDK alone, into an in-memory
 * key store. The key may be PKCS#8 ({@code BEGIN PRIVATE KEY}: RSA, EC or Ed25519), PKCS#1 ({@code
 * BEGIN RSA PRIVATE KEY}) or SEC1 ({@code BEGIN EC PRIVATE KEY}); an encrypted key is refused with
 * the command that decrypts it. Every failure is an {@link IOException} whose message says what is
 * wrong in one line.
 */
public final class Pem {
  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----", Pattern.DOTALL);

  private static final byte[] OID_RSA = {
    0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01
  };
  private static final byte[] OID_EC = {
    0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 2, 1
  };

  /** The alias of the key entry in the stores made here. */
  public static final String ALIAS = "chartwell";

  private Pem() {}

  /**
   * A certificate chain with its key, as a key store.
   *
   * @param keyStore a PKCS12 store in memory holding one key entry, {@link #ALIAS}
   * @param password the store's and the key's password (random, made here)
   * @param chain the certificates, the server's first
   */
  public record Identity(KeyStore keyStore, char[] password, List<X509Certificate> chain) {
    /**
     * @return the SHA-256 fingerprint of the server's certificate, as colon-separated hex pairs
     */
    public String fingerprint() {
      return fingerprint(chain.get(0));
    }

    /**
     * @param cert a certificate
     * @return its SHA-256 fingerprint, {@code AB:CD:...}
     */
    public static String fingerprint(Certificate cert) {
      try {
        byte[] d = MessageDigest.getInstance("SHA-256").digest(cert.getEncoded());
        return HexFormat.ofDelimiter(":").withUpperCase().formatHex(d);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /**
   * @param certPem the certificate file's text: the server's certificate, then any intermediates
   * @param keyPem the private key file's text
   * @return the identity
   * @throws IOException saying what is wrong with either text
   */
  public static Identity read(String certPem, String keyPem) throws IOException {
    List<X509Certificate> chain = certificates(certPem);
    PrivateKey key = privateKey(keyPem);
    if (!matches(key, chain.get(0).getPublicKey())) {
      throw new IOException(
          "the private key does not belong to the certificate (the first one in the certificate"
              + " file)");
    }
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      char[] password = new char[24];
      SecureRandom random = new SecureRandom();
      for (int i = 0; i < password.length; i++) {
        password[i] = (char) ('a' + random.nextInt(26));
      }
      ks.setKeyEntry(ALIAS, key, password, chain.toArray(Certificate[]::new));
      return new Identity(ks, password, List.copyOf(chain));
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot hold the key and certificate: " + e.getMessage(), e);
    }
  }

  /**
   * @param pem PEM text with one or more {@code CERTIFICATE} blocks
   * @return the certificates in file order
   * @throws IOException when there is none or one does not parse
   */
  public static List<X509Certificate> certificates(String pem) throws IOException {
    List<X509Certificate> out = new ArrayList<>();
    Matcher m = BLOCK.matcher(pem);
    CertificateFactory factory;
    try {
      factory = CertificateFactory.getInstance("X.509");
    } catch (CertificateException e) {
      throw new IllegalStateException(e);
    }
    while (m.find()) {
      if (!m.group(1).equals("CERTIFICATE")) {
        if (m.group(1).contains("PRIVATE KEY")) {
          throw new IOException(
              "the certificate file holds a private key; give it with --tls-key and keep only"
                  + " certificates here");
        }
        continue;
      }
      try {
        out.add(
            (X509Certificate)
                factory.generateCertificate(new ByteArrayInputStream(base64(m.group(2)))));
      } catch (CertificateException | IllegalArgumentException e) {
        throw new IOException(
            "certificate " + (out.size() + 1) + " in the file does not parse: " + e.getMessage(),
            e);
      }
    }
    if (out.isEmpty()) {
      throw new IOException(
          "no PEM certificate found (expected -----BEGIN CERTIFICATE----- blocks, the server's"
              + " certificate first, then its intermediates)");
    }
    return out;
  }

  /**
   * @param pem PEM text with one private key block
   * @return the key
   * @throws IOException when there is none, it is encrypted or it does not parse
   */
  public static PrivateKey privateKey(String pem) throws IOException {
    Matcher m = BLOCK.matcher(pem);
    while (m.find()) {
      String type = m.group(1);
      byte[] der;
      try {
        der = base64(m.group(2));
      } catch (IllegalArgumentException e) {
        throw new IOException("the " + type + " block is not valid base64", e);
      }
      switch (type) {
        case "PRIVATE KEY":
          return pkcs8(der, "PKCS#8");
        case "RSA PRIVATE KEY":
          return pkcs8(wrap(OID_RSA, new byte[] {0x05, 0x00}, der), "PKCS#1 RSA");
        case "EC PRIVATE KEY":
          return pkcs8(wrap(OID_EC, curveOf(der), der), "SEC1 EC");
        case "ENCRYPTED PRIVATE KEY":
          throw new IOException(
              "the private key is encrypted; the server needs it unencrypted (readable by the"
                  + " server's user only): openssl pkey -in key.pem -out key-plain.pem");
        default:
          if (type.contains("PRIVATE KEY")) {
            throw new IOException(
                "unsupported key form '"
                    + type
                    + "'; convert it to PKCS#8: openssl pkey -in key.pem -out key-pkcs8.pem");
          }
      }
    }
    throw new IOException(
        "no PEM private key found (expected -----BEGIN PRIVATE KEY-----, or BEGIN RSA PRIVATE KEY"
            + " or BEGIN EC PRIVATE KEY)");
  }

  private static PrivateKey pkcs8(byte[] der, String form) throws IOException {
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
    for (String algorithm : new String[] {"RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS"}) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (InvalidKeySpecException | java.security.NoSuchAlgorithmException e) {
        // the next algorithm
      }
    }
    throw new IOException(
        "the "
            + form
            + " private key does not parse as an RSA, EC or Ed25519 key; convert it to PKCS#8:"
            + " openssl pkey -in key.pem -out key-pkcs8.pem");
  }

  /** Whether the key signs what the certificate's public key verifies. */
  private static boolean matches(PrivateKey key, PublicKey pub) {
    String algorithm =
        switch (key.getAlgorithm().toUpperCase(Locale.ROOT)) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          case "RSASSA-PSS" -> null;
          default -> key.getAlgorithm(); // Ed25519, Ed448, EdDSA
        };
    if (algorithm == null) {
      return true; // checked by the handshake instead
    }
    try {
      byte[] probe = "chartwell".getBytes(StandardCharsets.US_ASCII);
      Signature s = Signature.getInstance(algorithm);
      s.initSign(key);
      s.update(probe);
      byte[] signature = s.sign();
      Signature v = Signature.getInstance(algorithm);
      v.initVerify(pub);
      v.update(probe);
      return v.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  /** PKCS#8 PrivateKeyInfo: version 0, the algorithm identifier, the key's own encoding. */
  private static byte[] wrap(byte[] oid, byte[] parameters, byte[] key) {
    byte[] algorithm = der(0x30, concat(oid, parameters));
    return der(0x30, concat(new byte[] {0x02, 0x01, 0x00}, algorithm, der(0x04, key)));
  }

  /**
   * The named curve of a SEC1 ECPrivateKey: {@code SEQUENCE {version, privateKey, [0] parameters,
   * [1] publicKey}}.
   */
  private static byte[] curveOf(byte[] sec1) throws IOException {
    try {
      int[] seq = header(sec1, 0);
      int p = seq[0];
      int end = p + seq[1];
      while (p < end) {
        int tag = sec1[p] & 0xff;
        int[] h = header(sec1, p);
        if (tag == 0xa0) {
          int[] inner = header(sec1, h[0]);
          if ((sec1[h[0]] & 0xff) == 0x06) {
            byte[] oid = new byte[inner[0] + inner[1] - h[0]];
            System.arraycopy(sec1, h[0], oid, 0, oid.length);
            return oid;
          }
        }
        p = h[0] + h[1];
      }
    } catch (RuntimeException e) {
      // reported below
    }
    throw new IOException(
        "the EC private key names no curve; convert it to PKCS#8: openssl pkey -in key.pem -out"
            + " key-pkcs8.pem");
  }

  /** The offset of a DER value's content and its length, for the value at {@code at}. */
  private static int[] header(byte[] der, int at) {
    int len = der[at + 1] & 0xff;
    int p = at + 2;
    if (len >= 0x80) {
      int n = len & 0x7f;
      len = 0;
      for (int i = 0; i < n; i++) {
        len = (len << 8) | (der[p++] & 0xff);
      }
    }
    if (len < 0 || p + len > der.length) {
      throw new IllegalArgumentException("truncated");
    }
    return new int[] {p, len};
  }

  private static byte[] der(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int len = content.length;
    if (len < 0x80) {
      out.write(len);
    } else {
      int bytes = len > 0xffffff ? 4 : len > 0xffff ? 3 : len > 0xff ? 2 : 1;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(len >>> (8 * i));
      }
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  private static byte[] base64(String text) {
    return Base64.getMimeDecoder().decode(text.replaceAll("\\s", ""));
  }
}
