/**
 * File discovery: which source files a run looks at.
 *
 * - extensions: .ts .tsx .mts .cts .js .jsx .mjs .cjs (declaration files `.d.ts`/`.d.mts`/`.d.cts` skipped);
 * - `.gitignore` files are honoured (every `.gitignore` from the git root, or `cwd` outside git, down to the
 *   file, plus `.git/info/exclude`), with gitignore semantics from the `ignore` package;
 * - `node_modules`, `.git` and build output (dist, build, out, .next, coverage, ...) are never entered;
 * - `--ignore` globs are gitignore-style patterns relative to `cwd`;
 * - symlinks are never followed (reported as skipped), so link loops cannot hang a run.
 *
 * A file named explicitly on the command line is taken even when a `.gitignore` covers it (the user
 * asked for it), but `--ignore` globs and the declaration/extension rules still apply.
 */
import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

export const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'] as const;
const DECLARATION_FILE = /\.d\.(ts|mts|cts)$|\.d\.[^.]+\.ts$/;
/** Directory names never entered: dependencies, VCS data, build and coverage output. */
export const SKIPPED_DIRECTORIES: Readonly<Record<string, string>> = {
  node_modules: 'dependencies (node_modules)',
  '.git': 'git metadata',
  dist: 'build output',
  build: 'build output',
  out: 'build output',
  '.next': 'build output',
  '.nuxt': 'build output',
  '.svelte-kit': 'build output',
  '.turbo': 'build cache',
  '.cache': 'build cache',
  coverage: 'coverage output',
};

export type SkipKind =
  | 'missing'
  | 'symlink'
  | 'skipped-directory'
  | 'gitignored'
  | 'ignored'
  | 'declaration'
  | 'unsupported'
  | 'unreadable';

export interface SkippedEntry {
  /** Absolute path. */
  path: string;
  kind: SkipKind;
  reason: string;
}

export interface DiscoverOptions {
  /** Base for relative paths and `ignore` globs (default `process.cwd()`). */
  cwd?: string;
  /** Gitignore-style patterns, relative to `cwd`. */
  ignore?: string[];
  /** Honour `.gitignore` files (default true). */
  gitignore?: boolean;
}

export interface Discovery {
  /** Absolute paths of the source files to process, sorted, without duplicates. */
  files: string[];
  /** What was left out and why (directories are reported once, not their contents). */
  skipped: SkippedEntry[];
}

interface IgnoreScope {
  /** Directory the patterns are relative to. */
  dir: string;
  matcher: Ignore;
}

export function isSourceFile(file: string): boolean {
  return (SOURCE_EXTENSIONS as readonly string[]).includes(path.extname(file)) && !DECLARATION_FILE.test(file);
}

