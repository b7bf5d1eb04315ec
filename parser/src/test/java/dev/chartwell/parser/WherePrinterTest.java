package dev.chartwell.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Printing decisions that random round trips once caught wrong. */
class WherePrinterTest {
  @Test
  void anEscapedPercentIsNoWildcardForLucene() {
    // ILIKE '\%' matches a literal percent sign only; Lucene's field:% would be a loose match.
    Expr literalPercent = Ast.ilike("level", "\\%");
    assertFalse(WherePrinter.canPrint(literalPercent, WhereLanguage.LUCENE));
    String sql = WherePrinter.print(literalPercent, WhereLanguage.SQL);
    assertEquals(literalPercent, WhereParser.parse(sql, WhereLanguage.SQL));
  }

  @Test
  void aTrailingLoneBackslashHasNoLuceneSpelling() {
    Expr dangling = Ast.ilike("f", "%a\\");
    assertFalse(WherePrinter.canPrint(dangling, WhereLanguage.LUCENE));
    Expr paired = Ast.ilike("f", "%a\\\\");
    assertTrue(WherePrinter.canPrint(paired, WhereLanguage.LUCENE));
    assertEquals(
        paired,
        WhereParser.parse(WherePrinter.print(paired, WhereLanguage.LUCENE), WhereLanguage.LUCENE));
  }

  @Test
  void realWildcardsStillPrint() {
    Expr prefix = Ast.ilike("host", "web\\%%");
    String text = WherePrinter.print(prefix, WhereLanguage.LUCENE);
    assertEquals("host:web%*", text);
    assertEquals(prefix, WhereParser.parse(text, WhereLanguage.LUCENE));
  }
}
