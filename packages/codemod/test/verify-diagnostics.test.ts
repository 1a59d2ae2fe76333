/**
 * What verify and the upgrade's error check count as a file's errors: its own text's, not the
 * program's diagnostics about how files came into it (a monorepo root tsconfig whose rootDir or
 * file list does not cover what a package file imports). Those say nothing about a change of the
 * text, and attributing them to the v1-to-v2 upgrade is a false flag.
 */
import { describe, expect, it } from 'vitest';
import { Project, ts } from 'ts-morph';
import { fileDiagnostics } from '../src/run/verify.js';

function project(compilerOptions: ts.CompilerOptions): Project {
  return new Project({ useInMemoryFileSystem: true, compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, strict: true, noEmit: true, ...compilerOptions } });
}

const codes = (diagnostics: ts.Diagnostic[]) => diagnostics.map((d) => d.code).sort();

describe('fileDiagnostics', () => {
  it("leaves out a file-inclusion diagnostic of the program (TS6059, a file outside rootDir) and keeps the file's own type error", () => {
    const p = project({ rootDir: '/repo/packages/core/src', outDir: '/repo/dist' });
    p.createSourceFile('/repo/packages/shared/names.ts', "export const name = 'notes';\n");
    const sf = p.createSourceFile('/repo/packages/core/src/index.ts', "import { name } from '../../shared/names';\nexport const count: number = name;\n");
    // the premise: the program does report the inclusion diagnostic on this file
    expect(codes([...p.getProgram().compilerObject.getSemanticDiagnostics(sf.compilerNode)])).toEqual([2322, 6059]);
    expect(codes(fileDiagnostics(sf))).toEqual([2322]);
  });

  it('leaves out TS6307 of a composite project whose file list misses an imported file', () => {
    const p = project({ composite: true, noEmit: false, outDir: '/repo/dist', rootDir: '/repo' });
    p.getFileSystem().writeFileSync('/repo/src/util.ts', 'export const one = 1;\n');
    const sf = p.createSourceFile('/repo/src/index.ts', "import { one } from './util';\nexport const two: string = one + 1;\n");
    expect(codes([...p.getProgram().compilerObject.getSemanticDiagnostics(sf.compilerNode)])).toContain(6307);
    expect(codes(fileDiagnostics(sf))).toEqual([2322]);
  });

  it('honours @ts-expect-error and @ts-ignore as the compiler does', () => {
    const p = project({});
    const sf = p.createSourceFile('/repo/src/a.ts', "// @ts-expect-error a string is not a number\nexport const a: number = 'x';\n// @ts-ignore\nexport const b: number = 'y';\nexport const c: number = 'z';\n");
    expect(fileDiagnostics(sf).map((d) => sf.getLineAndColumnAtPos(d.start!).line)).toEqual([5]);
  });
});
