package dev.chartwell.server.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The one JSON codec of the server. Reading turns every syntax problem into a 400 whose text gives
 * the position, never a class name.
 */
public final class Json {
  /** The deepest nesting of objects and arrays a request body may have. */
  public static final int MAX_NESTING_DEPTH = 64;

  private final ObjectMapper mapper;

  /** Writes response bodies: default serialization, doubles through Jackson's fast writer. */
  private final ObjectMapper writer =
      JsonMapper.builder().enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER).build();

  /** Creates the codec with strict reading (no trailing tokens, no duplicate keys). */
  public Json() {
    this.mapper =
        JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    mapper
        .getFactory()
        .setStreamReadConstraints(
            StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build());
  }

  /**
   * @return the mapper, for writing responses and streaming reads
   */
  public ObjectMapper mapper() {
    return mapper;
  }

  /**
   * Writes a response body into one buffer (sized by {@link JsonBody#sizeHint()} when the body is
   * one), which is then sent as it is, without a copy.
   *
   * @param body a Jackson-serializable value, or a {@link JsonBody} that writes itself
   * @return the JSON text
   * @throws IOException when the value cannot be written
   */
  public ByteBuffer write(Object body) throws IOException {
    if (body instanceof JsonBody b) {
      JsonOutput out = new JsonOutput(Math.max(64, b.sizeHint()));
      b.writeTo(out);
      return out.buffer();
    }
    ByteOutput out = new ByteOutput(512);
    try (JsonGenerator g = writer.getFactory().createGenerator(out)) {
      writer.writeValue(g, body);
    }
    return out.buffer();
  }

  /**
   * Parses a request body into a tree.
   *
   * @param body the bytes
   * @return the tree
   * @throws ApiException 400 when the body is empty, not strict UTF-8, not valid JSON, or holds a
   *     number too large for a double
   */
  public JsonNode readTree(byte[] body) {
    if (body.length == 0) {
      throw ApiException.badRequest("request body is empty; a JSON object is expected");
    }
    int invalid = JsonErrors.invalidUtf8At(body);
    if (invalid >= 0) {
      throw ApiException.badRequest(
          "request body is not valid UTF-8 (invalid byte sequence at byte offset " + invalid + ")");
    }
    try {
      JsonNode node = mapper.readTree(body);
      if (node == null || node.isMissingNode()) {
        throw ApiException.badRequest("request body is empty; a JSON object is expected");
      }
      String tooLarge = JsonErrors.nonFiniteNumberPath(node);
      if (tooLarge != null) {
        throw ApiException.badRequest(
            tooLarge + ": number out of range (larger than a 64-bit floating-point number)");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw malformed(e);
    } catch (IOException e) {
      throw ApiException.badRequest("request body could not be read");
    }
  }

  /**
   * @param e a Jackson read failure
   * @return a 400 describing what and where, without Jackson's internals
   */
  public static ApiException malformed(JsonProcessingException e) {
    return ApiException.badRequest(JsonErrors.describe(e));
  }
}
