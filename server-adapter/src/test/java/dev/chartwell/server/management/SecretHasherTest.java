package dev.chartwell.server.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class SecretHasherTest {
  private final SecretHasher hasher = new SecretHasher(SecretHasher.MIN_ITERATIONS);

  @Test
  void secretsAreHashedWithSaltedPbkdf2NamingItsCost() {
    SecretHasher.Hashed a = hasher.hash("correct horse");
    SecretHasher.Hashed b = hasher.hash("correct horse");
    assertTrue(a.hash().startsWith("pbkdf2-sha256:1000:"), a.hash());
    assertNotEquals(a.hash(), b.hash(), "a fresh salt each time");
    assertTrue(hasher.matches("correct horse", a.salt(), a.hash()));
    assertFalse(hasher.matches("correct horsE", a.salt(), a.hash()));
    assertTrue(hasher.isCurrent(a.hash()));
    SecretHasher costlier = new SecretHasher(2_000);
    assertTrue(costlier.matches("correct horse", a.salt(), a.hash()), "cost read from the hash");
    assertFalse(costlier.isCurrent(a.hash()), "a changed cost is stored again on use");
  }

  @Test
  void hashesOfEarlierVersionsStillVerifyAndAreNotCurrent() throws Exception {
    byte[] salt = new byte[16];
    salt[0] = 9;
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    sha.update(salt);
    sha.update("old secret".getBytes(StandardCharsets.UTF_8));
    String legacy = Base64.getEncoder().encodeToString(sha.digest());
    String saltText = Base64.getEncoder().encodeToString(salt);
    assertTrue(hasher.matches("old secret", saltText, legacy));
    assertFalse(hasher.matches("old secreT", saltText, legacy));
    assertFalse(hasher.isCurrent(legacy));
  }

  @Test
  void theCostHasAFloor() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new SecretHasher(999));
    assertEquals("the key hash iteration count must be at least 1000", e.getMessage());
  }
}
