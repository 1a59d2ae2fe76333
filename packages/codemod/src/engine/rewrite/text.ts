/** Spelling of generated identifiers, property keys and string literals. */

export function isIdentifierName(name: string): boolean {
  return /^[A-Za-z_$][\w$]*$/.test(name);
}

/** Property key text for a wire key: bare when it is an identifier, quoted otherwise. */
export function keyProperty(key: string): string {
  return isIdentifierName(key) ? key : `'${key.replace(/'/g, "\\'")}'`;
}

export function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** An identifier's spelling of `name`'s words, camel-cased (`summarize_text` -> `summarizeText`; `nameRes` stays). */
export function camelCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9$]+/).filter(Boolean);
  if (words.length === 0) return '_';
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
}
