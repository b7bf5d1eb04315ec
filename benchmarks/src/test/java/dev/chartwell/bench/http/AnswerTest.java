package dev.chartwell.bench.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.bench.http.BenchQueries.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnswerTest {
  private static Answer chartwell(String json, int series) throws Exception {
    return Answer.fromChartwell(Http.JSON.readTree(json), series);
  }

  @Test
  void equalAnswersAgreeAndAMissingCountIsZero() throws Exception {
    Answer cw =
        chartwell(
            "{\"data\":[{\"ts_bucket\":0,\"group\":[],\"series_0.data\":5},"
                + "{\"ts_bucket\":300000,\"group\":[],\"series_0.data\":3,\"series_1.data\":1}]}",
            2);
    Answer ch = Answer.fromClickHouse("0\t5\t0\n300000\t3\t1\n", 0, 2);
    assertEquals(List.of(), Answer.differences(cw, ch, List.of(Kind.COUNT, Kind.COUNT), 0, 5));
    assertEquals(2, cw.rows());
  }

  @Test
  void aDifferentCountOrAMissingRowIsReported() throws Exception {
    Answer cw =
        chartwell("{\"data\":[{\"ts_bucket\":0,\"group\":[\"a\"],\"series_0.data\":5}]}", 1);
    Answer ch = Answer.fromClickHouse("0\ta\t6\n60000\ta\t2\n", 1, 1);
    assertEquals(
        List.of(
            "row 0 [a] series 0: Chartwell 5, ClickHouse 6",
            "row 60000 [a] series 0: Chartwell has no row, ClickHouse 2"),
        Answer.differences(cw, ch, List.of(Kind.COUNT), 1e-9, 5));
  }

  @Test
  void numbersAgreeWithinTheRelativeTolerance() throws Exception {
    Answer cw =
        chartwell(
            "{\"data\":[{\"ts_bucket\":0,\"group\":[],\"series_0.data\":41.92126410693666}]}", 1);
    Answer close = Answer.fromClickHouse("0\t41.921264106936665\n", 0, 1);
    Answer far = Answer.fromClickHouse("0\t41.9213\n", 0, 1);
    assertEquals(List.of(), Answer.differences(cw, close, List.of(Kind.NUMBER), 1e-9, 5));
    assertEquals(1, Answer.differences(cw, far, List.of(Kind.NUMBER), 1e-9, 5).size());
    assertEquals(List.of(), Answer.differences(cw, far, List.of(Kind.NUMBER), 1e-5, 5));
  }

  @Test
  void aMissingNumberIsNotZero() throws Exception {
    Answer cw = chartwell("{\"data\":[{\"ts_bucket\":0,\"group\":[],\"series_0.data\":null}]}", 1);
    assertEquals(
        List.of(),
        Answer.differences(
            cw, Answer.fromClickHouse("0\tnan\n", 0, 1), List.of(Kind.NUMBER), 0, 5));
    assertEquals(
        1,
        Answer.differences(cw, Answer.fromClickHouse("0\t0\n", 0, 1), List.of(Kind.NUMBER), 0, 5)
            .size());
  }

  @Test
  void onlyTheFirstDifferencesAreListed() {
    Answer a = Answer.fromClickHouse("0\t1\n1\t1\n2\t1\n3\t1\n", 0, 1);
    Answer b = Answer.fromClickHouse("0\t2\n1\t2\n2\t2\n3\t2\n", 0, 1);
    List<String> d = Answer.differences(a, b, List.of(Kind.COUNT), 0, 2);
    assertEquals(3, d.size());
    assertEquals("and 2 more", d.get(2));
  }

  @Test
  void malformedAnswersAreRefusedNamingTheProblem() throws Exception {
    IllegalStateException columns =
        assertThrows(IllegalStateException.class, () -> Answer.fromClickHouse("0\t1\t2\n", 0, 1));
    assertTrue(columns.getMessage().contains("expected 2 columns"), columns.getMessage());
    IllegalStateException twice =
        assertThrows(
            IllegalStateException.class, () -> Answer.fromClickHouse("0\t1\n0\t1\n", 0, 1));
    assertTrue(twice.getMessage().contains("twice"), twice.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            Answer.differences(
                chartwell("{\"data\":[]}", 1),
                Answer.fromClickHouse("", 0, 1),
                List.of(Kind.COUNT, Kind.COUNT),
                0,
                5));
  }
}
