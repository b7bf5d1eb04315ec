package dev.chartwell.engine;

import dev.chartwell.engine.internal.source.Schema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The definition of a source. Build one from its kind:
 *
 * <pre>{@code
 * SourceSpec logs = SourceSpec.log("app-logs")       // Timestamp, Body searched by bare terms
 *     .name("app logs")
 *     .column("status", ColumnType.LONG)             // optional: fix a field's type up front
 *     .build();
 * SourceSpec spans = SourceSpec.trace("spans").build();
 * }</pre>
 *
 * @param id the source id, or {@code null} to let the engine generate one (24 lower-case hex)
 * @param name display name
 * @param kind what the source holds
 * @param timestampColumn the name of the event time field (not stored as a regular column)
 * @param bodyColumn the column holding the message text, or {@code null}
 * @param implicitColumn the column bare terms search (its token index is built), or {@code null};
 *     it is always a string column
 * @param columns declared columns; other fields become columns when first seen
 */
public record SourceSpec(
    String id,
    String name,
    SourceKind kind,
    String timestampColumn,
    String bodyColumn,
    String implicitColumn,
    List<ColumnSpec> columns) {

  /** Validates the definition. */
  public SourceSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    Schema.requireValidName(timestampColumn);
    columns = List.copyOf(columns);
    Set<String> seen = new HashSet<>();
    for (ColumnSpec c : columns) {
      if (!seen.add(c.name())) {
        throw new IllegalArgumentException("column '" + c.name() + "' is declared twice");
      }
      if (c.name().equals(timestampColumn)) {
        throw new IllegalArgumentException(
            "column '" + c.name() + "' is the timestamp column and cannot be declared");
      }
      if (c.name().equals(implicitColumn) && c.type() != ColumnType.STRING) {
        throw new IllegalArgumentException(
            "implicit column '" + c.name() + "' must be a string column");
      }
    }
    if (implicitColumn != null && implicitColumn.equals(timestampColumn)) {
      throw new IllegalArgumentException("the implicit column cannot be the timestamp column");
    }
  }

  /**
   * A log source with the usual OpenTelemetry names: {@code Timestamp}, body and implicit column
   * {@code Body}, no declared columns.
   *
   * @param name display name
   * @return the definition
   */
  public static SourceSpec logs(String name) {
    return new SourceSpec(null, name, SourceKind.LOG, "Timestamp", "Body", "Body", List.of());
  }

  /**
   * @param id the source id (with a data directory: 1 to 128 letters, digits, {@code .}, {@code _}
   *     or {@code -})
   * @return a builder of a log source: time field {@code Timestamp}, body and bare-term column
   *     {@code Body} (the OpenTelemetry names); the name is the id until {@link Builder#name} says
   *     otherwise
   */
  public static Builder log(String id) {
    return new Builder(SourceKind.LOG).id(id).timestampField("Timestamp").body("Body");
  }

  /**
   * @param id the source id
   * @return a builder of a trace source: time field {@code Timestamp}, bare terms search {@code
   *     SpanName}, no body
   */
  public static Builder trace(String id) {
    return new Builder(SourceKind.TRACE)
        .id(id)
        .timestampField("Timestamp")
        .implicitColumn("SpanName");
  }

  /**
   * @param id the source id
   * @return a builder of a metric source: time field {@code TimeUnix}, no body, no bare-term column
   *     (see {@link MetricSpec} for the columns a metric series reads)
   */
  public static Builder metric(String id) {
    return new Builder(SourceKind.METRIC).id(id).timestampField("TimeUnix");
  }

  /**
   * @param kind what the source holds
   * @return a builder without id (the engine generates one), time field {@code Timestamp}, no body
   *     and no bare-term column
   */
  public static Builder builder(SourceKind kind) {
    return new Builder(Objects.requireNonNull(kind, "kind")).timestampField("Timestamp");
  }

  /** Builds a {@link SourceSpec}; every part but the kind has a default. */
  public static final class Builder {
    private final SourceKind kind;
    private String id;
    private String name;
    private String timestampField;
    private String body;
    private String implicit;
    private boolean implicitSet;
    private final List<ColumnSpec> columns = new ArrayList<>();

    private Builder(SourceKind kind) {
      this.kind = kind;
    }

    /**
     * @param id the source id (default: generated, 24 hex digits)
     * @return this builder
     */
    public Builder id(String id) {
      this.id = Objects.requireNonNull(id, "id");
      return this;
    }

    /**
     * @param name the display name (default: the id)
     * @return this builder
     */
    public Builder name(String name) {
      this.name = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * @param field the name the event's timestamp has in queries and search results (it is given as
     *     {@link Event#timestamp()}, never as a field)
     * @return this builder
     */
    public Builder timestampField(String field) {
      this.timestampField = Objects.requireNonNull(field, "field");
      return this;
    }

    /**
     * @param column the column holding the message text; unless {@link #implicitColumn} is given,
     *     bare terms ({@code error}, {@code "timed out"}) search it too
     * @return this builder
     */
    public Builder body(String column) {
      this.body = Objects.requireNonNull(column, "column");
      if (!implicitSet) {
        this.implicit = column;
      }
      return this;
    }

    /**
     * @param column the string column bare terms search (its token index is built)
     * @return this builder
     */
    public Builder implicitColumn(String column) {
      this.implicit = Objects.requireNonNull(column, "column");
      this.implicitSet = true;
      return this;
    }

    /**
     * Declares a column with a fixed type; other fields become columns of the type of the first
     * value seen.
     *
     * @param name the column name
     * @param type its type
     * @return this builder
     */
    public Builder column(String name, ColumnType type) {
      columns.add(new ColumnSpec(name, type));
      return this;
    }

    /**
     * @return the definition
     * @throws IllegalArgumentException when a part is invalid (a column declared twice, the
     *     timestamp field declared as a column, a non-string bare-term column)
     */
    public SourceSpec build() {
      String display = name != null ? name : id != null ? id : kind.wireName();
      return new SourceSpec(id, display, kind, timestampField, body, implicit, columns);
    }
  }
}
