/**
 * The packages of a monorepo's workspaces (npm/yarn `workspaces`, `pnpm-workspace.yaml`,
 * `lerna.json`), each resolved to its own source. A workspace package is the project's own code:
 * one plugin's tool calls a function another package exports by its package name
 * (`import { explain } from '@acme/plugin-a'`). TypeScript resolves that name through the
 * node_modules symlink to the package's declared entry (`./dist/index.d.ts`), which is missing
 * before a build and holds declarations only after one: the call would reach nothing. Here the
 * entry the manifest declares is mapped back to the source it is built from (the package's
 * tsconfig `outDir` -> `rootDir`, else a `dist`/`build`/`out` folder -> `src`, and the output
 * extension to the source one), so module resolution and the pre-filter's import graph both land
 * on the file the run analyses.
 */
import fs from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import { ts } from 'ts-morph';

interface Manifest {
  name?: unknown;
  exports?: unknown;
  types?: unknown;
  typings?: unknown;
  module?: unknown;
  main?: unknown;
  workspaces?: unknown;
}

export interface WorkspacePackage {
  name: string;
  /** Absolute directory of the package (where its package.json is). */
  dir: string;
  manifest: Manifest;
}

/** Folders a build writes into; a declared entry under one of them is output, not source. */
const OUTPUT_FOLDERS = new Set(['dist', 'build', 'out', 'lib', 'esm', 'cjs']);
const NEVER_ENTERED = new Set(['node_modules', '.git']);
/** Output extension -> the source extensions it is compiled from. */
const SOURCE_EXTENSIONS: ReadonlyArray<[RegExp, string[]]> = [
  [/\.d\.ts$/, ['.ts', '.tsx']],
  [/\.d\.mts$/, ['.mts']],
  [/\.d\.cts$/, ['.cts']],
  [/\.js$/, ['.ts', '.tsx']],
  [/\.jsx$/, ['.tsx']],
  [/\.mjs$/, ['.mts']],
  [/\.cjs$/, ['.cts']],
  [/\.(?:ts|tsx|mts|cts)$/, []],
];

export class WorkspacePackages {
  private readonly byName: WorkspacePackage[];
  private readonly cache = new Map<string, string | undefined>();

  constructor(readonly root: string | undefined, packages: WorkspacePackage[]) {
    // longest name first: `@a/b-c` before `@a/b` for `@a/b-c/x`
    this.byName = [...packages].sort((x, y) => y.name.length - x.name.length);
  }

  get packages(): readonly WorkspacePackage[] {
    return this.byName;
  }

  /** The workspaces of the monorepo `start` is in (none when it is in no monorepo). */
  static find(start: string): WorkspacePackages {
    const root = workspaceRoot(path.resolve(start));
    if (!root) return new WorkspacePackages(undefined, []);
    return new WorkspacePackages(root.dir, packagesOf(root.dir, root.patterns));
  }

  /** The source file a bare `specifier` naming a workspace package (or a subpath of one) is built from. */
  sourceOf(specifier: string): string | undefined {
    if (this.byName.length === 0 || specifier.startsWith('.') || path.isAbsolute(specifier)) return undefined;
    if (this.cache.has(specifier)) return this.cache.get(specifier);
    const pkg = this.byName.find((p) => specifier === p.name || specifier.startsWith(`${p.name}/`));
    const source = pkg ? sourceOfPackage(pkg, specifier === pkg.name ? '.' : `./${specifier.slice(pkg.name.length + 1)}`) : undefined;
    this.cache.set(specifier, source);
    return source;
  }

  /** `sourceOf` as a resolved module for TypeScript's module resolution. */
  resolve(specifier: string): ts.ResolvedModuleFull | undefined {
    const file = this.sourceOf(specifier);
    return file ? { resolvedFileName: file.replace(/\\/g, '/'), extension: extensionOf(file), isExternalLibraryImport: false } : undefined;
  }
}

function readJson(file: string): Manifest | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/** The nearest directory upwards declaring workspaces, with its patterns (the walk stops at a git root). */
function workspaceRoot(start: string): { dir: string; patterns: string[] } | undefined {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const patterns = workspacePatterns(dir);
    if (patterns && patterns.length > 0) return { dir, patterns };
    if (fs.existsSync(path.join(dir, '.git')) || path.dirname(dir) === dir) return undefined;
  }
}

