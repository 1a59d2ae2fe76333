/**
 * Whether a package version satisfies a dependency range as npm reads it, for the forms package
 * manifests use (`^4.2.0`, `~1.2`, `>=3.25 <5`, `^3.25 || ^4.0`, `4.x`, `*`, an exact version).
 * Enough to predict whether npm dedupes a dependency onto the project's copy; a range it cannot
 * read is not satisfied (the caller then keeps its own copy, as npm would nest one).
 */
type Version = [number, number, number];

export function satisfiesRange(version: string, range: string): boolean {
  const v = parseVersion(version);
  if (!v) return false;
  return range.split('||').some((alternative) => {
    const comparators = alternative.trim().split(/\s+/).filter(Boolean);
    if (comparators.length === 0) return true;
    return comparators.every((c) => satisfiesComparator(v, c));
  });
}

function satisfiesComparator(v: Version, comparator: string): boolean {
  const match = /^(\^|~|>=|<=|>|<|=)?v?(.*)$/.exec(comparator);
  if (!match) return false;
  const operator = match[1] ?? '';
  const partial = parsePartial(match[2]!);
  if (!partial) return false;
  const [major, minor, patch] = partial;
  if (major === undefined) return operator === '' || operator === '>=' || operator === '<=';
  const low: Version = [major, minor ?? 0, patch ?? 0];
  switch (operator) {
    case '^': {
      // the left-most non-zero part is fixed
      const upper: Version = major > 0 || minor === undefined ? [major + 1, 0, 0] : minor > 0 || patch === undefined ? [0, minor + 1, 0] : [0, 0, patch + 1];
      return compare(v, low) >= 0 && compare(v, upper) < 0;
    }
    case '~': {
      const upper: Version = minor === undefined ? [major + 1, 0, 0] : [major, minor + 1, 0];
      return compare(v, low) >= 0 && compare(v, upper) < 0;
    }
    case '>=':
      return compare(v, low) >= 0;
    case '>':
      return minor === undefined ? v[0] > major : patch === undefined ? compare(v, [major, minor + 1, 0]) >= 0 : compare(v, low) > 0;
    case '<':
      return compare(v, low) < 0;
    case '<=':
      return minor === undefined ? v[0] <= major : patch === undefined ? compare(v, [major, minor + 1, 0]) < 0 : compare(v, low) <= 0;
    default:
      // exact, or an x-range (`4`, `4.x`, `4.2.*`)
      return v[0] === major && (minor === undefined || v[1] === minor) && (patch === undefined || v[2] === patch);
  }
}

/** `4.6.7` (a prerelease or build suffix ignored), or undefined. */
function parseVersion(text: string): Version | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** `4`, `4.2`, `4.x`, `4.2.0-beta.1`, `*`: the given parts, undefined from the first wildcard on. */
function parsePartial(text: string): [number?, number?, number?] | undefined {
  const parts = text.replace(/[-+].*$/, '').split('.');
  if (parts.length > 3) return undefined;
  const out: [number?, number?, number?] = [];
  for (const part of parts) {
    if (part === '*' || part === 'x' || part === 'X' || part === '') break;
    if (!/^\d+$/.test(part)) return undefined;
    out.push(Number(part));
  }
  return out;
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}
