// Building a where from a click: a field equal (or not equal) to a value, in the where's own
// language, added to what is already there.

const quoteLucene = (v) => `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`;
const quoteSql = (v) => `'${String(v).replace(/[\\']/g, (c) => `\\${c}`)}'`;
const sqlName = (f) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(f) ? f : `\`${f}\``);
const luceneName = (f) => f.replace(/[\\:\s()"]/g, (c) => `\\${c}`);

/** The clause "field is value" (or is not), in `lang` ('lucene' or 'sql'). */
export function clause(lang, field, value, exclude = false) {
  if (lang === 'sql') return `${sqlName(field)} ${exclude ? '!=' : '='} ${quoteSql(value)}`;
  return `${exclude ? '-' : ''}${luceneName(field)}:${quoteLucene(value)}`;
}

/** `where` narrowed by one more clause (both must hold). */
export function and(lang, where, more) {
  const w = (where || '').trim();
  if (!w) return more;
  return lang === 'sql' ? `(${w}) AND ${more}` : `(${w}) ${more}`;
}
