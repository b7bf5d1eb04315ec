package dev.chartwell.server.backup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.KeyPrincipal;
import dev.chartwell.server.management.Services;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@code POST /api/v2/admin/backup} (an admin key; the backup goes under {@code --backup-dir}) and
 * the Cloud API's backup reads, {@code GET .../services/{id}/backups} and {@code
 * .../backups/{backupId}}, which list the backups holding the service.
 */
public final class BackupRoutes {
  private static final String SERVICE = "/v1/organizations/{organizationId}/services/{serviceId}";

  private final Optional<BackupTarget> target;
  private final Path dataDir;
  private final Path keyFile;
  private final Json json;
  private final Clock clock;
  private final ReentrantLock running = new ReentrantLock();

  private BackupRoutes(
      Optional<BackupTarget> target, Path dataDir, Path keyFile, Json json, Clock clock) {
    this.target = target;
    this.dataDir = dataDir;
    this.keyFile = keyFile;
    this.json = json;
    this.clock = clock;
  }

  /**
   * @param router where to add the routes
   * @param accounts keys (authentication)
   * @param services the services
   * @param backupDir {@code --backup-dir}, if given
   * @param dataDir the server's data directory
   * @param keyFile the secrets key file in use
   * @param json the JSON codec
   * @param maxBodyBytes body limit
   */
  public static void register(
      Router router,
      Accounts accounts,
      Services services,
      Optional<Path> backupDir,
      Path dataDir,
      Path keyFile,
      Json json,
      long maxBodyBytes) {
    BackupRoutes r =
        new BackupRoutes(
            backupDir.map(d -> new BackupTarget(d, json.mapper())),
            dataDir,
            keyFile,
            json,
            Clock.systemUTC());
    Authenticator auth = accounts.basicAuthenticator();
    router.add(
        "POST",
        "/api/v2/admin/backup",
        auth,
        maxBodyBytes,
        req -> {
          KeyPrincipal.of(req).requireWrite();
          byte[] body = req.bodyBytes();
          JsonNode params = body.length == 0 ? null : json.readTree(body);
          if (params != null && !(params.isObject() && params.isEmpty())) {
            throw ApiException.badRequest("the backup takes no parameters: send no body or {}");
          }
          return Response.json(200, r.backup());
        });
    router.add(
        "GET",
        SERVICE + "/backups",
        auth,
        maxBodyBytes,
        req -> Response.envelope(r.cloudList(service(req, services))));
    router.add(
        "GET",
        SERVICE + "/backups/{backupId}",
        auth,
        maxBodyBytes,
        req -> {
          String service = service(req, services);
          String id = req.pathParam("backupId");
          for (ObjectNode b : r.cloudList(service)) {
            if (b.get("id").asText().equals(id)) {
              return Response.envelope(b);
            }
          }
          throw ApiException.notFound(
              "backup " + id + " of service " + service + " does not exist");
        });
  }

  private static String service(Request req, Services services) {
    String id = req.pathParam("serviceId");
    services.get(KeyPrincipal.organization(req, false), id);
    return id;
  }

  private ObjectNode backup() {
    BackupTarget t =
        target.orElseThrow(
            () ->
                new ApiException(
                    ErrorCode.CONFLICT,
                    "this server takes no backups: start it with --backup-dir DIR (or back up"
                        + " a stopped server with: java -jar chartwell-server.jar backup"
                        + " --data-dir DIR --to DIR)"));
    if (!running.tryLock()) {
      throw ApiException.conflict("a backup is under way; try again when it is done");
    }
    try {
      return new BackupWriter(t, json.mapper(), clock)
          .write(dataDir, keyFile, BackupWriter.live(dataDir));
    } catch (IOException e) {
      throw new ApiException(ErrorCode.INTERNAL, "the backup failed: " + e.getMessage());
    } finally {
      running.unlock();
    }
  }

  /** The backups that hold a service, in the Cloud API's {@code Backup} shape, oldest first. */
  private List<ObjectNode> cloudList(String serviceId) {
    List<ObjectNode> out = new ArrayList<>();
    if (target.isEmpty()) {
      return out;
    }
    try {
      for (ObjectNode d : target.get().list()) {
        boolean holds = false;
        for (JsonNode s : d.path("services")) {
          holds |= s.asText().equals(serviceId);
        }
        if (holds) {
          out.add(cloudShape(d, serviceId));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private ObjectNode cloudShape(ObjectNode d, String serviceId) {
    ObjectNode b = json.mapper().createObjectNode();
    b.put("id", d.get("id").asText());
    b.put("status", d.get("status").asText());
    b.put("serviceId", serviceId);
    for (String f : List.of("startedAt", "finishedAt")) {
      b.put(f, d.get(f).asText());
    }
    b.set("sizeInBytes", d.get("sizeInBytes"));
    b.set("durationInSeconds", d.get("durationInSeconds"));
    b.put("type", d.get("type").asText());
    return b;
  }
}
