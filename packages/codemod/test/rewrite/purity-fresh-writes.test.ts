/**
 * A property write on a collection the re-run code makes itself (`const params = { ... };
 * params['filter'] = v`) is invisible outside, so it re-runs harmlessly on every round, like
 * `reasons.push(x)` on `const reasons = []` (engine/rewrite/purity.ts firstEffect). A write that
 * can reach anything else stays an effect.
 */
import { describe, expect, it } from 'vitest';
import { Project, SyntaxKind } from 'ts-morph';
import { firstEffect } from '../../src/engine/rewrite/purity.js';

/** The first effect among the statements of `f`'s body, as firstEffect describes it. */
function effectOf(body: string): string | undefined {
  const source = `const shared: Record<string, string> = {};\nconst parent = { count: 0 };\nfunction f(rating: number, outer: Record<string, string>) {\n${body}\n}`;
  const file = new Project({ useInMemoryFileSystem: true }).createSourceFile('f.ts', source);
  const fn = file.getFirstDescendantByKindOrThrow(SyntaxKind.FunctionDeclaration);
  return firstEffect(fn.getBody()!.getChildSyntaxListOrThrow().getChildren(), fn)?.description;
}

describe('property writes before a request', () => {
  it("writes to a const local's own fresh object or array are not effects", () => {
    expect(effectOf(`const params: Record<string, string> = { limit: '30' };\nif (rating > 0) params['filter[rating]'] = String(rating);`)).toBeUndefined();
    expect(effectOf(`const query = { sort: 'date', page: 1 };\nquery.page = rating;\nquery.sort += '-desc';`)).toBeUndefined();
    expect(effectOf(`const scores = [0, 0];\nscores[1] = rating;`)).toBeUndefined();
    // behind a type assertion or a non-null assertion (find/resolve.ts unwrapExpression), the literal is still made here
    expect(effectOf(`const typed = <Record<string, string>>{};\ntyped['k'] = String(rating);`)).toBeUndefined();
    expect(effectOf(`const counts = [0]!;\ncounts[0] = rating;`)).toBeUndefined();
  });

  it('writes that can reach something else stay effects', () => {
    // not made here: a module-level object, a parameter
    expect(effectOf(`shared['k'] = 'v';`)).toBe(`shared['k'] = 'v'`);
    expect(effectOf(`outer.k = 'v';`)).toBe(`outer.k = 'v'`);
    // a nested object of the literal may be someone else's
    expect(effectOf(`const p = { parent };\np.parent.count = rating;`)).toBe('p.parent.count = rating');
    // `let`: it may hold another collection by the time of the write
    expect(effectOf(`let q: Record<string, string> = {};\nq = outer;\nq.k = 'v';`)).toBe(`q.k = 'v'`);
    // a setter, or a prototype from outside, runs code of its own on the write (whatever its body)
    expect(effectOf(`const s = { set k(v: string) { void v; } };\ns.k = 'v';`)).toBe(`s.k = 'v'`);
    expect(effectOf(`const t: Record<string, string> = { __proto__: outer };\nt.k = 'v';`)).toBe(`t.k = 'v'`);
  });
});
