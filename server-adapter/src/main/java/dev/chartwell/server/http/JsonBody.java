package dev.chartwell.server.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import java.io.IOException;

/**
 * A response body that writes itself to Jackson's streaming generator, token by token, instead of
 * being turned into a tree or a map first, which for a large answer (a chart of 100,000 rows) costs
 * time and memory on top of the writing.
 */
public abstract class JsonBody extends JsonSerializable.Base {
  /**
   * Writes the whole value (one JSON object or array).
   *
   * @param out the generator
   * @throws IOException when writing fails
   */
  public abstract void writeTo(JsonGenerator out) throws IOException;

  /**
   * @return about how many bytes the JSON text takes, so that the response buffer is allocated once
   */
  public abstract int sizeHint();

  @Override
  public final void serialize(JsonGenerator gen, SerializerProvider serializers)
      throws IOException {
    writeTo(gen);
  }

  @Override
  public final void serializeWithType(
      JsonGenerator gen, SerializerProvider serializers, TypeSerializer typeSer)
      throws IOException {
    writeTo(gen); // response bodies carry no type information
  }
}
