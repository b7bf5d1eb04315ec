package dev.chartwell.engine.internal.segment;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;

/**
 * Releases a file mapping at once instead of when the garbage collector finds its buffer, so that a
 * deleted segment file gives its disk space back when its last reader is done (as Lucene's {@code
 * MMapDirectory} does). It uses {@code sun.misc.Unsafe.invokeCleaner} from the {@code
 * jdk.unsupported} module; where that is missing, mappings are left to the collector.
 *
 * <p>Touching a buffer after it is unmapped crashes the JVM, so callers unmap only when no reader
 * can reach the buffer any more: {@link MappedFile} counts its readers.
 */
final class Unmapper {
  private static final MethodHandle INVOKE_CLEANER = find();

  private Unmapper() {}

  /**
   * @return whether mappings are released at once (else by the garbage collector)
   */
  static boolean available() {
    return INVOKE_CLEANER != null;
  }

  /**
   * @param buffer a mapping that nothing reads any more
   */
  static void unmap(MappedByteBuffer buffer) {
    if (INVOKE_CLEANER == null) {
      return;
    }
    try {
      INVOKE_CLEANER.invokeExact((ByteBuffer) buffer);
    } catch (Throwable e) {
      // the collector releases it later
    }
  }

  private static MethodHandle find() {
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
      Field f = unsafeClass.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      Object unsafe = f.get(null);
      return MethodHandles.lookup()
          .findVirtual(
              unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
          .bindTo(unsafe);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
