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
