/**
 * The CLI answers `--help`, `--version` and usage errors without loading the engine: its modules
 * imported at start-up (static value imports, followed through the source) never reach ts-morph or
 * typescript, which only the lazily imported migrate module loads. Loading them costs about half a
 * second of CPU per start, paid by every usage error and by each of the suite's CLI spawns.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../cli/helpers.js';

/** ts-morph and typescript, and the packages only the engine's reading of formatter options needs (formatter-options.ts: yaml, micromatch, minimatch; loading the three costs about 0.06 s of CPU and 10 MB more per start). */
const HEAVY = new Set(['ts-morph', 'typescript', 'yaml', 'micromatch', 'minimatch']);

/** Specifiers a module loads when it is evaluated: value imports and re-exports, not `import type` or `import()`. */
function eagerSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) {
      const bindings = statement.importClause?.namedBindings;
      const onlyTypes = !statement.importClause?.name && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
      if (!onlyTypes) out.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      out.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return out;
}

function resolveRelative(from: string, specifier: string): string {
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  const candidate = [`${base}.ts`, path.join(base, 'index.ts')].find((p) => fs.existsSync(p));
  if (!candidate) throw new Error(`cannot resolve ${specifier} from ${from}`);
  return candidate;
}

/** Each heavy package the start-up graph reaches, with the chain of modules that loads it. */
function heavyChains(entry: string): string[] {
  const parent = new Map<string, string | undefined>([[entry, undefined]]);
  const queue = [entry];
  const found: string[] = [];
  const chain = (file: string): string[] => {
    const names: string[] = [];
    for (let at: string | undefined = file; at; at = parent.get(at)) names.unshift(path.relative(packageRoot, at));
    return names;
  };
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const specifier of eagerSpecifiers(file)) {
      if (specifier.endsWith('.json')) continue;
      if (specifier.startsWith('.')) {
        const target = resolveRelative(file, specifier);
        if (!parent.has(target)) {
          parent.set(target, file);
          queue.push(target);
        }
      } else if (HEAVY.has(specifier)) {
        found.push(`${specifier} <- ${chain(file).reverse().join(' <- ')}`);
      }
    }
  }
  return found;
}

describe('CLI start-up', () => {
  it('loads neither ts-morph, typescript nor the formatter-option readers before a command needs the engine', () => {
    expect(heavyChains(path.join(packageRoot, 'src/cli.ts'))).toEqual([]);
  });

  it('the check sees a heavy import where there is one (the engine entry loads ts-morph)', () => {
    expect(heavyChains(path.join(packageRoot, 'src/migrate.ts')).length).toBeGreaterThan(0);
  });
});
