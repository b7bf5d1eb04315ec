package dev.chartwell.otlp;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.util.Locale;

/**
 * A request body that is not a valid OTLP export request: nothing of it may be stored. The message
 * says where ({@code resourceLogs[0].scopeLogs[2].logRecords[17]}) and what, in our words.
 */
public final class OtlpFormatException extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * @param message where and what
   */
  public OtlpFormatException(String message) {
    super(message, null, false, false);
  }

  /**
   * @param where the path of the message that failed
   * @param e protobuf's report
   * @return the failure in our words (protobuf's texts name its own classes and methods)
   */
  static OtlpFormatException of(String where, IOException e) {
    return new OtlpFormatException(where + ": " + describe(e));
  }

  static String describe(IOException e) {
    if (!(e instanceof InvalidProtocolBufferException)) {
      return "not a valid protobuf encoding";
    }
    String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
    if (m.contains("ended unexpectedly")) {
      return "the data ends in the middle of a field (the body is truncated, or a length inside"
          + " it is wrong)";
    }
    if (m.contains("negative size")) {
      return "a length is negative";
    }
    if (m.contains("malformed varint")) {
      return "a malformed varint";
    }
    if (m.contains("invalid tag")) {
      return "a field tag of zero";
    }
    if (m.contains("end-group")) {
      return "a group end that matches no group start";
    }
    if (m.contains("wire type")) {
      return "a field with an invalid wire type";
    }
    if (m.contains("levels of nesting")) {
      return "messages nest more than "
          + Signal.MAX_RECORD_DEPTH
          + " levels deep (key-value lists and arrays inside attribute values count)";
    }
    if (m.contains("utf-8")) {
      return "a string that is not valid UTF-8";
    }
    if (m.contains("too large")) {
      return "a message larger than protobuf allows";
    }
    return "not a valid protobuf encoding";
  }
}
