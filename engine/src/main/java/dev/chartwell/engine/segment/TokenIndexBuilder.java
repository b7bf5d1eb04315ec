package dev.chartwell.engine.segment;

import dev.chartwell.parser.Tokens;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * Builds a {@link TokenIndex} from a sealed string column. Each distinct value is tokenized once;
 * then rows are visited in order and appended to the bitmap of each of their tokens, which is an
 * amortized constant-time append (merging whole value bitmaps instead is quadratic for frequent
 * tokens).
 */
final class TokenIndexBuilder {
  private TokenIndexBuilder() {}

  static TokenIndex build(StringColumn column, int rows) {
    StringDictionary dictionary = column.dictionary();
    Map<String, Integer> tokenIds = new HashMap<>();
    List<String> tokens = new ArrayList<>();
    int[][] tokensOfValue = new int[dictionary.size()][];
    Iterator<String> values = dictionary.iterator();
    for (int id = 0; id < dictionary.size(); id++) {
      LinkedHashSet<String> distinct = new LinkedHashSet<>(Tokens.lowerCaseTokens(values.next()));
      int[] ids = new int[distinct.size()];
      int i = 0;
      for (String t : distinct) {
        Integer tid = tokenIds.get(t);
        if (tid == null) {
          tid = tokens.size();
          tokenIds.put(t, tid);
          tokens.add(t);
        }
        ids[i++] = tid;
      }
      tokensOfValue[id] = ids;
    }
    MutableRoaringBitmap[] postings = new MutableRoaringBitmap[tokens.size()];
    for (int t = 0; t < postings.length; t++) {
      postings[t] = new MutableRoaringBitmap();
    }
    for (int row = 0; row < rows; row++) {
      int id = column.id(row);
      if (id >= 0) {
        for (int t : tokensOfValue[id]) {
          postings[t].add(row);
        }
      }
    }
    Integer[] order = new Integer[tokens.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(order, (a, b) -> tokens.get(a).compareTo(tokens.get(b)));
    List<String> sorted = new ArrayList<>(order.length);
    List<MutableRoaringBitmap> sortedPostings = new ArrayList<>(order.length);
    for (int i : order) {
      sorted.add(tokens.get(i));
      sortedPostings.add(postings[i]);
    }
    return new TokenIndex(StringDictionary.of(sorted), BitmapList.of(sortedPostings));
  }
}
