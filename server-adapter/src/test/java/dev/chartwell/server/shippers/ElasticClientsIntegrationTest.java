package dev.chartwell.server.shippers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._helpers.bulk.BulkIngester;
import co.elastic.clients.elasticsearch._helpers.bulk.BulkListener;
import co.elastic.clients.elasticsearch.core.BulkRequest;
import co.elastic.clients.elasticsearch.core.BulkResponse;
import co.elastic.clients.elasticsearch.core.bulk.BulkResponseItem;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.http.HttpHost;
import org.apache.http.entity.ContentType;
import org.apache.http.message.BasicHeader;
import org.apache.http.nio.entity.NStringEntity;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.RestClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official Elasticsearch clients, unmodified, writing to Chartwell: the Java API client (8.x,
 * its {@code BulkIngester}) and the low-level REST client. What they write is counted back exactly
 * by chart queries and searches.
 */
class ElasticClientsIntegrationTest {
  private static final long T0 = 1_764_324_000_000L; // 2025-11-28T10:00:00Z

  @Test
  void javaClientBulkIngesterWritesThousandsCountedExactly(@TempDir Path dir) throws Exception {
    try (ShipperServer s = new ShipperServer(dir);
        RestClient rest =
            RestClient.builder(new HttpHost("127.0.0.1", s.server.port(), "http"))
                .setPathPrefix("/elasticsearch")
                .setDefaultHeaders(
                    new org.apache.http.Header[] {new BasicHeader("Authorization", s.apiKey())})
                .build()) {
      ElasticsearchClient es =
          new ElasticsearchClient(new RestClientTransport(rest, new JacksonJsonpMapper()));
      assertEquals("8.17.0", es.info().version().number()); // what an 8.x client asks for
      AtomicLong failed = new AtomicLong();
      AtomicLong ok = new AtomicLong();
      AtomicReference<Throwable> error = new AtomicReference<>();
      BulkListener<Void> listener =
          new BulkListener<>() {
            @Override
            public void beforeBulk(long id, BulkRequest request, List<Void> contexts) {}

            @Override
            public void afterBulk(
                long id, BulkRequest request, List<Void> contexts, BulkResponse response) {
              for (BulkResponseItem item : response.items()) {
                if (item.error() != null) {
                  failed.incrementAndGet();
                } else {
                  ok.incrementAndGet();
                }
              }
            }

            @Override
            public void afterBulk(
                long id, BulkRequest request, List<Void> contexts, Throwable failure) {
              error.set(failure);
            }
          };
      int n = 5000;
      try (BulkIngester<Void> ingester =
          BulkIngester.of(
              b ->
                  b.client(es)
                      .maxOperations(700)
                      .flushInterval(5, TimeUnit.SECONDS)
                      .listener(listener))) {
        for (int i = 0; i < n; i++) {
          Map<String, Object> doc = new LinkedHashMap<>();
          doc.put("@timestamp", java.time.Instant.ofEpochMilli(T0 + i).toString());
          doc.put("message", "request " + i + (i % 10 == 0 ? " slow" : " fast"));
          doc.put("service", Map.of("name", i % 2 == 0 ? "api" : "web"));
          doc.put("duration_ms", i % 100);
          int day = 28 + i % 2;
          ingester.add(op -> op.index(x -> x.index("logs-shop-2025.11." + day).document(doc)));
        }
      }
      assertEquals(null, error.get());
      assertEquals(0, failed.get());
      assertEquals(n, ok.get());
      assertEquals(n, s.count("logs_shop", null));
      assertEquals(n / 10, s.count("logs_shop", "slow"));
      assertEquals(
          Map.of("api", (long) n / 2, "web", (long) n / 2),
          s.counts("logs_shop", "service.name", null));
    }
  }

  @Test
  void lowLevelRestClientWritesNdjson(@TempDir Path dir) throws Exception {
    try (ShipperServer s = new ShipperServer(dir);
        RestClient rest =
            RestClient.builder(new HttpHost("127.0.0.1", s.server.port(), "http"))
                .setPathPrefix("/elasticsearch")
                .setDefaultHeaders(
                    new org.apache.http.Header[] {new BasicHeader("Authorization", s.basic())})
                .build()) {
      Response info = rest.performRequest(new Request("GET", "/"));
      assertEquals("Elasticsearch", info.getHeader("X-Elastic-Product"));
      int n = 4000;
      for (int batch = 0; batch < 4; batch++) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n / 4; i++) {
          int k = batch * (n / 4) + i;
          sb.append("{\"index\":{\"_index\":\"ll\",\"_id\":\"d").append(k).append("\"}}\n");
          sb.append("{\"@timestamp\":")
              .append(T0 + k)
              .append(",\"message\":\"event ")
              .append(k)
              .append("\",\"level\":\"")
              .append(k % 4 == 0 ? "error" : "info")
              .append("\"}\n");
        }
        Request bulk = new Request("POST", "/_bulk");
        bulk.setEntity(
            new NStringEntity(
                sb.toString(), ContentType.create("application/x-ndjson", StandardCharsets.UTF_8)));
        Response r = rest.performRequest(bulk);
        JsonNode answer = ShipperServer.MAPPER.readTree(r.getEntity().getContent());
        assertFalse(answer.get("errors").booleanValue(), answer.toString());
        assertEquals(n / 4, answer.get("items").size());
      }
      assertEquals(n, s.count("ll", null));
      assertEquals(n / 4, s.count("ll", "level:error"));
      assertEquals(1, s.count("ll", "_id:d3999"));
    }
  }
}
