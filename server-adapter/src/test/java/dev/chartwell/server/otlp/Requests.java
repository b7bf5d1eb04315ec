package dev.chartwell.server.otlp;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HexFormat;
import java.util.zip.GZIPOutputStream;

/** Hand-built OTLP requests and the decoding of OTLP answers, for tests. */
final class Requests {
  static final long T0_NANOS = 1_767_225_600_000L * 1_000_000L;

  private Requests() {}

  static KeyValue attribute(String key, String value) {
    return KeyValue.newBuilder()
        .setKey(key)
        .setValue(AnyValue.newBuilder().setStringValue(value))
        .build();
  }

  static LogRecord log(String body) {
    return LogRecord.newBuilder()
        .setTimeUnixNano(T0_NANOS)
        .setBody(AnyValue.newBuilder().setStringValue(body))
        .build();
  }

  /** One resource (service {@code svc}) with one scope holding the records. */
  static ExportLogsServiceRequest logs(LogRecord... records) {
    ScopeLogs.Builder scope = ScopeLogs.newBuilder();
    for (LogRecord r : records) {
      scope.addLogRecords(r);
    }
    return ExportLogsServiceRequest.newBuilder()
        .addResourceLogs(
            ResourceLogs.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(attribute("service.name", "svc")))
                .addScopeLogs(scope))
        .build();
  }

  /** A value nesting key-value lists {@code depth} deep. */
  static AnyValue nested(int depth) {
    AnyValue v = AnyValue.newBuilder().setStringValue("bottom").build();
    for (int i = 0; i < depth; i++) {
      v =
          AnyValue.newBuilder()
              .setKvlistValue(
                  KeyValueList.newBuilder()
                      .addValues(KeyValue.newBuilder().setKey("k" + i).setValue(v)))
              .build();
    }
    return v;
  }

  static ByteString hex(String hex) {
    return ByteString.copyFrom(HexFormat.of().parseHex(hex));
  }

  static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(bytes);
    }
    return out.toByteArray();
  }

  /** A decoded {@code google.rpc.Status}. */
  record Status(int code, String message) {}

  static Status status(byte[] protobuf) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(protobuf);
    int code = 0;
    String message = "";
    int tag;
    while ((tag = in.readTag()) != 0) {
      if (tag == (1 << 3)) {
        code = in.readInt32();
      } else if (tag == (2 << 3 | 2)) {
        message = in.readString();
      } else {
        in.skipField(tag);
      }
    }
    return new Status(code, message);
  }
}
