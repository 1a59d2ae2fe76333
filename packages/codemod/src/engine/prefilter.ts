/**
 * Which files go into the ts-morph project. Only candidates (text pre-filter on the surface's
 * tokens), v1 files (the SDK upgrade applies to all of them), files that host servers, and the
 * project files that can reach a candidate (transitive importers that speak MCP or call into it
 * directly) are loaded; every other file is never parsed. Once sites are found, the importers of
 * the files holding them are followed to any depth (`siteImporters`), so a handler that reaches a
 * site only through helper files without any MCP name is still analysed; and when a file uses a
 * v1-only API, the files in an import component with a loaded file are loaded before the hold-back's
 * sharing graph is read (`importConnected`, src/run/stages.ts).
 */
import path from 'node:path';
import { HTTP_TRANSPORTS, LEGACY_TRANSPORTS, MCP_PACKAGE_PREFIX, SSE_TRANSPORTS, mayContainLegacySite } from '@mcp-mrtr/surface';

const IMPORT_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"\n]+)\1/g;
const BARE_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)(['"])([@A-Za-z0-9_][^'"\n:]*)\1/g;
const RESOLVE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_TO_TS: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'], '.jsx': ['.tsx'] };

export interface PrefilterInput {
  path: string;
  text: string;
}

export interface PrefilterResult {
  /** Files that may hold a legacy site. */
  candidates: Set<string>;
  /** Every file to load into the project (candidates included). */
  load: Set<string>;
  /** Files that speak MCP (import an MCP package or transport): where handlers and typed servers live. */
  mcp: Set<string>;
  /** File → its importers (pre-filter on only; every file is loaded otherwise). */
  importers?: Map<string, string[]>;
}

/**
 * The source file a bare specifier names in the run's own code (a workspace package of a monorepo,
 * engine/workspace-packages.ts), or undefined.
 */
export type BareImportResolver = (specifier: string) => string | undefined;

/**
 * Relative imports of a file resolved against the known file set, and, with `bare`, the imports of
 * workspace packages whose source is among the known files.
 */
export function relativeImports(file: string, text: string, known: Set<string>, bare?: BareImportResolver): string[] {
  const out: string[] = [];
  if (bare) {
    BARE_SPECIFIER.lastIndex = 0;
    for (let m = BARE_SPECIFIER.exec(text); m; m = BARE_SPECIFIER.exec(text)) {
      const resolved = bare(m[2]!);
      if (resolved && known.has(resolved)) out.push(resolved);
    }
  }
  if (!text.includes('./')) return out;
  IMPORT_SPECIFIER.lastIndex = 0;
  for (let m = IMPORT_SPECIFIER.exec(text); m; m = IMPORT_SPECIFIER.exec(text)) {
    const resolved = resolveRelative(path.dirname(file), m[2]!, known);
    if (resolved) out.push(resolved);
  }
  return out;
}

function resolveRelative(dir: string, spec: string, known: Set<string>): string | undefined {
  const base = path.resolve(dir, spec);
  if (known.has(base)) return base;
  const ext = path.extname(base);
  for (const alt of JS_TO_TS[ext] ?? []) {
    const candidate = base.slice(0, -ext.length) + alt;
    if (known.has(candidate)) return candidate;
  }
  for (const e of RESOLVE_EXTENSIONS) {
    if (known.has(base + e)) return base + e;
    if (known.has(path.join(base, `index${e}`))) return path.join(base, `index${e}`);
  }
  return undefined;
}

export function speaksMcp(text: string): boolean {
  if (text.includes(MCP_PACKAGE_PREFIX)) return true;
  for (const t of [...LEGACY_TRANSPORTS, ...HTTP_TRANSPORTS, ...SSE_TRANSPORTS]) if (text.includes(t)) return true;
  return false;
}

export function selectFiles(inputs: PrefilterInput[], options: { prefilter: boolean; bare?: BareImportResolver }): PrefilterResult {
  const known = new Set(inputs.map((i) => i.path));
  const candidates = new Set<string>();
  const load = new Set<string>();
  const mcp = new Set<string>();
  for (const input of inputs) {
    if (!options.prefilter || mayContainLegacySite(input.text)) candidates.add(input.path);
    if (!options.prefilter || speaksMcp(input.text)) mcp.add(input.path);
    if (candidates.has(input.path) || mcp.has(input.path)) load.add(input.path);
  }
  if (!options.prefilter) return { candidates, load, mcp };
  // Importers of loaded files, transitively: a handler two files away can reach a helper's site.
  const texts = new Map(inputs.map((i) => [i.path, i.text]));
  const importers = importerGraph(inputs, known, options.bare);
  walkImporters(candidates, importers, (importer, file) => {
    if (!load.has(importer) && !candidates.has(file) && !speaksMcp(texts.get(importer)!)) return false;
    load.add(importer);
    return true;
  });
  return { candidates, load, mcp, importers };
}

/** File → the files that import it (relative imports, and workspace packages' through `bare`). */
export function importerGraph(inputs: PrefilterInput[], known = new Set(inputs.map((i) => i.path)), bare?: BareImportResolver): Map<string, string[]> {
  const importers = new Map<string, string[]>();
  for (const input of inputs) {
    for (const target of relativeImports(input.path, input.text, known, bare)) {
      const list = importers.get(target) ?? [];
      list.push(input.path);
      importers.set(target, list);
    }
  }
  return importers;
}

/**
 * Every file that imports one of `siteFiles`, directly or through any chain of imports, and is not
 * loaded yet. Only run once sites are known: a tree without sites never pays for it.
 */
export function siteImporters(siteFiles: Iterable<string>, importers: Map<string, string[]>, loaded: Set<string>): Set<string> {
  const out = new Set<string>();
  walkImporters(siteFiles, importers, (importer) => {
    if (!loaded.has(importer)) out.add(importer);
    return true;
  });
  return out;
}

const ANY_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)(['"])([^'".\n][^'"\n]*)\1/g;

/**
 * File → its importers through the tsconfig's `paths` aliases (`@/lib/x`, `#lib/x`), which
 * `importerGraph` does not follow: the specifiers one of `patterns` (the `paths` keys) matches,
 * resolved by `resolve` (the compiler's module resolution) to a file among `known`.
 */
export function aliasImporterGraph(inputs: PrefilterInput[], known: Set<string>, patterns: readonly string[], resolve: (specifier: string, file: string) => string | undefined): Map<string, string[]> {
  const matches = (spec: string) => patterns.some((p) => (p.includes('*') ? spec.startsWith(p.slice(0, p.indexOf('*'))) && spec.endsWith(p.slice(p.indexOf('*') + 1)) : spec === p));
  const importers = new Map<string, string[]>();
  for (const input of inputs) {
    ANY_SPECIFIER.lastIndex = 0;
    for (let m = ANY_SPECIFIER.exec(input.text); m; m = ANY_SPECIFIER.exec(input.text)) {
      if (!matches(m[2]!)) continue;
      const target = resolve(m[2]!, input.path);
      if (!target || !known.has(target) || target === input.path) continue;
      importers.set(target, [...(importers.get(target) ?? []), input.path]);
    }
  }
  return importers;
}

/**
 * Every file that `start` reaches through imports in either direction (it imports, or is imported
 * by, a file reached), `start` included: the files of their import components.
 */
export function importConnected(start: Iterable<string>, importers: Map<string, string[]>): Set<string> {
  const imported = new Map<string, string[]>();
  for (const [target, list] of importers) {
    for (const importer of list) {
      const targets = imported.get(importer) ?? [];
      targets.push(target);
      imported.set(importer, targets);
    }
  }
  const out = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (out.has(file)) continue;
    out.add(file);
    for (const next of [...(importers.get(file) ?? []), ...(imported.get(file) ?? [])]) if (!out.has(next)) queue.push(next);
  }
  return out;
}

/**
 * Walks the importer graph upwards from `start`, each file once; `follow(importer, file)` is asked for
 * every not yet visited importer of a visited file and says whether the walk goes on through it.
 */
function walkImporters(start: Iterable<string>, importers: Map<string, string[]>, follow: (importer: string, file: string) => boolean): void {
  const visited = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (visited.has(file)) continue;
    visited.add(file);
    for (const importer of importers.get(file) ?? []) {
      if (!visited.has(importer) && follow(importer, file)) queue.push(importer);
    }
  }
}
