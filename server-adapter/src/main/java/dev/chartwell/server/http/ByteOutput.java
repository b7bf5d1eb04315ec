package dev.chartwell.server.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/** A growing byte array whose content is handed out as a buffer, without a copy. */
final class ByteOutput extends ByteArrayOutputStream {
  /**
   * @param size the initial capacity
   */
  ByteOutput(int size) {
    super(size);
  }

  /**
   * @return what was written, sharing this array (write nothing more once it is handed out)
   */
  ByteBuffer buffer() {
    return ByteBuffer.wrap(buf, 0, count);
  }
}
