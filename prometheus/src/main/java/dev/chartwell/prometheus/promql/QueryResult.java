package dev.chartwell.prometheus.promql;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import java.util.List;
import java.util.Objects;

/**
 * The value of a query, as Prometheus' API returns it ({@code resultType} and {@code result}), plus
 * the evaluation's warnings.
 */
public sealed interface QueryResult
    permits QueryResult.Scalar, QueryResult.StringValue, QueryResult.Vector, QueryResult.Matrix {

  /**
   * Warnings to pass on to the caller (Prometheus' {@code warnings}).
   *
   * @return messages, often empty
   */
  List<String> warnings();

  /**
   * The result type's name in the API.
   *
   * @return {@code scalar}, {@code string}, {@code vector} or {@code matrix}
   */
  String resultType();

  /**
   * A scalar at one time.
   *
   * @param timeMs the evaluation time
   * @param value the number
   * @param warnings warnings
   */
  record Scalar(long timeMs, double value, List<String> warnings) implements QueryResult {
    /** Copies the warnings. */
    public Scalar {
      warnings = List.copyOf(warnings);
    }

    @Override
    public String resultType() {
      return "scalar";
    }
  }

  /**
   * A string at one time.
   *
   * @param timeMs the evaluation time
   * @param value the string
   * @param warnings warnings
   */
  record StringValue(long timeMs, String value, List<String> warnings) implements QueryResult {
    /** Checks and copies. */
    public StringValue {
      Objects.requireNonNull(value, "value");
      warnings = List.copyOf(warnings);
    }

    @Override
    public String resultType() {
      return "string";
    }
  }

  /**
   * One sample of an instant vector.
   *
   * @param labels the series
   * @param timeMs the evaluation time
   * @param value the value
   */
  record Sample(Labels labels, long timeMs, double value) {
    /** Checks the labels. */
    public Sample {
      Objects.requireNonNull(labels, "labels");
    }
  }

  /**
   * An instant vector: at most one sample per label set, in the order the query defines (sort,
   * sort_desc) or by labels.
   *
   * @param samples the samples
   * @param warnings warnings
   */
  record Vector(List<Sample> samples, List<String> warnings) implements QueryResult {
    /** Copies the lists. */
    public Vector {
      samples = List.copyOf(samples);
      warnings = List.copyOf(warnings);
    }

    @Override
    public String resultType() {
      return "vector";
    }
  }

  /**
   * A range of samples per series (a range query's answer, or an instant query of a range vector
   * selector), sorted by labels.
   *
   * @param series the series, each with its points in time order
   * @param warnings warnings
   */
  record Matrix(List<SeriesData> series, List<String> warnings) implements QueryResult {
    /** Copies the lists. */
    public Matrix {
      series = List.copyOf(series);
      warnings = List.copyOf(warnings);
    }

    @Override
    public String resultType() {
      return "matrix";
    }
  }
}
