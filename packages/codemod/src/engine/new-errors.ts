/**
 * The error keys of `after` that `before` does not have, counted as a multiset: an error that was
 * there once and is there twice now is one new error. How verify, the hold-back split and the
 * repairs tell a text that compiles worse from one that compiles as before.
 */
export function newErrors(before: string[], after: string[]): string[] {
  const counts = new Map<string, number>();
  for (const key of before) counts.set(key, (counts.get(key) ?? 0) + 1);
  const added: string[] = [];
  for (const key of after) {
    const n = counts.get(key) ?? 0;
    if (n > 0) counts.set(key, n - 1);
    else added.push(key);
  }
  return added;
}
