/**
 * The upgrade's type errors are those its original (v1) text did not have. The comparison swaps
 * the original text into the run's project; when ts-morph cannot do that swap ("node was removed
 * or forgotten", seen on real projects), the originals are checked in a project of their own, so
 * that the errors the upgrade writes still get their markers and report entries.
 */
import { describe, expect, it } from 'vitest';
import { Project, ts, type SourceFile } from 'ts-morph';
import { identityLineMap } from '../src/engine/line-map.js';
import { splitSource } from '../src/engine/source-text.js';
import type { LoadedFile } from '../src/run/state.js';
import { upgradeTypeErrors } from '../src/run/verify.js';

const ORIGINAL = 'export function count(items: string[]): number {\n  return items.length;\n}\n';
// what an upgrade could leave: one new error, on line 2
const UPGRADED = 'export function count(items: string[]): number {\n  return items.size;\n}\n';
const COMPILER_OPTIONS = { target: ts.ScriptTarget.ES2022, strict: true, noEmit: true, lib: ['lib.es2022.d.ts'] };

function upgradedFile(): { project: Project; file: LoadedFile } {
  const project = new Project({ useInMemoryFileSystem: true, compilerOptions: COMPILER_OPTIONS });
  const sourceFile = project.createSourceFile('/repo/src/count.ts', UPGRADED);
  const file: LoadedFile = { path: '/repo/src/count.ts', original: ORIGINAL, source: splitSource(ORIGINAL), sourceFile, upgraded: true, lineMap: identityLineMap(), notes: [] };
  return { project, file };
}

/** The first swap to the original text throws as ts-morph does when it cannot re-resolve imports. */
function failFirstSwap(sf: SourceFile, original = ORIGINAL): void {
  const replace = sf.replaceWithText.bind(sf);
  let failed = false;
  sf.replaceWithText = ((text: string) => {
    if (!failed && text === original) {
      failed = true;
      throw new Error('Attempted to get information from a node that was removed or forgotten.');
    }
    return replace(text);
  }) as SourceFile['replaceWithText'];
}

describe('upgradeTypeErrors', () => {
  it('reports the error the upgraded text adds, by line, with the compiler message', () => {
    const { file } = upgradedFile();
    const errors = upgradeTypeErrors([file]);
    expect(errors.get(file.path)?.map((e) => [e.line, e.message])).toEqual([[2, "TS2339: Property 'size' does not exist on type 'string[]'."]]);
    expect(file.sourceFile.getFullText()).toBe(UPGRADED);
  });

  it('when the swap to the original text fails, compares in a project of its own and still reports the error', () => {
    const { project, file } = upgradedFile();
    failFirstSwap(file.sourceFile);
    const errors = upgradeTypeErrors([file], () => new Project({ fileSystem: project.getFileSystem(), compilerOptions: COMPILER_OPTIONS }));
    expect(errors.get(file.path)?.map((e) => [e.line, e.message])).toEqual([[2, "TS2339: Property 'size' does not exist on type 'string[]'."]]);
    expect(file.notes).toEqual([]);
    expect(file.sourceFile.getFullText()).toBe(UPGRADED);
  });

  it('an error the original had too is not the upgrade’s, in the project of its own as in the run’s', () => {
    const { project, file } = upgradedFile();
    // the original already had the error (the upgrade changed only a comment)
    const original = `// counts the items\n${UPGRADED}`;
    file.source = splitSource(original);
    failFirstSwap(file.sourceFile, original);
    const errors = upgradeTypeErrors([file], () => new Project({ fileSystem: project.getFileSystem(), compilerOptions: COMPILER_OPTIONS }));
    expect(errors.size).toBe(0);
    expect(file.notes).toEqual([]);
    expect(file.sourceFile.getFullText()).toBe(UPGRADED);
  });

  it('an error one file gets from another file’s upgrade is the upgrade’s: every upgraded file is compared at its original text', () => {
    const project = new Project({ useInMemoryFileSystem: true, compilerOptions: COMPILER_OPTIONS });
    const loaded = (filePath: string, original: string, upgraded: string): LoadedFile => ({
      path: filePath,
      original,
      source: splitSource(original),
      sourceFile: project.createSourceFile(filePath, upgraded),
      upgraded: true,
      lineMap: identityLineMap(),
      notes: [],
    });
    // the helper's upgrade changes what it returns and compiles; its importer's own upgrade changes only a comment
    const helper = loaded('/repo/src/width.ts', 'export function width(): number {\n  return 1;\n}\n', "export function width(): string {\n  return '1';\n}\n");
    const user = loaded('/repo/src/frame.ts', "// frames\nimport { width } from './width.js';\nexport const doubled: number = width() * 2;\n", "// frames (v2)\nimport { width } from './width.js';\nexport const doubled: number = width() * 2;\n");
    const errors = upgradeTypeErrors([helper, user]);
    expect([...errors.keys()]).toEqual(['/repo/src/frame.ts']);
    expect(errors.get('/repo/src/frame.ts')?.map((e) => [e.line, e.key.slice(0, 7)])).toEqual([[3, 'TS2362:']]);
    expect(helper.sourceFile.getFullText()).toContain('string');
  });
});
