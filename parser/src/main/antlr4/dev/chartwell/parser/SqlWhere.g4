/*
 * The SQL where language (whereLanguage "sql"): a boolean expression over columns.
 * Precedence: NOT > AND > OR. Function calls are parsed generically and checked by SqlAstBuilder,
 * which knows lower, upper, hasToken, position and positionCaseInsensitive.
 */
grammar SqlWhere;

where      : orExpr? EOF ;
// Chains of AND and OR are loops, not left-deep trees: 10,000 terms need no deep recursion.
orExpr     : andExpr (OR andExpr)* ;
andExpr    : notExpr (AND notExpr)* ;
notExpr    : NOT notExpr                                               # negation
           | predicate                                                 # predicateExpr
           ;
predicate  : LPAREN orExpr RPAREN                                      # parenthesized
           | value NOT? IN LPAREN value (COMMA value)* RPAREN          # inList
           | value NOT? BETWEEN lo=value AND hi=value                  # between
           | value NOT? op=(LIKE | ILIKE) value                        # like
           | value IS NOT? NULL                                        # isNull
           | left=value comparison right=value                         # compare
           | value                                                     # bareValue
           ;
value      : call                                                      # callValue
           | column                                                    # columnValue
           | literal                                                   # literalValue
           ;
call       : IDENT LPAREN value (COMMA value)* RPAREN ;
column     : identifier (DOT identifier)* (LBRACKET STRING RBRACKET)* ;
identifier : IDENT | BACKQUOTED | DQUOTED ;
literal    : STRING | MINUS? NUMBER | TRUE | FALSE ;
comparison : EQ | NEQ | LT | LTE | GT | GTE ;

AND        : [aA][nN][dD] ;
OR         : [oO][rR] ;
NOT        : [nN][oO][tT] ;
IN         : [iI][nN] ;
BETWEEN    : [bB][eE][tT][wW][eE][eE][nN] ;
LIKE       : [lL][iI][kK][eE] ;
ILIKE      : [iI][lL][iI][kK][eE] ;
IS         : [iI][sS] ;
NULL       : [nN][uU][lL][lL] ;
TRUE       : [tT][rR][uU][eE] ;
FALSE      : [fF][aA][lL][sS][eE] ;
LPAREN     : '(' ;
RPAREN     : ')' ;
LBRACKET   : '[' ;
RBRACKET   : ']' ;
COMMA      : ',' ;
DOT        : '.' ;
EQ         : '=' | '==' ;
NEQ        : '!=' | '<>' ;
LTE        : '<=' ;
GTE        : '>=' ;
LT         : '<' ;
GT         : '>' ;
MINUS      : '-' ;
NUMBER     : [0-9]+ ('.' [0-9]*)? ([eE] [+\-]? [0-9]+)?
           | '.' [0-9]+ ([eE] [+\-]? [0-9]+)?
           ;
STRING     : '\'' (~['\\] | '\\' . | '\'\'')* '\'' ;
UNTERMINATED_STRING : '\'' (~['\\] | '\\' . | '\'\'')* ;
BACKQUOTED : '`' (~'`' | '``')* '`' ;
DQUOTED    : '"' (~'"' | '""')* '"' ;
IDENT      : [a-zA-Z_] [a-zA-Z0-9_]* ;
WS         : [ \t\r\n\f]+ -> skip ;
