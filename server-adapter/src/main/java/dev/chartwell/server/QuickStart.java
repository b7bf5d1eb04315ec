package dev.chartwell.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.internal.storage.OwnerOnly;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.management.Organization;
import dev.chartwell.server.management.Services;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;

/**
 * {@code --quickstart}: a service named {@code default} with a log source {@code logs}, so that a
 * user's own events can be sent at once: the start-up output gives the token, a {@code curl}, the
 * OTLP settings and the explorer's address, and {@code quickstart.json} in the data directory
 * (owner-only) keeps them for {@code chartwell-server.jar ingest FILE}. The token stays the same
 * from start to start while it works (rotating the service's password makes a new one here too).
 */
final class QuickStart {
  /** The file under the data directory that {@code ingest} reads. */
  static final String FILE = "quickstart.json";

  /** The service's name. */
  static final String SERVICE = "default";

  /** The log source's name. */
  static final String SOURCE = "logs";

  private QuickStart() {}

  /**
   * What {@code ingest} needs to send events, as kept in {@link #FILE}.
   *
   * @param url the server's base URL
   * @param serviceId the service
   * @param sourceId the log source events go to
   * @param token the service's token
   */
  record Access(String url, String serviceId, String sourceId, String token) {
    /**
     * @return the ingestion route of the source
     */
    String eventsUrl() {
      return url + "/api/v2/sources/" + sourceId + "/events";
    }
  }

  /**
   * Ensures the service and its source, keeps their access in {@link #FILE}, and says how to use
   * them.
   *
   * @param dataDir the (absolute) data directory
   * @param givenDataDir the data directory as the user gave it, for the command printed
   * @return the lines to print
   */
  static List<String> ensure(
      Organization org,
      Services services,
      Catalog catalog,
      ObjectMapper mapper,
      Path dataDir,
      Path givenDataDir,
      String baseUrl)
      throws IOException, InterruptedException {
    Optional<Access> kept = read(dataDir, mapper);
    LocalService service =
        LocalService.ensure(org, services, mapper, SERVICE, kept.map(Access::token));
    String sourceId =
        catalog.sources(service.warehouse()).stream()
            .filter(s -> s.get("name").asText().equals(SOURCE))
            .findFirst()
            .map(s -> s.get("id").asText())
            .orElseGet(
                () -> {
                  ObjectNode def = mapper.createObjectNode();
                  def.put("name", SOURCE);
                  def.put("kind", "log");
                  return catalog.createSource(service.warehouse(), def).get("id").asText();
                });
    Access access = new Access(baseUrl, service.id(), sourceId, service.token());
    write(dataDir, mapper, access);
    return List.of(
        "quickstart service: " + SERVICE + " (" + service.id() + "), log source " + sourceId,
        "quickstart token (Bearer; kept in " + dataDir.resolve(FILE) + "): " + access.token(),
        "send NDJSON: java -jar chartwell-server.jar ingest events.ndjson"
            + (givenDataDir.equals(ServerConfig.DEFAULT_DATA_DIR)
                ? ""
                : " --data-dir " + givenDataDir),
        "  or: curl -H 'Authorization: Bearer "
            + access.token()
            + "' -H 'Content-Type: application/x-ndjson' --data-binary @events.ndjson "
            + access.eventsUrl(),
        "send OTLP: OTEL_EXPORTER_OTLP_ENDPOINT="
            + baseUrl
            + " OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer%20"
            + access.token(),
        "explore: " + baseUrl + "/explore/" + service.id() + "/" + sourceId);
  }

  /**
   * @param dataDir a data directory
   * @param mapper JSON codec
   * @return the access {@code --quickstart} kept there, if any
   * @throws IOException when the file exists but cannot be read
   */
  static Optional<Access> read(Path dataDir, ObjectMapper mapper) throws IOException {
    Path f = dataDir.resolve(FILE);
    if (!Files.isRegularFile(f)) {
      return Optional.empty();
    }
    JsonNode n = mapper.readTree(f.toFile());
    return Optional.of(
        new Access(
            n.path("url").asText(),
            n.path("serviceId").asText(),
            n.path("sourceId").asText(),
            n.path("token").asText()));
  }

  private static void write(Path dataDir, ObjectMapper mapper, Access access) throws IOException {
    Path f = dataDir.resolve(FILE);
    Path tmp = dataDir.resolve(FILE + ".tmp");
    Files.deleteIfExists(tmp);
    try (FileChannel ch =
        OwnerOnly.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(mapper.writerWithDefaultPrettyPrinter().writeValueAsBytes(access)));
    }
    Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }
}
