/**
 * The {@code where} languages of chart series: the Lucene-style default and SQL. {@link
 * dev.chartwell.parser.WhereParser} turns a clause into an immutable {@link
 * dev.chartwell.parser.Expr} that keeps its meaning and nothing of its syntax, so that the engine
 * compiles one kind of tree whatever the language. The grammars are ANTLR 4 ({@code Lucene.g4},
 * {@code SqlWhere.g4}, generated at build time); small builders give the parse trees their meaning
 * and report problems as {@link dev.chartwell.parser.WhereSyntaxException} with line and column.
 * {@link dev.chartwell.parser.WherePrinter} writes a tree back as canonical text.
 */
package dev.chartwell.parser;
