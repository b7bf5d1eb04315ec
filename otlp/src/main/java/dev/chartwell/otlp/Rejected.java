package dev.chartwell.otlp;

/**
 * One record cannot be stored; the others of its request can. The message names the column and the
 * reason, for the export response's {@code partial_success}.
 */
final class Rejected extends RuntimeException {
  private static final long serialVersionUID = 1L;

  Rejected(String reason) {
    super(reason, null, false, false);
  }
}
