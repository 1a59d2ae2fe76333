/**
 * Parsed declaration files shared between ts-morph projects (engine/library-files.ts): two projects
 * given one `LibraryFiles` get the same parsed lib and package declaration files, type-check as
 * each would alone, and never share the projects' own files, nor a declaration file whose text
 * differs from the one parsed. A cache made from another (`new LibraryFiles(parsed)`) shares its
 * parsed files but keeps resolutions of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Project, ts } from 'ts-morph';
import { afterAll, describe, expect, it } from 'vitest';
import { LibraryFiles } from '../src/engine/library-files.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A temp project: node_modules/shapes (a package with a declaration file) and src/main.ts using it. */
function packageProject(declaration: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-library-files-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'node_modules/shapes'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'node_modules/shapes/package.json'), JSON.stringify({ name: 'shapes', version: '1.0.0', types: 'index.d.ts' }));
  fs.writeFileSync(path.join(dir, 'node_modules/shapes/index.d.ts'), declaration);
  return dir;
}

function projectIn(dir: string, library: LibraryFiles): Project {
  const project = new Project({ compilerOptions: { target: ts.ScriptTarget.ES2022, strict: true, skipLibCheck: true, noEmit: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler } });
  expect(library.share(project)).toBe(true);
  project.createSourceFile(path.join(dir, 'src/main.ts'), `import { area } from 'shapes';\nexport const a: number = area(2);\nexport const n = [1, 2].includes(3);\n`);
  return project;
}

function messages(project: Project): string[] {
  return project.getPreEmitDiagnostics().map((d) => ts.flattenDiagnosticMessageText(d.compilerObject.messageText, ' '));
}

function compilerFile(project: Project, suffix: string): ts.SourceFile {
  const file = project.getProgram().compilerObject.getSourceFiles().find((f) => f.fileName.endsWith(suffix));
  if (!file) throw new Error(`no ${suffix} in the program`);
  return file;
}

describe('LibraryFiles', () => {
  it('two projects get the same parsed lib and package declaration files, not each other\'s own files', () => {
    const library = new LibraryFiles();
    const dir = packageProject('export declare function area(side: number): number;\n');
    const first = projectIn(dir, library);
    const second = projectIn(dir, library);
    expect(compilerFile(second, '/lib.es5.d.ts')).toBe(compilerFile(first, '/lib.es5.d.ts'));
    expect(compilerFile(second, '/shapes/index.d.ts')).toBe(compilerFile(first, '/shapes/index.d.ts'));
    expect(compilerFile(second, '/src/main.ts')).not.toBe(compilerFile(first, '/src/main.ts'));
    expect(library.reused).toBeGreaterThan(0);
    // each type-checks as it would alone
    for (const project of [first, second]) expect(messages(project)).toEqual([]);
  });

  it('a declaration file whose text changed is parsed again', () => {
    const library = new LibraryFiles();
    const before = projectIn(packageProject('export declare function area(side: number): number;\n'), library);
    const dir = packageProject('export declare function area(side: number): string;\n');
    const after = projectIn(dir, library);
    const afterFile = compilerFile(after, '/shapes/index.d.ts');
    // another path, so another entry; and on the same path a changed text is not taken from the cache
    fs.writeFileSync(path.join(dir, 'node_modules/shapes/index.d.ts'), 'export declare function area(side: string): number;\n');
    const changed = projectIn(dir, library);
    expect(compilerFile(changed, '/shapes/index.d.ts')).not.toBe(afterFile);
    expect(compilerFile(changed, '/shapes/index.d.ts').text).toContain('side: string');
    expect(messages(before)).toEqual([]);
    expect(messages(after)).toEqual([expect.stringContaining("'string' is not assignable to type 'number'")]);
    expect(messages(changed)).toEqual([expect.stringContaining("'number' is not assignable to parameter of type 'string'")]);
  });

  it('a cache made from another shares its parsed files, not its resolutions', () => {
    const parsed = new LibraryFiles();
    const dir = packageProject('export declare function area(side: number): number;\n');
    const first = projectIn(dir, parsed);
    // the first project's program parses them into `parsed`
    const lib = compilerFile(first, '/lib.es5.d.ts');
    const shapes = compilerFile(first, '/shapes/index.d.ts');
    const library = new LibraryFiles(parsed);
    const second = projectIn(dir, library);
    expect(compilerFile(second, '/lib.es5.d.ts')).toBe(lib);
    expect(compilerFile(second, '/shapes/index.d.ts')).toBe(shapes);
    expect(library.reused).toBeGreaterThan(0);
    expect(library.resolutions).not.toBe(parsed.resolutions);
    expect(messages(second)).toEqual([]);
  });

  it('projects whose settings parse differently do not share', () => {
    const library = new LibraryFiles();
    const dir = packageProject('export declare function area(side: number): number;\n');
    const es2022 = projectIn(dir, library);
    const es5 = new Project({ compilerOptions: { target: ts.ScriptTarget.ES5, lib: ['lib.es2016.d.ts'], noEmit: true } });
    library.share(es5);
    es5.createSourceFile(path.join(dir, 'src/main.ts'), 'export const n = [1].includes(1);\n');
    expect(compilerFile(es5, '/lib.es5.d.ts')).not.toBe(compilerFile(es2022, '/lib.es5.d.ts'));
  });
});
