package dev.chartwell.server.store;

import dev.chartwell.engine.internal.storage.OwnerOnly;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The server's secret key and what it does: encrypts the stored secrets that must be recoverable
 * (connection passwords, webhook headers and query parameters) with AES-256-GCM, and keys the HMAC
 * by which service tokens and verified API key secrets are found without hashing per candidate.
 *
 * <p>The key is 32 random bytes, base64 in {@code secrets.key} under the data directory (made 0600
 * on the first start), or in the file {@code --secrets-key-file} names (kept apart from the data,
 * for example on another volume or in a secrets manager's mount). {@code secrets.check} under the
 * data directory holds an HMAC of a fixed text under the key, so a server started with another key
 * than the one its secrets were written with refuses to start instead of failing on every secret.
 * Encryption and the HMAC use two keys derived from the one in the file.
 */
public final class Secrets {
  /** The key file under the data directory, when no {@code --secrets-key-file} is given. */
  public static final String KEY_FILE = "secrets.key";

  /** The check of the key under the data directory. */
  public static final String CHECK_FILE = "secrets.check";

  /** What an encrypted value starts with (then base64 of nonce, ciphertext and tag). */
  static final String PREFIX = "chartwell-enc:v1:";

  private static final int KEY_BYTES = 32;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;

  private final SecretKeySpec encryption;
  private final SecretKeySpec index;
  private final SecureRandom random = new SecureRandom();

  private Secrets(byte[] key) {
    this.encryption = new SecretKeySpec(derive(key, "encryption"), "AES");
    this.index = new SecretKeySpec(derive(key, "index"), "HmacSHA256");
  }

  /**
   * Reads the key, or makes one when the data directory has none and no key file is given.
   *
   * @param dataDir the (locked) data directory
   * @param keyFile {@code --secrets-key-file}, if given (it must exist)
   * @return the server's secrets
   * @throws IOException naming the file when it is missing, unreadable, not a base64 32-byte key,
   *     or not the key this data directory's secrets were written with
   */
  public static Secrets open(Path dataDir, Optional<Path> keyFile) throws IOException {
    byte[] key;
    if (keyFile.isPresent()) {
      Path f = keyFile.get();
      if (!Files.isRegularFile(f)) {
        throw new IOException(
            "--secrets-key-file "
                + f
                + " does not exist; make one with: head -c 32 /dev/urandom | base64 > "
                + f
                + " && chmod 600 "
                + f);
      }
      key = read(f);
    } else {
      Path f = dataDir.resolve(KEY_FILE);
      if (!Files.exists(f)) {
        create(f);
      }
      key = read(f);
    }
    Secrets s = new Secrets(key);
    s.check(dataDir.resolve(CHECK_FILE), keyFile.orElse(dataDir.resolve(KEY_FILE)));
    return s;
  }

  /**
   * A key for tests and tools that hold no data directory.
   *
   * @param key 32 bytes
   * @return secrets under that key
   */
  public static Secrets of(byte[] key) {
    if (key.length != KEY_BYTES) {
      throw new IllegalArgumentException("a secrets key is " + KEY_BYTES + " bytes");
    }
    return new Secrets(key.clone());
  }

  /**
   * Encrypts a value, bound to where it is stored: a ciphertext moved to another document or field
   * does not decrypt.
   *
   * @param plaintext the value
   * @param context where it is stored, such as {@code connections/<id>/password}
   * @return {@value #PREFIX} and base64 of nonce, ciphertext and tag
   */
  public String encrypt(String plaintext, String context) {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    try {
      Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
      c.init(Cipher.ENCRYPT_MODE, encryption, new GCMParameterSpec(TAG_BITS, nonce));
      c.updateAAD(context.getBytes(StandardCharsets.UTF_8));
      byte[] sealed = c.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
      byte[] out = new byte[NONCE_BYTES + sealed.length];
      System.arraycopy(nonce, 0, out, 0, NONCE_BYTES);
      System.arraycopy(sealed, 0, out, NONCE_BYTES, sealed.length);
      return PREFIX + Base64.getEncoder().encodeToString(out);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is required by every Java platform", e);
    }
  }

  /**
   * @param stored a stored value
   * @return whether it is one {@link #encrypt} made
   */
  public static boolean isEncrypted(String stored) {
    return stored.startsWith(PREFIX);
  }

  /**
   * @param stored what {@link #encrypt} returned
   * @param context the same context it was encrypted with
   * @return the value
   * @throws IllegalStateException when it does not decrypt (another key, another place, or damage)
   */
  public String decrypt(String stored, String context) {
    if (!isEncrypted(stored)) {
      throw new IllegalArgumentException("not an encrypted value");
    }
    try {
      byte[] in = Base64.getDecoder().decode(stored.substring(PREFIX.length()));
      Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
      c.init(Cipher.DECRYPT_MODE, encryption, new GCMParameterSpec(TAG_BITS, in, 0, NONCE_BYTES));
      c.updateAAD(context.getBytes(StandardCharsets.UTF_8));
      return new String(
          c.doFinal(in, NONCE_BYTES, in.length - NONCE_BYTES), StandardCharsets.UTF_8);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalStateException(
          "the stored secret at " + context + " does not decrypt with this server's key", e);
    }
  }

  /**
   * The HMAC-SHA256 of a value under the server's index key: what service tokens are found by, and
   * what verified API key secrets are remembered by. Without the key it reveals nothing of the
   * value, and computing it costs about a microsecond.
   *
   * @param purpose what the value is (kept apart: the same bytes for two purposes differ)
   * @param value the value
   * @return base64 of the HMAC
   */
  public String index(String purpose, byte[] value) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(index);
      mac.update(purpose.getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      return Base64.getEncoder().encodeToString(mac.doFinal(value));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is required by every Java platform", e);
    }
  }

  private void check(Path checkFile, Path keyFile) throws IOException {
    String expected = index("check", "chartwell secrets key".getBytes(StandardCharsets.US_ASCII));
    if (!Files.exists(checkFile)) {
      writeOwnerOnly(checkFile, expected + "\n");
      return;
    }
    String found = Files.readString(checkFile, StandardCharsets.US_ASCII).strip();
    if (!MessageDigest.isEqual(
        found.getBytes(StandardCharsets.US_ASCII), expected.getBytes(StandardCharsets.US_ASCII))) {
      throw new IOException(
          "the secrets key "
              + keyFile
              + " is not the key this data directory's stored secrets were encrypted with ("
              + checkFile
              + " does not match it); start with the key it was made with");
    }
  }

  private static void create(Path f) throws IOException {
    byte[] key = new byte[KEY_BYTES];
    new SecureRandom().nextBytes(key);
    writeOwnerOnly(f, Base64.getEncoder().encodeToString(key) + "\n");
  }

  private static void writeOwnerOnly(Path f, String text) throws IOException {
    Path tmp = f.resolveSibling(f.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    try (FileChannel ch =
        OwnerOnly.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)));
      ch.force(true);
    }
    Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE);
  }

  private static byte[] read(Path f) throws IOException {
    String text;
    try {
      text = Files.readString(f, StandardCharsets.US_ASCII).strip();
    } catch (IOException e) {
      throw new IOException("cannot read the secrets key " + f + ": " + e.getMessage(), e);
    }
    byte[] key;
    try {
      key = Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      key = new byte[0];
    }
    if (key.length != KEY_BYTES) {
      throw new IOException(
          "the secrets key "
              + f
              + " must hold "
              + KEY_BYTES
              + " random bytes in base64 (head -c 32 /dev/urandom | base64)");
    }
    return key;
  }

  private static byte[] derive(byte[] key, String purpose) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(("chartwell " + purpose).getBytes(StandardCharsets.US_ASCII));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is required by every Java platform", e);
    }
  }
}
