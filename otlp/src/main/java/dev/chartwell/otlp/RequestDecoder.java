package dev.chartwell.otlp;

import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import java.io.IOException;

/**
 * Walks the envelope every OTLP export request shares: a list of resources (field 1), each with its
 * resource (1), its scopes (2) and a schema URL (3); each scope with its instrumentation scope (1),
 * its records (2) and a schema URL (3). Fields may come in any order, so each envelope is read
 * twice: first what its records share, then the records. Subclasses check and convert one record.
 */
abstract class RequestDecoder {
  private final String resources;
  private final String scopes;
  private final String records;

  /**
   * @param resources the JSON name of the request's list of resources ({@code resourceLogs})
   * @param scopes the JSON name of a resource's list of scopes ({@code scopeLogs})
   * @param records the JSON name of a scope's list of records ({@code logRecords})
   */
  RequestDecoder(String resources, String scopes, String records) {
    this.resources = resources;
    this.scopes = scopes;
    this.records = records;
  }

  /**
   * Checks or converts one entry of a scope's records.
   *
   * @param walk the pass
   * @param off where its bytes start in the body
   * @param len how many bytes
   * @param scope the path of its scope, for messages
   * @param index its position in the scope
   * @throws OtlpFormatException when it does not decode
   */
  abstract void record(Walk walk, int off, int len, String scope, int index)
      throws OtlpFormatException;

  /** Locates the current field's bytes; a length that runs past the end is that entry's fault. */
  static void slice(WireCursor c, String where) throws OtlpFormatException {
    try {
      c.slice();
    } catch (IOException e) {
      throw OtlpFormatException.of(where, e);
    }
  }

  /**
   * @param scope the path of a scope
   * @param index a position among its records
   * @return the path of that record ({@code resourceLogs[0].scopeLogs[1].logRecords[7]})
   */
  final String where(String scope, int index) {
    return scope + "." + records + "[" + index + "]";
  }

  /**
   * Adds the columns of a scope that only some tables have.
   *
   * @param row the common row
   * @param scope the instrumentation scope
   */
  void scopeColumns(Row row, InstrumentationScope scope) {}

  final void walk(Walk walk) throws OtlpFormatException {
    WireCursor c = new WireCursor(walk.body, 0, walk.body.length);
    int i = 0;
    try {
      while (c.next()) {
        if (c.isLengthDelimited(1)) {
          String where = resources + "[" + i++ + "]";
          slice(c, where);
          resource(walk, c.offset(), c.length(), where);
        } else {
          c.skip();
        }
      }
    } catch (IOException e) {
      throw OtlpFormatException.of("at its top level", e);
    }
  }

  private void resource(Walk walk, int off, int len, String where) throws OtlpFormatException {
    Resource.Builder resource = Resource.newBuilder();
    String schemaUrl = "";
    long shared = 0;
    WireCursor c = new WireCursor(walk.body, off, len);
    try {
      while (c.next()) {
        if (c.isLengthDelimited(1)) {
          c.slice();
          walk.merge(resource, c.offset(), c.length());
          shared += c.length();
        } else if (c.isLengthDelimited(3)) {
          schemaUrl = c.string();
          shared += schemaUrl.length();
        } else {
          c.skip();
        }
      }
      Resource r = resource.build();
      c = new WireCursor(walk.body, off, len);
      int i = 0;
      while (c.next()) {
        if (c.isLengthDelimited(2)) {
          slice(c, where + "." + scopes + "[" + i + "]");
          scope(walk, r, schemaUrl, shared, c.offset(), c.length(), where + "." + scopes, i++);
        } else {
          c.skip();
        }
      }
    } catch (IOException e) {
      throw OtlpFormatException.of(where, e);
    }
  }

  private void scope(
      Walk walk,
      Resource resource,
      String resourceSchemaUrl,
      long resourceBytes,
      int off,
      int len,
      String list,
      int index)
      throws OtlpFormatException {
    String where = list + "[" + index + "]";
    InstrumentationScope.Builder scope = InstrumentationScope.newBuilder();
    String schemaUrl = "";
    long shared = resourceBytes;
    WireCursor c = new WireCursor(walk.body, off, len);
    try {
      while (c.next()) {
        if (c.isLengthDelimited(1)) {
          c.slice();
          walk.merge(scope, c.offset(), c.length());
          shared += c.length();
        } else if (c.isLengthDelimited(3)) {
          schemaUrl = c.string();
          shared += schemaUrl.length();
        } else {
          c.skip();
        }
      }
      walk.shared(shared);
      if (!walk.checking()) {
        common(walk, resource, resourceSchemaUrl, scope.build(), schemaUrl);
      }
      c = new WireCursor(walk.body, off, len);
      int i = 0;
      while (c.next()) {
        if (c.isLengthDelimited(2)) {
          slice(c, where(where, i));
          record(walk, c.offset(), c.length(), where, i++);
        } else {
          c.skip();
        }
      }
    } catch (IOException e) {
      throw OtlpFormatException.of(where, e);
    }
  }

  /**
   * The columns every record of a scope carries: its service, resource and scope. When they cannot
   * be stored (a key no column can be named after), every record of the scope is rejected.
   */
  private void common(
      Walk walk,
      Resource resource,
      String resourceSchemaUrl,
      InstrumentationScope scope,
      String scopeSchemaUrl) {
    Row row = new Row();
    try {
      String service = "";
      for (KeyValue kv : resource.getAttributesList()) {
        if (kv.getKey().equals("service.name")) {
          service = AnyValues.text(kv.getValue());
        }
      }
      row.text("ServiceName", service);
      row.text("ResourceSchemaUrl", resourceSchemaUrl);
      row.attributes("ResourceAttributes", resource.getAttributesList());
      row.text("ScopeName", scope.getName());
      row.text("ScopeVersion", scope.getVersion());
      row.text("ScopeSchemaUrl", scopeSchemaUrl);
      row.attributes("ScopeAttributes", scope.getAttributesList());
      scopeColumns(row, scope);
      walk.common(row, null);
    } catch (Rejected e) {
      walk.common(null, e.getMessage());
    }
  }
}
