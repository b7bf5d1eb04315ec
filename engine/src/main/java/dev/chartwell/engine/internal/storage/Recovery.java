package dev.chartwell.engine.internal.storage;

/**
 * What {@link WriteAheadLog#open} found and did: how many files and records it verified, and the
 * torn tail it cut, if any (records a killed process was writing, never acknowledged).
 *
 * @param files log files found
 * @param records whole, verified records kept
 * @param bytesCut bytes of an incomplete tail removed from the newest file (0 when none)
 * @param cut where and why the tail was cut, or an empty string when nothing was
 */
public record Recovery(int files, long records, long bytesCut, String cut) {}
