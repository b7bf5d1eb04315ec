/*
 * The Lucene-style where language (whereLanguage "lucene", the default).
 * Precedence: NOT (and '-') > AND (and juxtaposition) > OR. The tree is turned into an Expr by
 * LuceneAstBuilder, which gives terms their meaning (tokens, phrases, wildcards, ranges).
 */
grammar Lucene;

query      : orQuery? EOF ;
orQuery    : andQuery (OR andQuery)* ;
andQuery   : notQuery (AND? notQuery)* ;
notQuery   : (NOT | MINUS) notQuery         # negated
           | PLUS notQuery                  # required
           | primary                        # plain
           ;
primary    : LPAREN orQuery RPAREN          # group
           | field COLON fieldValue         # fieldClause
           | bareTerm                       # bare
           ;
field      : TERM ;
fieldValue : LPAREN valueOr RPAREN          # fieldGroup
           | valueAtom                      # fieldAtom
           ;
valueOr    : valueAnd (OR valueAnd)* ;
valueAnd   : valueNot (AND? valueNot)* ;
valueNot   : (NOT | MINUS) valueNot         # valueNegated
           | PLUS valueNot                  # valueRequired
           | LPAREN valueOr RPAREN          # valueGroup
           | valueAtom                      # valuePlain
           ;
valueAtom  : range                          # rangeValue
           | comparator bound               # compareValue
           | QUOTED                         # quotedValue
           | MINUS? word                    # wordValue
           ;
range      : open=(LBRACKET | LBRACE) lo=bound TO hi=bound close=(RBRACKET | RBRACE) ;
bound      : QUOTED | MINUS? word ;
comparator : GT | GTE | LT | LTE ;
bareTerm   : QUOTED | word ;
word       : TERM | URL | LOCALHOST | TO ;

AND        : 'AND' | '&&' ;
OR         : 'OR' | '||' ;
NOT        : 'NOT' ;
TO         : 'TO' ;
LPAREN     : '(' ;
RPAREN     : ')' ;
LBRACKET   : '[' ;
RBRACKET   : ']' ;
LBRACE     : '{' ;
RBRACE     : '}' ;
COLON      : ':' ;
GTE        : '>=' ;
LTE        : '<=' ;
GT         : '>' ;
LT         : '<' ;
MINUS      : '-' ;
PLUS       : '+' ;
CARET      : '^' ;
TILDE      : '~' ;
URL        : 'http' 's'? '://' ~[ \t\r\n\f()"]+ ;
LOCALHOST  : 'localhost:' [0-9]+ ;
QUOTED     : '"' (~["\\] | '\\' .)* '"' ;
UNTERMINATED_QUOTE : '"' (~["\\] | '\\' .)* ;
TERM       : (TERM_START | ESCAPED) (TERM_PART | ESCAPED)* ;
WS         : [ \t\r\n\f]+ -> skip ;

fragment ESCAPED    : '\\' . ;
fragment TERM_START : ~[ \t\r\n\f()[\]{}:"^~\\<>=&|+\-] ;
fragment TERM_PART  : ~[ \t\r\n\f()[\]{}:"^~\\<>&|] ;
