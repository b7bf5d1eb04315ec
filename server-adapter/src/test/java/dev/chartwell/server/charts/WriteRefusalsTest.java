package dev.chartwell.server.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.EngineClosedException;
import dev.chartwell.engine.StorageFailedException;
import dev.chartwell.engine.UnknownSourceException;
import dev.chartwell.engine.WritesRefusedException;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Each engine refusal of a write becomes the answer a client can act on. */
class WriteRefusalsTest {
  @Test
  void refusalsMapToTheirAnswers() {
    ApiException full = WriteRefusals.answer(new WritesRefusedException("full"), "3 stored");
    assertEquals(ErrorCode.SERVICE_UNAVAILABLE, full.code());
    assertEquals("5", full.headers().get("Retry-After"));
    assertTrue(full.getMessage().contains("full; 3 stored"), full.getMessage());

    ApiException closing = WriteRefusals.answer(new EngineClosedException("closed"), "none");
    assertEquals(ErrorCode.SERVICE_UNAVAILABLE, closing.code());
    assertEquals("5", closing.headers().get("Retry-After"), "the server is stopping: retry later");

    ApiException broken =
        WriteRefusals.answer(
            new StorageFailedException(Path.of("d"), "writing", new IOException("disk")), "none");
    assertEquals(ErrorCode.SERVICE_UNAVAILABLE, broken.code());
    assertEquals(null, broken.headers().get("Retry-After"));

    ApiException gone = WriteRefusals.answer(UnknownSourceException.dropped("logs"), "none");
    assertEquals(ErrorCode.NOT_FOUND, gone.code());

    IllegalStateException other = new IllegalStateException("bug");
    assertSame(
        other, assertThrows(IllegalStateException.class, () -> WriteRefusals.answer(other, "")));
  }
}
