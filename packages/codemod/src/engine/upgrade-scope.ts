/**
 * Which files keep the official v1-to-v2 upgrade. The upgrade runs on every v1 file before the
 * sites are found (the rewrite emits v2 code), but a file the run then migrated nothing in does not
 * need the v2 API, and upgrading it anyway breaks projects that compiled: stricter v2 handler
 * return types, a `Server` type that no longer matches the v1 one a test still builds, renamed
 * methods. Such a file goes back to its v1 text, and the v1 SDK stays installed for it
 * (package-json.ts keeps it while any file imports it).
 *
 * Files are decided per import component: a file the run changed (a migrated handler, a hosting
 * rewrite) keeps the upgrade of every file it is connected to by imports, so that no server, context
 * or result type crosses between a v1 and a v2 file.
 */
import { Node, type SourceFile } from 'ts-morph';
import { relativeImports } from './prefilter.js';
import { UnionFind } from './union-find.js';

export interface UpgradeScopeFile {
  path: string;
  sourceFile: SourceFile;
  /** The file's text before the upgrade (its imports are the edges). */
  v1Text: string;
  upgraded: boolean;
  /** A stage after the upgrade changed the file (and verify kept the change). */
  changedByRun: boolean;
}

/**
 * Upgraded files that no file of their import component needs on v2, and every upgraded file of
 * `heldOnV1` (run/v1-hold-back.ts). A held file is in no component: nothing of the SDK crosses an
 * import between it and a file outside the held ones (the hold-back holds every file it shares
 * SDK objects with), so it connects no two other files.
 */
export function unneededUpgrades(files: readonly UpgradeScopeFile[], heldOnV1: ReadonlySet<string> = new Set()): Set<string> {
  const components = importComponents(files.filter((f) => !heldOnV1.has(f.path)));
  const needed = new Set(files.filter((f) => f.changedByRun && !heldOnV1.has(f.path)).map((f) => components.find(f.path)));
  return new Set(files.filter((f) => f.upgraded && (heldOnV1.has(f.path) || !needed.has(components.find(f.path)))).map((f) => f.path));
}

/** The files connected by imports (either way): no server, context or result type crosses between two of them on different SDK majors. */
export function importComponents(files: ReadonlyArray<Pick<UpgradeScopeFile, 'path' | 'sourceFile' | 'v1Text'>>): UnionFind {
  const known = new Set(files.map((f) => f.path));
  const components = new UnionFind();
  for (const file of files) {
    components.add(file.path);
    for (const target of importedFiles(file, known)) components.union(file.path, target);
  }
  return components;
}

/** Project files a file imports: relative specifiers, and what the compiler resolved (path aliases). */
export function importedFiles(file: Pick<UpgradeScopeFile, 'path' | 'sourceFile' | 'v1Text'>, known: Set<string>): string[] {
  const out = relativeImports(file.path, file.v1Text, known);
  for (const decl of [...file.sourceFile.getImportDeclarations(), ...file.sourceFile.getExportDeclarations()]) {
    const target = decl.getModuleSpecifierSourceFile()?.getFilePath() as string | undefined;
    if (target && known.has(target)) out.push(target);
  }
  return out;
}

/**
 * A node on `line` (1-based) of the file's current text, at `column` when that is inside the line,
 * else at the line's first code: where a marker for a finding made on another text of the file goes.
 */
export function nodeOnLine(sourceFile: SourceFile, line: number, column: number): Node {
  const text = sourceFile.getFullText();
  const starts = sourceFile.compilerNode.getLineStarts();
  const start = starts[Math.min(Math.max(line - 1, 0), starts.length - 1)]!;
  const end = text.indexOf('\n', start) < 0 ? text.length : text.indexOf('\n', start);
  const firstCode = start + (/^[ \t]*/.exec(text.slice(start, end))![0].length);
  const at = start + column - 1;
  const pos = at >= firstCode && at < end && /\S/.test(text[at]!) ? at : firstCode;
  const node = sourceFile.getDescendantAtPos(pos);
  return node && !Node.isSourceFile(node) ? node : sourceFile;
}
