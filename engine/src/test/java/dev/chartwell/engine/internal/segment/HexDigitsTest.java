package dev.chartwell.engine.internal.segment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Packing lowercase hex digits, eight at a time and one pair at a time, against the JDK's. */
class HexDigitsTest {

  @Test
  void packsWhatHexFormatParsesAndUnpacksItBack() {
    Random random = new Random(7);
    for (int bytes = 1; bytes <= 20; bytes++) { // the eight-digit path, the tail, and both
      for (int round = 0; round < 200; round++) {
        byte[] value = new byte[bytes];
        random.nextBytes(value);
        String hex = HexFormat.of().formatHex(value);
        byte[] digits = ("xy" + hex).getBytes(StandardCharsets.US_ASCII);
        byte[] packed = new byte[bytes];
        assertEquals(true, HexDigits.pack(digits, 2, packed), hex);
        assertArrayEquals(value, packed, hex);
        StringBuilder back = new StringBuilder();
        for (byte b : packed) {
          back.append((char) HexDigits.digit(b >> 4)).append((char) HexDigits.digit(b));
        }
        assertEquals(hex, back.toString());
      }
    }
  }

  @Test
  void everyByteThatIsNotALowercaseHexDigitIsRefusedWhereverItIs() {
    String valid = "0123456789abcdef0123456789abcd"; // 30 digits: three blocks of 8, a tail of 6
    for (int at = 0; at < valid.length(); at++) {
      for (int b = 0; b < 256; b++) {
        boolean digit = (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f');
        byte[] digits = valid.getBytes(StandardCharsets.US_ASCII);
        digits[at] = (byte) b;
        assertEquals(
            digit,
            HexDigits.pack(digits, 0, new byte[digits.length / 2]),
            "byte " + b + " at " + at);
      }
    }
  }

  @Test
  void eightDigitsAsAsciiFromFourPackedBytes() {
    Random random = new Random(11);
    for (int round = 0; round < 10_000; round++) {
      int packed = round < 3 ? new int[] {0, -1, 0x89abcdef}[round] : random.nextInt();
      long ascii = HexDigits.ascii(packed);
      byte[] chars = new byte[8];
      for (int i = 0; i < 8; i++) {
        chars[i] = (byte) (ascii >>> (56 - 8 * i));
      }
      assertEquals(
          String.format("%08x", packed), new String(chars, StandardCharsets.US_ASCII), "" + packed);
    }
  }
}
