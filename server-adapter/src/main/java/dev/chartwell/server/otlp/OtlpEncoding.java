package dev.chartwell.server.otlp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.otlp.Signal;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Response;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The two encodings of OTLP/HTTP, chosen by the request's {@code Content-Type}: answers go back in
 * the encoding of the request. An error is a {@code google.rpc.Status} message ({@code code}, a
 * gRPC status code, and {@code message}); in JSON it also carries the server's error envelope
 * fields ({@code status}, {@code error}, {@code requestId}), which OTLP clients ignore.
 */
enum OtlpEncoding {
  /** {@code application/x-protobuf}. */
  PROTOBUF("application/x-protobuf"),
  /** {@code application/json}. */
  JSON("application/json");

  private final String mediaType;

  OtlpEncoding(String mediaType) {
    this.mediaType = mediaType;
  }

  String mediaType() {
    return mediaType;
  }

  /**
   * @param contentType the request's {@code Content-Type} header, or {@code null}
   * @return the encoding it names; JSON for anything but protobuf (the answer to a request of
   *     another type, a 415, is then readable)
   */
  static OtlpEncoding of(String contentType) {
    String type =
        contentType == null ? "" : contentType.split(";")[0].strip().toLowerCase(Locale.ROOT);
    return type.equals(PROTOBUF.mediaType) ? PROTOBUF : JSON;
  }

  /**
   * @param signal the signal
   * @param rejected how many records were rejected
   * @param message why, or {@code null}
   * @return the 200 export response
   */
  Response exported(Signal signal, long rejected, String message) {
    if (this == PROTOBUF) {
      return Response.bytes(200, mediaType, signal.response(rejected, message));
    }
    Map<String, Object> body = new LinkedHashMap<>();
    if (rejected > 0 || message != null) {
      Map<String, Object> partial = new LinkedHashMap<>();
      partial.put(signal.rejectedField(), Long.toString(rejected)); // int64: a string in JSON
      partial.put("errorMessage", message == null ? "" : message);
      body.put("partialSuccess", partial);
    }
    return Response.json(200, body);
  }

  /**
   * @param e the error
   * @param requestId the request's id
   * @param mapper writes JSON
   * @return the error body: a {@code Status} message in this encoding
   */
  Response.Bytes error(ApiException e, String requestId, ObjectMapper mapper) {
    int code = grpcCode(e.code().status());
    if (this == PROTOBUF) {
      return new Response.Bytes(mediaType, status(code, e.envelopeText()));
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("code", code);
    body.put("message", e.envelopeText());
    body.put("status", e.code().status());
    body.put("error", e.envelopeText());
    body.put("requestId", requestId);
    try {
      return new Response.Bytes("application/json; charset=utf-8", mapper.writeValueAsBytes(body));
    } catch (JsonProcessingException impossible) {
      throw new IllegalStateException(impossible);
    }
  }

  /** The encoding of {@code google.rpc.Status}: field 1 the code, field 2 the message. */
  private static byte[] status(int code, String message) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(1 << 3);
    varint(out, code);
    byte[] text = message.getBytes(StandardCharsets.UTF_8);
    out.write(2 << 3 | 2);
    varint(out, text.length);
    out.writeBytes(text);
    return out.toByteArray();
  }

  private static void varint(ByteArrayOutputStream out, long v) {
    while ((v & ~0x7fL) != 0) {
      out.write((int) ((v & 0x7f) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }

  /** The gRPC status code closest to an HTTP status, as OTLP's {@code Status.code}. */
  static int grpcCode(int httpStatus) {
    return switch (httpStatus) {
      case 400, 415, 417 -> 3; // INVALID_ARGUMENT
      case 401 -> 16; // UNAUTHENTICATED
      case 403 -> 7; // PERMISSION_DENIED
      case 404 -> 5; // NOT_FOUND
      case 405, 501 -> 12; // UNIMPLEMENTED
      case 408 -> 4; // DEADLINE_EXCEEDED
      case 409 -> 9; // FAILED_PRECONDITION
      case 413, 429 -> 8; // RESOURCE_EXHAUSTED
      case 503 -> 14; // UNAVAILABLE
      case 500 -> 13; // INTERNAL
      default -> 2; // UNKNOWN
    };
  }
}
