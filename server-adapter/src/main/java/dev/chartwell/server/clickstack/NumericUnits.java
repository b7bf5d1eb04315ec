package dev.chartwell.server.clickstack;

import java.util.List;

/** The units a tile's number format may name ({@code numberFormat.numericUnit}). */
final class NumericUnits {
  static final List<String> ALL =
      List.of(
          "bytes_iec",
          "bytes_si",
          "bits_iec",
          "bits_si",
          "kibibytes",
          "kilobytes",
          "mebibytes",
          "megabytes",
          "gibibytes",
          "gigabytes",
          "tebibytes",
          "terabytes",
          "pebibytes",
          "petabytes",
          "packets_sec",
          "bytes_sec_iec",
          "bytes_sec_si",
          "bits_sec_iec",
          "bits_sec_si",
          "kibibytes_sec",
          "kibibits_sec",
          "kilobytes_sec",
          "kilobits_sec",
          "mebibytes_sec",
          "mebibits_sec",
          "megabytes_sec",
          "megabits_sec",
          "gibibytes_sec",
          "gibibits_sec",
          "gigabytes_sec",
          "gigabits_sec",
          "tebibytes_sec",
          "tebibits_sec",
          "terabytes_sec",
          "terabits_sec",
          "pebibytes_sec",
          "pebibits_sec",
          "petabytes_sec",
          "petabits_sec",
          "cps",
          "ops",
          "rps",
          "reads_sec",
          "wps",
          "iops",
          "cpm",
          "opm",
          "rpm_reads",
          "wpm");

  private NumericUnits() {}
}
