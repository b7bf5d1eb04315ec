package dev.chartwell.server.management;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLong;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Hashing of secrets and passwords, and constant-time verification.
 *
 * <p>API key secrets may be chosen by people ({@code --api-key}), so they are hashed with
 * PBKDF2-HMAC-SHA256, salted, at a cost set by {@code --key-hash-iterations} (default {@value
 * #DEFAULT_ITERATIONS}, the OWASP recommendation for this function); the stored form names the
 * function and its cost, {@code pbkdf2-sha256:<iterations>:<base64>}. A hash stored by an earlier
 * version (one round of salted SHA-256, bare base64) still verifies, and {@link #isCurrent} tells
 * the caller to store the secret again in the current form after a successful use.
 *
 * <p>Service passwords are found through an HMAC index under the server's key and then verified
 * once against a salted SHA-256 of the password's digest ({@link #hashDigest}): generated ones
 * carry 143 bits of entropy, and the Cloud API only ever hands the server that digest.
 */
public final class SecretHasher {
  /** The default PBKDF2 iteration count. */
  public static final int DEFAULT_ITERATIONS = 600_000;

  /** The smallest iteration count accepted (lower ones are for nothing but tests). */
  public static final int MIN_ITERATIONS = 1_000;

  private static final String PBKDF2 = "pbkdf2-sha256:";
  private static final int HASH_BITS = 256;

  private static final char[] ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

  private final SecureRandom random = new SecureRandom();
  private final int iterations;
  private final AtomicLong slowHashes = new AtomicLong();
  private final AtomicLong digestChecks = new AtomicLong();

  /**
   * @param iterations the PBKDF2 cost of new hashes, at least {@value #MIN_ITERATIONS}
   */
  public SecretHasher(int iterations) {
    if (iterations < MIN_ITERATIONS) {
      throw new IllegalArgumentException(
          "the key hash iteration count must be at least " + MIN_ITERATIONS);
    }
    this.iterations = iterations;
  }

  /**
   * A salt and the hash of a secret under it, both base64.
   *
   * @param salt the salt
   * @param hash the hash
   */
  public record Hashed(String salt, String hash) {}

  /**
   * @param secret the secret
   * @return a fresh salt and the secret's PBKDF2 hash under it, in the current form
   */
  public Hashed hash(String secret) {
    byte[] salt = new byte[16];
    random.nextBytes(salt);
    return new Hashed(
        Base64.getEncoder().encodeToString(salt),
        PBKDF2
            + iterations
            + ":"
            + Base64.getEncoder().encodeToString(pbkdf2(secret, salt, iterations)));
  }

  /**
   * @param secret the secret presented
   * @param salt the stored salt
   * @param hash the stored hash, current or from an earlier version
   * @return whether the secret matches, compared in constant time
   */
  public boolean matches(String secret, String salt, String hash) {
    byte[] saltBytes = Base64.getDecoder().decode(salt);
    if (!hash.startsWith(PBKDF2)) {
      return MessageDigest.isEqual(Base64.getDecoder().decode(hash), digest(saltBytes, secret));
    }
    int colon = hash.indexOf(':', PBKDF2.length());
    int cost = Integer.parseInt(hash.substring(PBKDF2.length(), colon));
    byte[] expected = Base64.getDecoder().decode(hash.substring(colon + 1));
    return MessageDigest.isEqual(expected, pbkdf2(secret, saltBytes, cost));
  }

  /**
   * @param hash a stored hash
   * @return whether it is in the current form and cost (else the secret should be hashed again
   *     after its next successful use)
   */
  public boolean isCurrent(String hash) {
    return hash.startsWith(PBKDF2 + iterations + ":");
  }

  /**
   * @return how many PBKDF2 hashes this hasher has computed (tests count them)
   */
  long slowHashes() {
    return slowHashes.get();
  }

  /**
   * @return how many password digests this hasher has checked (tests count them)
   */
  long digestChecks() {
    return digestChecks.get();
  }

  private byte[] pbkdf2(String secret, byte[] salt, int cost) {
    slowHashes.incrementAndGet();
    PBEKeySpec spec = new PBEKeySpec(secret.toCharArray(), salt, cost, HASH_BITS);
    try {
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("PBKDF2WithHmacSHA256 is required by every Java platform", e);
    } finally {
      spec.clearPassword();
    }
  }

  /**
   * Hashes a digest the client already computed (a service password's SHA-256), salted like a
   * secret.
   *
   * @param digest the digest
   * @return a fresh salt and the salted hash
   */
  public Hashed hashDigest(byte[] digest) {
    byte[] salt = new byte[16];
    random.nextBytes(salt);
    return new Hashed(
        Base64.getEncoder().encodeToString(salt),
        Base64.getEncoder().encodeToString(digest(salt, digest)));
  }

  /**
   * @param digest the digest presented
   * @param salt the stored salt
   * @param hash the stored hash
   * @return whether it matches, compared in constant time
   */
  public boolean matchesDigest(byte[] digest, String salt, String hash) {
    digestChecks.incrementAndGet();
    return MessageDigest.isEqual(
        Base64.getDecoder().decode(hash), digest(Base64.getDecoder().decode(salt), digest));
  }

  private static byte[] digest(byte[] salt, byte[] value) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(salt);
      sha.update(value);
      return sha.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  /**
   * @param length number of characters
   * @return a random string of letters and digits
   */
  public String randomToken(int length) {
    char[] out = new char[length];
    for (int i = 0; i < length; i++) {
      out[i] = ALPHABET[random.nextInt(ALPHABET.length)];
    }
    return new String(out);
  }

  private static byte[] digest(byte[] salt, String secret) {
    return digest(salt, secret.getBytes(StandardCharsets.UTF_8));
  }
}
