/**
 * No import circles in the source of the three packages: a module that imports, through any chain of
 * relative imports (type-only and dynamic ones included), a module that imports it back is two
 * modules that cannot be read, tested or moved apart. Measured on the imports TypeScript's own
 * pre-processor finds, resolved the way the packages' NodeNext resolution does (`./x.js` is `./x.ts`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../cli/helpers.js';
import { typeScriptFiles } from './source-files.js';

const PACKAGES = path.resolve(packageRoot, '..');
const SOURCE_ROOTS = ['codemod', 'eslint-plugin', 'surface'].map((name) => path.join(PACKAGES, name, 'src'));

/** The source file a relative specifier names, or undefined for a package or a file outside the sources. */
function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base.replace(/\.([cm]?)js$/, '.$1ts'), `${base}.ts`, path.join(base, 'index.ts'), base];
  return candidates.find((c) => /\.[cm]?tsx?$/.test(c) && fs.existsSync(c));
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const imports = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles;
    graph.set(file, imports.flatMap((i) => resolveRelative(file, i.fileName) ?? []));
  }
  return graph;
}

/** The strongly connected components of more than one module, and modules importing themselves (Tarjan). */
function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) circles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}

describe('import circles', () => {
  it('finds a circle of two modules and one through three, and none in a chain', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['a', 'c']],
      ['c', ['d']],
      ['d', ['e']],
      ['e', ['c']],
      ['f', ['a']],
    ]);
    expect(importCircles(graph)).toEqual([['c', 'd', 'e'], ['a', 'b']]);
    expect(importCircles(new Map([['a', ['b']], ['b', ['c']], ['c', []]]))).toEqual([]);
  });

  it('resolves the packages\' relative imports (`./x.js` to `./x.ts`, folders to index.ts)', () => {
    const graph = importGraph(typeScriptFiles(SOURCE_ROOTS[0]));
    const cli = path.join(SOURCE_ROOTS[0], 'cli.ts');
    // the CLI imports modules of its own package: a resolution that found nothing would pass any graph
    expect(graph.get(cli)!.length).toBeGreaterThan(2);
    expect(graph.get(cli)!.every((f) => graph.has(f))).toBe(true);
  });

  for (const root of SOURCE_ROOTS) {
    it(`has none in ${path.relative(PACKAGES, root)}`, () => {
      const circles = importCircles(importGraph(typeScriptFiles(root)));
      expect(circles.map((c) => c.map((f) => path.relative(root, f)).join(' <-> '))).toEqual([]);
    });
  }
});