function workspacePatterns(dir: string): string[] | undefined {
  const manifest = readJson(path.join(dir, 'package.json'));
  const declared = manifest?.workspaces;
  const list = Array.isArray(declared) ? declared : (declared as { packages?: unknown } | undefined)?.packages;
  if (Array.isArray(list)) return list.filter((p): p is string => typeof p === 'string');
  const pnpm = path.join(dir, 'pnpm-workspace.yaml');
  if (fs.existsSync(pnpm)) return pnpmPatterns(fs.readFileSync(pnpm, 'utf8'));
  const lerna = readJson(path.join(dir, 'lerna.json')) as { packages?: unknown } | undefined;
  if (Array.isArray(lerna?.packages)) return lerna.packages.filter((p): p is string => typeof p === 'string');
  return undefined;
}

/** The `packages:` list of a pnpm-workspace.yaml (block or flow sequence of strings). */
export function pnpmPatterns(text: string): string[] {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => /^packages\s*:/.test(l));
  if (start < 0) return [];
  const unquote = (s: string) => s.trim().replace(/^(['"])(.*)\1$/, '$2');
  const flow = /^packages\s*:\s*\[(.*)\]/.exec(lines[start]!);
  if (flow) return flow[1]!.split(',').map(unquote).filter(Boolean);
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const item = /^\s*-\s*(.+?)\s*(?:#.*)?$/.exec(line);
    if (item) out.push(unquote(item[1]!));
  }
  return out;
}

/** Every directory with a named package.json that the patterns select (negated patterns exclude). */
function packagesOf(root: string, patterns: string[]): WorkspacePackage[] {
  const excluded = ignore().add(patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1)));
  const dirs = new Set<string>();
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) continue;
    const segments = pattern.replace(/^\.\//, '').split('/').filter((s) => s !== '' && s !== '.');
    for (const dir of expand(root, segments, 0)) dirs.add(dir);
  }
  const out: WorkspacePackage[] = [];
  for (const dir of [...dirs].sort()) {
    const rel = path.relative(root, dir).replace(/\\/g, '/');
    if (rel && excluded.ignores(rel)) continue;
    const manifest = readJson(path.join(dir, 'package.json'));
    if (manifest && typeof manifest.name === 'string' && manifest.name !== '') out.push({ name: manifest.name, dir, manifest });
  }
  return out;
}

