package dev.chartwell.server.charts;

import dev.chartwell.engine.EngineClosedException;
import dev.chartwell.engine.StorageFailedException;
import dev.chartwell.engine.UnknownSourceException;
import dev.chartwell.engine.WritesRefusedException;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import java.util.Map;

/**
 * What ingestion answers when the engine does not take a write, for every way in (our NDJSON
 * endpoint and OTLP): the one place that knows which engine failures mean "busy, send again later"
 * and which mean "broken until fixed".
 */
public final class WriteRefusals {
  /** What a write refused for memory tells the client to wait before sending again. */
  public static final int RETRY_AFTER_SECONDS = 5;

  private WriteRefusals() {}

  /**
   * @param e what the engine threw while appending
   * @param stored what of the request was stored before, appended to the engine's reason
   * @return the answer: 503 with {@code Retry-After} when the engine refuses writes for now (its
   *     memory limit or a full heap) or is closed (the server is stopping), 503 without it when the
   *     disk failed (no retry helps until the disk is fixed and the server restarted), 404 when the
   *     source was dropped meanwhile
   * @throws RuntimeException {@code e} itself when it is neither
   */
  public static ApiException answer(RuntimeException e, String stored) {
    if (e instanceof WritesRefusedException || e instanceof EngineClosedException) {
      return new ApiException(
          ErrorCode.SERVICE_UNAVAILABLE,
          e.getMessage() + "; " + stored,
          Map.of("Retry-After", String.valueOf(RETRY_AFTER_SECONDS)));
    }
    if (e instanceof UnknownSourceException) {
      return ApiException.notFound(e.getMessage() + "; " + stored); // dropped meanwhile
    }
    if (e instanceof StorageFailedException) {
      return new ApiException(ErrorCode.SERVICE_UNAVAILABLE, e.getMessage() + "; " + stored);
    }
    throw e;
  }
}
