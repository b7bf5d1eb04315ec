package dev.chartwell.engine.internal.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OwnerOnlyTest {
  @TempDir Path dir;

  @Test
  void foldersAndFilesAreCreatedOwnerOnly() throws Exception {
    Path deep = OwnerOnly.createDirectories(dir.resolve("a/b/c"));
    for (Path p : List.of(dir.resolve("a"), dir.resolve("a/b"), deep)) {
      assertEquals("rwx------", mode(p), p.toString());
    }
    try (FileChannel ch =
        OwnerOnly.open(deep.resolve("f"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      assertEquals("rw-------", mode(deep.resolve("f")));
    }
    Path open = Files.writeString(dir.resolve("g"), "x");
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
    assertTrue(OwnerOnly.isOpenToOthers(open));
    OwnerOnly.restrict(open);
    assertFalse(OwnerOnly.isOpenToOthers(open));
  }

  @Test
  void everythingAnEngineWritesIsOwnerOnly() throws Exception {
    Path data = dir.resolve("data");
    try (Engine engine = Engine.builder().dataDirectory(data).build()) {
      Source logs = engine.createSource(SourceSpec.log("logs").build());
      logs.append(new Event(1_700_000_000_000L, Map.of("Body", "hello")));
      logs.seal();
    }
    try (Stream<Path> all = Files.walk(data)) {
      List<Path> open = all.filter(p -> isOpen(p)).toList();
      assertEquals(List.of(), open);
    }
  }

  private static boolean isOpen(Path p) {
    try {
      return OwnerOnly.isOpenToOthers(p);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
