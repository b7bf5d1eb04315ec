package dev.chartwell.engine.segment;

import dev.chartwell.parser.Tokens;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * Builds a {@link TokenIndex} from a sealed string column: each distinct value is tokenized once,
 * and its rows are OR-ed into the bitmap of each of its tokens.
 */
final class TokenIndexBuilder {
  private TokenIndexBuilder() {}

  static TokenIndex build(StringColumn column) {
    StringDictionary dictionary = column.dictionary();
    Map<String, MutableRoaringBitmap> byToken = new HashMap<>();
    for (int id = 0; id < dictionary.size(); id++) {
      Set<String> tokens = new LinkedHashSet<>(Tokens.lowerCaseTokens(dictionary.get(id)));
      for (String token : tokens) {
        byToken.computeIfAbsent(token, t -> new MutableRoaringBitmap()).or(column.rows(id));
      }
    }
    List<String> sorted = new ArrayList<>(byToken.keySet());
    sorted.sort(null);
    List<MutableRoaringBitmap> postings = new ArrayList<>(sorted.size());
    for (String token : sorted) {
      postings.add(byToken.get(token));
    }
    return new TokenIndex(StringDictionary.of(sorted), BitmapList.of(postings));
  }
}
