package dev.chartwell.server.http;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;

/**
 * The one JSON codec of the server. Reading turns every syntax problem into a 400 whose text gives
 * the position, never a class name.
 */
public final class Json {
  private final ObjectMapper mapper;

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
        .setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build());
  }

  /**
   * @return the mapper, for writing responses and streaming reads
   */
  public ObjectMapper mapper() {
    return mapper;
  }

  /**
   * Parses a request body into a tree.
   *
   * @param body the bytes
   * @return the tree
   * @throws ApiException 400 when the body is empty or not valid JSON
   */
  public JsonNode readTree(byte[] body) {
    if (body.length == 0) {
      throw ApiException.badRequest("request body is empty; a JSON object is expected");
    }
    try {
      JsonNode node = mapper.readTree(body);
      if (node == null || node.isMissingNode()) {
        throw ApiException.badRequest("request body is empty; a JSON object is expected");
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
    JsonLocation loc = e.getLocation();
    String where =
        loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
    String what = e.getOriginalMessage();
    if (what == null) {
      what = "invalid JSON";
    }
    int nl = what.indexOf('\n');
    if (nl >= 0) {
      what = what.substring(0, nl);
    }
    what = what.replaceAll("\\(class [^)]*\\)", "").replaceAll("\\s+", " ").strip();
    return ApiException.badRequest("malformed JSON" + where + ": " + what);
  }
}
