package dev.chartwell.engine.segment;

import dev.chartwell.parser.Tokens;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * Builds a {@link TokenIndex} from a sealed string column. Each distinct value is tokenized once
 * (into a {@link TokenTable}) and the distinct tokens sorted; then the rows of every token are
 * gathered with a counting sort (one pass to count, one to place each row), so no bitmap is built a
 * row at a time and no object is made per row or per token occurrence.
 */
final class TokenIndexBuilder {
  private TokenIndexBuilder() {}

  static TokenIndex build(StringColumn column, int rows) {
    StringDictionary dictionary = column.dictionary();
    TokenTable tokens = new TokenTable();
    // The distinct tokens of value v: ofValue[firstOfValue[v]] up to ofValue[firstOfValue[v + 1]].
    int[] firstOfValue = new int[dictionary.size() + 1];
    int[] ofValue = new int[Math.max(16, dictionary.size() * 4)];
    int used = 0;
    Iterator<String> values = dictionary.iterator();
    for (int v = 0; v < dictionary.size(); v++) {
      firstOfValue[v] = used;
      String value = values.next();
      int start = -1;
      for (int i = 0; i <= value.length(); i++) {
        if (i < value.length() && Tokens.isTokenChar(value.charAt(i))) {
          if (start < 0) {
            start = i;
          }
          continue;
        }
        if (start < 0) {
          continue;
        }
        int id = tokens.id(value, start, i);
        start = -1;
        if (!contains(ofValue, firstOfValue[v], used, id)) {
          if (used == ofValue.length) {
            ofValue = Arrays.copyOf(ofValue, 2 * used);
          }
          ofValue[used++] = id;
        }
      }
    }
    firstOfValue[dictionary.size()] = used;

    // Number tokens in sorted order, so that their rows come out grouped by dictionary position.
    String[] byId = new String[tokens.size()];
    for (int id = 0; id < byId.length; id++) {
      byId[id] = tokens.token(id);
    }
    int[] position = new int[byId.length];
    List<String> sorted = new ArrayList<>(byId.length);
    for (int id : StringSort.order(byId, byId.length)) {
      position[id] = sorted.size();
      sorted.add(byId[id]);
    }
    for (int i = 0; i < used; i++) {
      ofValue[i] = position[ofValue[i]];
    }

    int[] starts = new int[sorted.size() + 1];
    for (int row = 0; row < rows; row++) {
      int v = column.id(row);
      if (v >= 0) {
        for (int i = firstOfValue[v]; i < firstOfValue[v + 1]; i++) {
          starts[ofValue[i] + 1]++;
        }
      }
    }
    for (int t = 0; t < sorted.size(); t++) {
      starts[t + 1] += starts[t];
    }
    int[] next = Arrays.copyOf(starts, sorted.size());
    int[] tokenRows = new int[starts[sorted.size()]];
    for (int row = 0; row < rows; row++) {
      int v = column.id(row);
      if (v >= 0) {
        for (int i = firstOfValue[v]; i < firstOfValue[v + 1]; i++) {
          tokenRows[next[ofValue[i]]++] = row;
        }
      }
    }
    return new TokenIndex(
        StringDictionary.of(sorted), BitmapList.of(new GroupedRows(starts, tokenRows)));
  }

  private static boolean contains(int[] ids, int from, int to, int id) {
    for (int i = from; i < to; i++) {
      if (ids[i] == id) {
        return true;
      }
    }
    return false;
  }
}
