package dev.chartwell.engine.docs;

// [snippet:getting-started]
import dev.chartwell.engine.*;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

public class GettingStarted {
  public static void main(String[] args) {
    try (Engine engine = Engine.builder().dataDirectory(Path.of(args[0])).build()) {
      Source logs =
          engine
              .source("app-logs")
              .orElseGet(() -> engine.createSource(SourceSpec.log("app-logs").build()));
      logs.append(Event.now(Map.of("Body", "GET /users 500", "SeverityText", "error")));
      ChartResult chart =
          engine.query(
              ChartQuery.last(Duration.ofHours(1))
                  .source("app-logs")
                  .every(Granularity.MINUTE)
                  .series(Series.count().where("SeverityText:error"))
                  .build());
      chart.rows().forEach(row -> System.out.println(row.bucket() + " " + row.values()));
    }
  }
}
// [end]
