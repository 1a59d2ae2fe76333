/**
 * A file's diagnostics are reused from the project's previous program when no file its checking
 * can read changed (run/reused-diagnostics.ts), and computed afresh when one did: an imported file,
 * one imported through it, a global declaration (and a module a global's type names), a file that
 * now resolves an import that did not resolve, an imported file removed.
 */
import { describe, expect, it, vi } from 'vitest';
import { Project, ts, type SourceFile } from 'ts-morph';
import { fileDiagnostics } from '../src/run/verify.js';

function project(): Project {
  return new Project({ useInMemoryFileSystem: true, compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, noEmit: true } });
}

const codes = (sf: SourceFile) => fileDiagnostics(sf).map((d) => d.code);

/** Whether the file's diagnostics in the project's current program are checked (not reused), and what they are. */
function checkedNow(sf: SourceFile): { checked: boolean; codes: number[] } {
  const program = sf.getProject().getProgram().compilerObject as ts.Program & { getBindAndCheckDiagnostics(file: ts.SourceFile): readonly ts.Diagnostic[] };
  const check = vi.spyOn(program, 'getBindAndCheckDiagnostics');
  const found = codes(sf);
  const checked = check.mock.calls.some(([file]) => file.fileName === sf.getFilePath());
  check.mockRestore();
  return { checked, codes: found };
}

describe('reused diagnostics', () => {
  it("reuses a file's diagnostics after an edit of a file it does not reach, the same as before", () => {
    const p = project();
    p.createSourceFile('/src/b.ts', 'export const n: number = 1;\n');
    const other = p.createSourceFile('/src/other.ts', 'export const o = 1;\n');
    const a = p.createSourceFile('/src/a.ts', "import { n } from './b';\nexport const s: string = n;\n");
    expect(codes(a)).toEqual([2322]);
    other.replaceWithText('export const o = 2;\n');
    expect(checkedNow(a)).toEqual({ checked: false, codes: [2322] });
  });

  it('checks again when an imported file changed, or one imported through it', () => {
    const p = project();
    const c = p.createSourceFile('/src/c.ts', 'export const n: number = 1;\n');
    const b = p.createSourceFile('/src/b.ts', "export { n } from './c';\nexport const m: number = 1;\n");
    const a = p.createSourceFile('/src/a.ts', "import { n, m } from './b';\nexport const s: string = n;\nexport const t: string = m;\n");
    expect(codes(a)).toEqual([2322, 2322]);
    c.replaceWithText("export const n: string = 'x';\n");
    expect(checkedNow(a)).toEqual({ checked: true, codes: [2322] });
    b.replaceWithText("export { n } from './c';\nexport const m: string = 'y';\n");
    expect(checkedNow(a)).toEqual({ checked: true, codes: [] });
  });

  it('checks again when a global declaration changed: a script, a declare global, a module a global type names', () => {
    const p = project();
    const script = p.createSourceFile('/src/globals.d.ts', 'declare var g: number;\n');
    const augmenting = p.createSourceFile('/src/augment.ts', 'export {};\ndeclare global {\n  var h: number;\n}\n');
    const named = p.createSourceFile('/src/named.ts', 'export type T = number;\n');
    p.createSourceFile('/src/typed-global.d.ts', "declare var k: import('./named').T;\n");
    const a = p.createSourceFile('/src/a.ts', 'export const s: string = g;\nexport const t: string = h;\nexport const u: string = k;\n');
    expect(codes(a)).toEqual([2322, 2322, 2322]);
    script.replaceWithText('declare var g: string;\n');
    expect(checkedNow(a)).toEqual({ checked: true, codes: [2322, 2322] });
    augmenting.replaceWithText('export {};\ndeclare global {\n  var h: string;\n}\n');
    expect(checkedNow(a)).toEqual({ checked: true, codes: [2322] });
    named.replaceWithText('export type T = string;\n');
    expect(checkedNow(a)).toEqual({ checked: true, codes: [] });
  });

  it('checks again when an import that did not resolve now does, and when an imported file is removed', () => {
    const p = project();
    const a = p.createSourceFile('/src/a.ts', "import { n } from './later';\nexport const s: string = n;\n");
    expect(codes(a)).toEqual([2307]);
    const later = p.createSourceFile('/src/later.ts', "export const n = 'x';\n");
    expect(checkedNow(a)).toEqual({ checked: true, codes: [] });
    p.removeSourceFile(later);
    expect(checkedNow(a)).toEqual({ checked: true, codes: [2307] });
  });
});