export function isDeclarationFile(file: string): boolean {
  return DECLARATION_FILE.test(path.basename(file));
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** The enclosing git work tree root (a directory holding `.git`), or undefined. */
export function findGitRoot(start: string): string | undefined {
  let dir = path.resolve(start);
  for (;;) {
    if (fs.existsSync(path.join(dir, '.git'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function readIgnoreFile(file: string): Ignore | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return ignore().add(text);
}

function matches(scope: IgnoreScope, absolute: string, isDirectory: boolean): boolean {
  const rel = path.relative(scope.dir, absolute);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
  return scope.matcher.ignores(toPosix(rel) + (isDirectory ? '/' : ''));
}

class Walker {
  readonly files = new Set<string>();
  readonly skipped: SkippedEntry[] = [];
  private readonly scopeCache = new Map<string, IgnoreScope | null>();
  private readonly userIgnore: Ignore | undefined;

  constructor(
    private readonly cwd: string,
    ignoreGlobs: string[],
    private readonly useGitignore: boolean,
  ) {
    this.userIgnore = ignoreGlobs.length > 0 ? ignore().add(ignoreGlobs) : undefined;
  }

  private scopeOf(dir: string): IgnoreScope | undefined {
    if (!this.scopeCache.has(dir)) {
      const matcher = readIgnoreFile(path.join(dir, '.gitignore'));
      this.scopeCache.set(dir, matcher ? { dir, matcher } : null);
    }
    return this.scopeCache.get(dir) ?? undefined;
  }

  /** The `.gitignore` scopes that apply to entries of `dir`: from the git root (or cwd) down to `dir`. */
  private scopesFor(dir: string): IgnoreScope[] {
    if (!this.useGitignore) return [];
    const root = findGitRoot(dir);
    const top = root ?? (isInside(this.cwd, dir) ? this.cwd : dir);
    const chain: string[] = [];
    for (let d = dir; ; d = path.dirname(d)) {
      chain.unshift(d);
      if (d === top || path.dirname(d) === d) break;
    }
    const scopes: IgnoreScope[] = [];
    if (root) {
      const exclude = readIgnoreFile(path.join(root, '.git', 'info', 'exclude'));
      if (exclude) scopes.push({ dir: root, matcher: exclude });
    }
    for (const d of chain) {
      const scope = this.scopeOf(d);
      if (scope) scopes.push(scope);
    }
    return scopes;
  }

  private userIgnored(absolute: string, isDirectory: boolean): boolean {
    if (!this.userIgnore) return false;
    return matches({ dir: this.cwd, matcher: this.userIgnore }, absolute, isDirectory);
  }

  private gitignored(absolute: string, isDirectory: boolean): boolean {
    // Later (deeper) files may re-include with `!pattern`; `ignore` handles negation within a file,
    // and a deeper file's verdict wins when it has one.
    let verdict = false;
    for (const scope of this.scopesFor(path.dirname(absolute))) {
      const rel = path.relative(scope.dir, absolute);
      if (rel === '' || rel.startsWith('..')) continue;
      const result = scope.matcher.test(toPosix(rel) + (isDirectory ? '/' : ''));
      if (result.ignored) verdict = true;
      else if (result.unignored) verdict = false;
    }
    return verdict;
  }

  private skip(entry: string, kind: SkipKind, reason: string): void {
    this.skipped.push({ path: entry, kind, reason });
  }

  /** A path named by the user. */
  visitRoot(absolute: string): void {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(absolute);
    } catch {
      this.skip(absolute, 'missing', 'does not exist');
      return;
    }
    if (stat.isSymbolicLink()) {
      this.skip(absolute, 'symlink', 'symbolic link (not followed)');
      return;
    }
    if (stat.isDirectory()) {
      if (this.userIgnored(absolute, true)) {
        this.skip(absolute, 'ignored', 'matches --ignore');
        return;
      }
      this.walkDirectory(absolute);
      return;
    }
    this.considerFile(absolute, stat, true);
  }

  private considerFile(absolute: string, stat: fs.Stats, explicit: boolean): void {
    if (!stat.isFile()) {
      if (explicit) this.skip(absolute, 'unsupported', 'not a regular file');
      return;
    }
    if (isDeclarationFile(absolute)) {
      this.skip(absolute, 'declaration', 'declaration file');
      return;
    }
    if (!(SOURCE_EXTENSIONS as readonly string[]).includes(path.extname(absolute))) {
      if (explicit) this.skip(absolute, 'unsupported', `not a JavaScript/TypeScript source (${SOURCE_EXTENSIONS.join(' ')})`);
      return;
    }
    if (this.userIgnored(absolute, false)) {
      this.skip(absolute, 'ignored', 'matches --ignore');
      return;
    }
    if (!explicit && this.gitignored(absolute, false)) {
      this.skip(absolute, 'gitignored', 'ignored by .gitignore');
      return;
    }
    this.files.add(absolute);
  }

  private walkDirectory(dir: string): void {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      this.skip(dir, 'unreadable', `cannot read directory: ${(error as Error).message}`);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const absolute = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        this.skip(absolute, 'symlink', 'symbolic link (not followed)');
        continue;
      }
      if (entry.isDirectory()) {
        const why = SKIPPED_DIRECTORIES[entry.name];
        if (why) {
          this.skip(absolute, 'skipped-directory', why);
          continue;
        }
        if (this.userIgnored(absolute, true)) {
          this.skip(absolute, 'ignored', 'matches --ignore');
          continue;
        }
        if (this.gitignored(absolute, true)) {
          this.skip(absolute, 'gitignored', 'ignored by .gitignore');
          continue;
        }
        this.walkDirectory(absolute);
        continue;
      }
      if (!entry.isFile()) continue;
      if (isDeclarationFile(entry.name)) {
        if ((SOURCE_EXTENSIONS as readonly string[]).includes(path.extname(entry.name))) {
          this.skip(absolute, 'declaration', 'declaration file');
        }
        continue;
      }
      if (!(SOURCE_EXTENSIONS as readonly string[]).includes(path.extname(entry.name))) continue;
      let stat: fs.Stats;
      try {
        stat = fs.lstatSync(absolute);
      } catch (error) {
        this.skip(absolute, 'unreadable', (error as Error).message);
        continue;
      }
      this.considerFile(absolute, stat, false);
    }
  }
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Finds the source files under `paths` (files or directories, relative to `cwd`).
 * Synchronous: discovery is I/O on directory entries only, and callers want a plain list.
 */
export function discoverFiles(paths: readonly string[], options: DiscoverOptions = {}): Discovery {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const walker = new Walker(cwd, options.ignore ?? [], options.gitignore ?? true);
  for (const p of paths) walker.visitRoot(path.resolve(cwd, p));
  return { files: [...walker.files].sort(), skipped: walker.skipped };
}
