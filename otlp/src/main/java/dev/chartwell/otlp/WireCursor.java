package dev.chartwell.otlp;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import java.io.IOException;

/**
 * Steps through the fields of one encoded message without building it, so that the envelopes of a
 * request (resources, scopes, metrics) are walked in place and only the records inside are parsed,
 * one at a time. A field whose tag is not what a caller asks for is skipped, as protobuf treats
 * unknown fields (a known field number with another wire type included).
 */
final class WireCursor {
  private final CodedInputStream in;
  private final int base;
  private int tag;
  private int sliceOffset;
  private int sliceLength;

  WireCursor(byte[] buf, int off, int len) {
    this.in = CodedInputStream.newInstance(buf, off, len);
    this.base = off;
  }

  /**
   * @return whether there is another field; it is then current
   * @throws IOException when the bytes are not protobuf
   */
  boolean next() throws IOException {
    tag = in.readTag();
    return tag != 0;
  }

  /**
   * @param field a field number
   * @return whether the current field is that field, length-delimited (a message, a string, bytes)
   */
  boolean isLengthDelimited(int field) {
    return tag == (field << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED);
  }

  /**
   * @param field a field number
   * @return whether the current field is that field as a varint
   */
  boolean isVarint(int field) {
    return tag == (field << 3 | WireFormat.WIRETYPE_VARINT);
  }

  /**
   * Reads the current length-delimited field's position; {@link #offset()} and {@link #length()}
   * then locate its bytes.
   *
   * @throws IOException when the length is malformed or runs past the end
   */
  void slice() throws IOException {
    int length = in.readRawVarint32();
    if (length < 0) {
      throw new InvalidProtocolBufferException(
          "CodedInputStream encountered an embedded string or message which claimed to have"
              + " negative size.");
    }
    sliceOffset = base + in.getTotalBytesRead();
    sliceLength = length;
    in.skipRawBytes(length);
  }

  int offset() {
    return sliceOffset;
  }

  int length() {
    return sliceLength;
  }

  /**
   * @return the current field as a string
   * @throws IOException when it is not UTF-8 or runs past the end
   */
  String string() throws IOException {
    return in.readStringRequireUtf8();
  }

  /**
   * @return the current field as a varint
   * @throws IOException when it is malformed
   */
  long varint() throws IOException {
    return in.readRawVarint64();
  }

  /**
   * Skips the current field.
   *
   * @throws IOException when it is malformed
   */
  void skip() throws IOException {
    if (!in.skipField(tag)) {
      throw new InvalidProtocolBufferException(
          "Protocol message end-group tag did not match expected tag.");
    }
  }
}
