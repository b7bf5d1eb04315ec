package dev.chartwell.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnyValuesTest {
  static AnyValue str(String s) {
    return AnyValue.newBuilder().setStringValue(s).build();
  }

  static AnyValue array(AnyValue... values) {
    return AnyValue.newBuilder()
        .setArrayValue(ArrayValue.newBuilder().addAllValues(List.of(values)))
        .build();
  }

  @Test
  void scalarsAreStoredAsTheirText() {
    assertEquals("plain", AnyValues.text(str("plain")));
    assertEquals("true", AnyValues.text(AnyValue.newBuilder().setBoolValue(true).build()));
    assertEquals(
        "-9223372036854775808",
        AnyValues.text(AnyValue.newBuilder().setIntValue(Long.MIN_VALUE).build()));
    assertEquals("0.1", AnyValues.text(AnyValue.newBuilder().setDoubleValue(0.1).build()));
    assertEquals("1.0E300", AnyValues.text(AnyValue.newBuilder().setDoubleValue(1e300).build()));
    assertEquals(
        "-Infinity",
        AnyValues.text(AnyValue.newBuilder().setDoubleValue(Double.NEGATIVE_INFINITY).build()));
    assertEquals(
        "AP8=",
        AnyValues.text(
            AnyValue.newBuilder().setBytesValue(ByteString.copyFrom(new byte[] {0, -1})).build()));
    assertEquals("", AnyValues.text(AnyValue.getDefaultInstance()));
  }

  @Test
  void doublesReadBackExactly() {
    for (double d :
        new double[] {0.1 + 0.2, Math.PI, Double.MIN_VALUE, -0.0, 1e-7, 123456789.125}) {
      String text = AnyValues.text(AnyValue.newBuilder().setDoubleValue(d).build());
      assertEquals(Double.doubleToLongBits(d), Double.doubleToLongBits(Double.parseDouble(text)));
    }
  }

  @Test
  void arraysAndKeyValueListsAreJsonKeepingTheirScalarTypes() {
    AnyValue list =
        AnyValue.newBuilder()
            .setKvlistValue(
                KeyValueList.newBuilder()
                    .addValues(
                        KeyValue.newBuilder().setKey("s").setValue(str("a \"q\" \\ \n\u0001")))
                    .addValues(
                        KeyValue.newBuilder()
                            .setKey("n")
                            .setValue(AnyValue.newBuilder().setIntValue(9007199254740993L)))
                    .addValues(
                        KeyValue.newBuilder()
                            .setKey("nan")
                            .setValue(AnyValue.newBuilder().setDoubleValue(Double.NaN)))
                    .addValues(
                        KeyValue.newBuilder()
                            .setKey("arr")
                            .setValue(
                                array(
                                    AnyValue.newBuilder().setBoolValue(false).build(),
                                    array(),
                                    AnyValue.getDefaultInstance(),
                                    AnyValue.newBuilder()
                                        .setBytesValue(ByteString.copyFromUtf8("hi"))
                                        .build()))))
            .build();
    assertEquals(
        "{\"s\":\"a \\\"q\\\" \\\\ \\n\\u0001\",\"n\":9007199254740993,\"nan\":\"NaN\","
            + "\"arr\":[false,[],null,\"aGk=\"]}",
        AnyValues.text(list));
    assertEquals(
        "[1.5,\"x\"]",
        AnyValues.text(array(AnyValue.newBuilder().setDoubleValue(1.5).build(), str("x"))));
  }
}
