package dev.chartwell.prometheus;

/** For tests comparing answers bit for bit: a series as one line of text. */
public final class SeriesBits {
  private SeriesBits() {}

  /**
   * @param s a series
   * @return its labels, then each sample as {@code timestamp=bits} (the value's raw bits in hex)
   */
  public static String of(SeriesData s) {
    StringBuilder b = new StringBuilder(s.labels().toString());
    for (int i = 0; i < s.size(); i++) {
      b.append(' ')
          .append(s.timestamps()[i])
          .append('=')
          .append(Long.toHexString(Double.doubleToRawLongBits(s.values()[i])));
    }
    return b.toString();
  }
}
