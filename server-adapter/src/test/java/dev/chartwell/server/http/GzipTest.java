package dev.chartwell.server.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

class GzipTest {
  @Test
  void gzipIsAcceptedByNameOrWildcardUnlessRefused() {
    for (String yes :
        new String[] {
          "gzip",
          "GZIP",
          "deflate, gzip",
          "gzip;q=0.5",
          "x-gzip",
          "*",
          "br;q=1, *;q=0.1",
          "gzip;q=0, x-gzip",
          " gzip ; q=1.0 "
        }) {
      assertTrue(Gzip.accepted(yes), yes);
    }
    for (String no :
        new String[] {
          "",
          "identity",
          "br, deflate",
          "gzip;q=0",
          "gzip;q=0.000",
          "*;q=0",
          "*, gzip;q=0",
          "gzip;q=bad",
          "gzip;q=2"
        }) {
      assertFalse(Gzip.accepted(no), no);
    }
    assertFalse(Gzip.accepted(null));
  }

  @Test
  void compressedBodiesInflateToTheOriginal() throws Exception {
    byte[] body =
        "{\"ts_bucket\":1767139200000,\"group\":[],\"series_0.data\":35},"
            .repeat(1000)
            .getBytes(StandardCharsets.UTF_8);
    ByteBuffer shifted = ByteBuffer.wrap(new byte[body.length + 10], 5, body.length).slice();
    shifted.put(body).flip();
    ByteBuffer gz = Gzip.compress(shifted);
    assertTrue(gz.remaining() < body.length / 4, "compresses: " + gz.remaining());
    byte[] raw = new byte[gz.remaining()];
    gz.get(raw);
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(raw))) {
      assertArrayEquals(body, in.readAllBytes());
    }
  }
}
