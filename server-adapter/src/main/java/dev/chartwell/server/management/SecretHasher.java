package dev.chartwell.server.management;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Salted hashing of key secrets and passwords, and constant-time verification. Generated secrets
 * carry 238 bits of entropy, so a fast salted hash is sufficient; what matters is that the stored
 * form does not reveal the secret and that comparison time does not leak it.
 */
public final class SecretHasher {
  private static final char[] ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

  private final SecureRandom random = new SecureRandom();

  /**
   * A salt and the hash of a secret under it, both base64.
   *
   * @param salt the salt
   * @param hash the hash
   */
  public record Hashed(String salt, String hash) {}

  /**
   * @param secret the secret
   * @return a fresh salt and the secret's hash under it
   */
  public Hashed hash(String secret) {
    byte[] salt = new byte[16];
    random.nextBytes(salt);
    return new Hashed(
        Base64.getEncoder().encodeToString(salt),
        Base64.getEncoder().encodeToString(digest(salt, secret)));
  }

  /**
   * @param secret the secret presented
   * @param salt the stored salt
   * @param hash the stored hash
   * @return whether the secret matches, compared in constant time
   */
  public boolean matches(String secret, String salt, String hash) {
    byte[] expected = Base64.getDecoder().decode(hash);
    byte[] actual = digest(Base64.getDecoder().decode(salt), secret);
    return MessageDigest.isEqual(expected, actual);
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
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(salt);
      sha.update(secret.getBytes(StandardCharsets.UTF_8));
      return sha.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
