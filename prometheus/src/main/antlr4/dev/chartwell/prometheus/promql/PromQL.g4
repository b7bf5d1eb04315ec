/*
 * PromQL as Prometheus 2.42 parses it (the subset Chartwell evaluates and a little more, so that an
 * unsupported construct is named rather than reported as a syntax error). Operator precedence, from
 * loosest to tightest: or; and unless; == != <= < >= >; + -; * / % atan2; unary + -; ^ (right
 * associative); then the suffixes [range], offset and @. Keywords are case-insensitive where Prometheus' are.
 */
grammar PromQL;

query : expr EOF ;

expr
  : expr LBRACKET DURATION RBRACKET                                             # matrix
  | expr LBRACKET DURATION COLON DURATION? RBRACKET                             # subquery
  | expr OFFSET SUB? DURATION                                                   # offset
  | expr AT atTime                                                              # at
  | <assoc=right> expr op=POW binModifier expr                                # binary
  | op=(ADD | SUB) expr                                                         # unary
  | expr op=(MUL | DIV | MOD | ATAN2) binModifier expr                          # binary
  | expr op=(ADD | SUB) binModifier expr                                        # binary
  | expr op=(EQLC | NEQ | LTE | LSS | GTE | GTR) binModifier expr               # binary
  | expr op=(AND | UNLESS) binModifier expr                                     # binary
  | expr op=OR binModifier expr                                                 # binary
  | LPAREN expr RPAREN                                                          # paren
  | aggregateOp grouping? LPAREN argList? RPAREN grouping?                      # aggregate
  | IDENTIFIER LPAREN argList? RPAREN                                           # call
  | selector                                                                    # vectorSelector
  | NUMBER                                                                      # number
  | DURATION                                                                    # durationNumber
  | STRING                                                                      # string
  ;

atTime : (ADD | SUB)? NUMBER | (ADD | SUB)? DURATION | START LPAREN RPAREN | END LPAREN RPAREN ;

argList : expr (COMMA expr)* COMMA? ;

binModifier : BOOL? (matchKind=(ON | IGNORING) labelList (groupKind=(GROUP_LEFT | GROUP_RIGHT) labelList?)?)? ;

grouping : kind=(BY | WITHOUT) labelList ;

labelList : LPAREN (labelName (COMMA labelName)* COMMA?)? RPAREN ;

selector
  : metricName (LBRACE matchers? RBRACE)?
  | LBRACE matchers? RBRACE
  ;

matchers : matcher (COMMA matcher)* COMMA? ;

matcher : labelName op=(EQ | NEQ | EQL_REGEX | NEQ_REGEX) STRING ;

metricName : IDENTIFIER | METRIC_IDENTIFIER | keyword ;

labelName : IDENTIFIER | keyword ;

aggregateOp
  : SUM | AVG | MIN | MAX | COUNT | STDDEV | STDVAR | TOPK | BOTTOMK | QUANTILE | COUNT_VALUES | GROUP
  ;

keyword
  : aggregateOp | BY | WITHOUT | ON | IGNORING | GROUP_LEFT | GROUP_RIGHT | BOOL | OFFSET | AND | OR
  | UNLESS | ATAN2 | START | END
  ;

// Keywords: case-insensitive, as Prometheus' lexer reads them.
AND : A N D ;
OR : O R ;
UNLESS : U N L E S S ;
ATAN2 : A T A N '2' ;
SUM : S U M ;
AVG : A V G ;
MIN : M I N ;
MAX : M A X ;
COUNT : C O U N T ;
STDDEV : S T D D E V ;
STDVAR : S T D V A R ;
TOPK : T O P K ;
BOTTOMK : B O T T O M K ;
QUANTILE : Q U A N T I L E ;
COUNT_VALUES : C O U N T '_' V A L U E S ;
GROUP : G R O U P ;
BY : B Y ;
WITHOUT : W I T H O U T ;
ON : O N ;
IGNORING : I G N O R I N G ;
GROUP_LEFT : G R O U P '_' L E F T ;
GROUP_RIGHT : G R O U P '_' R I G H T ;
BOOL : B O O L ;
OFFSET : O F F S E T ;
START : S T A R T ;
END : E N D ;

NUMBER
  : [0-9]+ ('.' [0-9]*)? ([eE] [+-]? [0-9]+)?
  | '.' [0-9]+ ([eE] [+-]? [0-9]+)?
  | '0' [xX] [0-9a-fA-F]+
  | INF_LIT
  | NAN_LIT
  ;
fragment INF_LIT : [iI] [nN] [fF] ;
fragment NAN_LIT : [nN] [aA] [nN] ;

DURATION : ([0-9]+ ('ms' | [smhdwy]))+ ;

STRING
  : '"' (~["\\\n] | '\\' .)* '"'
  | '\'' (~['\\\n] | '\\' .)* '\''
  | '`' ~'`'* '`'
  ;

IDENTIFIER : [a-zA-Z_] [a-zA-Z0-9_]* ;
// A name with a colon (recording rules); it starts with a letter or _ so that [5m:1m] lexes as a subquery.
METRIC_IDENTIFIER : [a-zA-Z_] [a-zA-Z0-9_]* ':' [a-zA-Z0-9_:]* ;

LPAREN : '(' ;
RPAREN : ')' ;
LBRACE : '{' ;
RBRACE : '}' ;
LBRACKET : '[' ;
RBRACKET : ']' ;
COMMA : ',' ;
COLON : ':' ;
AT : '@' ;
EQLC : '==' ;
EQ : '=' ;
NEQ : '!=' ;
EQL_REGEX : '=~' ;
NEQ_REGEX : '!~' ;
LTE : '<=' ;
LSS : '<' ;
GTE : '>=' ;
GTR : '>' ;
ADD : '+' ;
SUB : '-' ;
MUL : '*' ;
DIV : '/' ;
MOD : '%' ;
POW : '^' ;

COMMENT : '#' ~[\r\n]* -> skip ;
WS : [ \t\r\n]+ -> skip ;

fragment A : [aA] ; fragment B : [bB] ; fragment C : [cC] ; fragment D : [dD] ; fragment E : [eE] ;
fragment F : [fF] ; fragment G : [gG] ; fragment H : [hH] ; fragment I : [iI] ; fragment L : [lL] ;
fragment M : [mM] ; fragment N : [nN] ; fragment O : [oO] ; fragment P : [pP] ; fragment Q : [qQ] ;
fragment R : [rR] ; fragment S : [sS] ; fragment T : [tT] ; fragment U : [uU] ; fragment V : [vV] ;
fragment W : [wW] ; fragment X : [xX] ; fragment Y : [yY] ; fragment K : [kK] ;
