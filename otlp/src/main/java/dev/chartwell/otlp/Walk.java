package dev.chartwell.otlp;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import java.io.IOException;

/**
 * One pass over a request's bytes: checking (parse everything, count, keep nothing) or converting
 * (turn each record into a row for the sink). It holds what the records of the current scope share:
 * the sizes of their resource and scope, and when converting, the row of their common columns.
 */
final class Walk {
  final byte[] body;
  private final RowSink sink;
  final long receivedNanos;

  private long records;
  private long expandedBytes;
  private long headerBytes;

  /** The columns every record of the current scope starts with, when converting. */
  private Row common;

  /** Why every record of the current scope is rejected (its resource or scope), or null. */
  private String commonProblem;

  private Walk(byte[] body, RowSink sink, long receivedNanos) {
    this.body = body;
    this.sink = sink;
    this.receivedNanos = receivedNanos;
  }

  static Walk checking(byte[] body) {
    return new Walk(body, null, 0);
  }

  static Walk converting(byte[] body, RowSink sink, long receivedNanos) {
    return new Walk(body, sink, receivedNanos);
  }

  boolean checking() {
    return sink == null;
  }

  /** The records that follow share this many bytes of resource and scope (and metric). */
  void shared(long bytes) {
    headerBytes = bytes;
  }

  long sharedBytes() {
    return headerBytes;
  }

  /** Checking: one more record of this many bytes. */
  void counted(int bytes) {
    records++;
    expandedBytes += bytes + headerBytes;
  }

  Checked checked() {
    return new Checked(records, expandedBytes);
  }

  /** Converting: the columns the coming records share, or why they are all rejected. */
  void common(Row row, String problem) {
    common = row;
    commonProblem = problem;
  }

  Row common() {
    return common;
  }

  /**
   * Converting: hands one record's row to the sink, or its rejection.
   *
   * @param build builds the row; throws {@link Rejected} when it cannot be stored
   */
  void emit(RowBuilder build) {
    long record = records++;
    if (commonProblem != null) {
      sink.reject(record, commonProblem);
      return;
    }
    try {
      build.emit(record, sink);
    } catch (Rejected e) {
      sink.reject(record, e.getMessage());
    }
  }

  /** Builds one record's row and hands it to the sink. */
  @FunctionalInterface
  interface RowBuilder {
    /**
     * @param record the record's number
     * @param sink where the row goes
     */
    void emit(long record, RowSink sink);
  }

  /** Parses a message of the body, with the nesting bound every record is held to. */
  <T> T parse(Parser<T> parser, int off, int len) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(body, off, len);
    in.setRecursionLimit(Signal.MAX_RECORD_DEPTH);
    return parser.parseFrom(in);
  }

  /** Merges a message of the body into a builder (a field that appears twice is merged). */
  void merge(Message.Builder builder, int off, int len) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(body, off, len);
    in.setRecursionLimit(Signal.MAX_RECORD_DEPTH);
    builder.mergeFrom(in);
  }
}