function expand(dir: string, segments: string[], depth: number): string[] {
  if (segments.length === 0) return [dir];
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '**') {
    if (depth > 6) return [];
    return [...expand(dir, rest, depth), ...subdirectories(dir).flatMap((sub) => expand(sub, segments, depth + 1))];
  }
  if (!head.includes('*')) {
    const next = path.join(dir, head);
    return fs.existsSync(next) ? expand(next, rest, depth) : [];
  }
  const matcher = new RegExp(`^${head.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);
  return subdirectories(dir)
    .filter((sub) => matcher.test(path.basename(sub)))
    .flatMap((sub) => expand(sub, rest, depth));
}

function subdirectories(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !NEVER_ENTERED.has(e.name) && !e.name.startsWith('.'))
      .map((e) => path.join(dir, e.name));
  } catch {
    return [];
  }
}

/** The source of `subpath` ('.' or './x') of a workspace package: its declared entries mapped back to source. */
function sourceOfPackage(pkg: WorkspacePackage, subpath: string): string | undefined {
  const declared = declaredTargets(pkg.manifest, subpath);
  const fallbacks = subpath === '.' ? ['./src/index', './index'] : [subpath, `./src/${subpath.slice(2)}`];
  const outputToSource = outputFolderMapping(pkg.dir);
  for (const target of [...declared, ...fallbacks]) {
    const found = sourceFor(pkg.dir, target, outputToSource);
    if (found) return found;
  }
  return undefined;
}

/** The entries the manifest declares for `subpath`: its `exports` conditions (types first), else types/module/main. */
function declaredTargets(manifest: Manifest, subpath: string): string[] {
  const { exports } = manifest;
  let entry: unknown;
  if (typeof exports === 'string' || Array.isArray(exports)) entry = subpath === '.' ? exports : undefined;
  else if (exports && typeof exports === 'object') {
    const keys = Object.keys(exports);
    const bySubpath = keys.some((k) => k.startsWith('.'));
    entry = bySubpath ? (exports as Record<string, unknown>)[subpath] : subpath === '.' ? exports : undefined;
  }
  const fromExports = stringLeaves(entry);
  if (fromExports.length > 0 || subpath !== '.') return fromExports;
  return [manifest.types, manifest.typings, manifest.module, manifest.main].filter((v): v is string => typeof v === 'string');
}

/** The string targets of an exports entry, `types` conditions first. */
function stringLeaves(entry: unknown): string[] {
  if (typeof entry === 'string') return [entry];
  if (Array.isArray(entry)) return entry.flatMap(stringLeaves);
  if (!entry || typeof entry !== 'object') return [];
  const record = entry as Record<string, unknown>;
  const keys = Object.keys(record).sort((a, b) => Number(b === 'types') - Number(a === 'types'));
  return keys.flatMap((k) => stringLeaves(record[k]));
}

/** The package tsconfig's outDir -> rootDir (both relative to the package), when it declares them. */
function outputFolderMapping(dir: string): { outDir: string; rootDir: string } | undefined {
  for (const name of ['tsconfig.json', 'tsconfig.build.json']) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) continue;
    try {
      const read = ts.readConfigFile(file, (f) => ts.sys.readFile(f));
      const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dir, undefined, file);
      const { outDir, rootDir } = parsed.options;
      if (outDir) return { outDir: path.relative(dir, outDir), rootDir: rootDir ? path.relative(dir, rootDir) : '' };
    } catch {
      // an unreadable tsconfig: the folder heuristics below still apply
    }
  }
  return undefined;
}

/** The existing source file a declared `target` (./dist/index.d.ts, ./src/index.ts, ./lib) is built from. */
function sourceFor(dir: string, target: string, mapping: { outDir: string; rootDir: string } | undefined): string | undefined {
  const rel = path.normalize(target.replace(/^\.\//, ''));
  if (rel.startsWith('..') || path.isAbsolute(rel) || rel.includes('*')) return undefined;
  const rule = SOURCE_EXTENSIONS.find(([pattern]) => pattern.test(rel));
  const stem = rule ? rel.replace(rule[0], '') : rel;
  const extensions = rule ? (rule[1].length > 0 ? rule[1] : [rel.slice(stem.length)]) : ['.ts', '.tsx', '.mts', `${path.sep}index.ts`, `${path.sep}index.tsx`];
  const stems = new Set<string>();
  if (mapping && (stem === mapping.outDir || stem.startsWith(mapping.outDir + path.sep))) stems.add(path.join(mapping.rootDir, path.relative(mapping.outDir, stem)));
  stems.add(stem);
  const parts = stem.split(path.sep);
  let lead = 0;
  while (lead < parts.length - 1 && OUTPUT_FOLDERS.has(parts[lead]!)) lead++;
  if (lead > 0) {
    stems.add(path.join('src', ...parts.slice(lead)));
    stems.add(path.join(...parts.slice(lead)));
  }
  for (const s of stems) {
    for (const ext of extensions) {
      const file = path.join(dir, s + ext);
      if (isFile(file) && !/\.d\.[cm]?ts$/.test(file)) return file;
    }
  }
  // a plain-JS package declares its source itself (outside a build folder)
  const asDeclared = path.join(dir, rel);
  const built = rel.split(path.sep).some((p) => p === 'dist' || p === 'build' || p === 'out');
  return /\.(?:[cm]?js|jsx)$/.test(rel) && !built && isFile(asDeclared) ? asDeclared : undefined;
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function extensionOf(file: string): ts.Extension {
  const ext = path.extname(file);
  const table: Record<string, ts.Extension> = {
    '.ts': ts.Extension.Ts,
    '.tsx': ts.Extension.Tsx,
    '.mts': ts.Extension.Mts,
    '.cts': ts.Extension.Cts,
    '.js': ts.Extension.Js,
    '.jsx': ts.Extension.Jsx,
    '.mjs': ts.Extension.Mjs,
    '.cjs': ts.Extension.Cjs,
  };
  return table[ext] ?? ts.Extension.Ts;
}
