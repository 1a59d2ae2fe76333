/**
 * Resolution work shared where its answers cannot differ: a run's programs get one TypeScript
 * module resolution cache (engine/resolution-cache.ts: package.json files read once a run, not
 * once a program), and the imports made inside installed packages are handed from one run to the
 * next through `LibraryFiles.resolutions` (engine/dependency-resolutions.ts), except those whose
 * answer asks the project. These fail when the sharing stops happening (another ts-morph).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ts } from 'ts-morph';
import { afterAll, describe, expect, it } from 'vitest';
import { DependencyResolutions, type SharedResolutions } from '../src/engine/dependency-resolutions.js';
import { LibraryFiles } from '../src/engine/library-files.js';
import { ProjectFiles } from '../src/engine/project-files.js';
import { scriptKindOf } from '../src/engine/script-kind.js';
import { createProject } from '../src/run/load.js';
import { REPO } from './temp-project.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const RESOLVED: ts.ResolvedModuleFull = { resolvedFileName: '/repo/node_modules/b/index.d.ts', extension: ts.Extension.Dts, isExternalLibraryImport: true };
const OPTIONS: ts.CompilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };

describe('dependency resolutions handed between runs', () => {
  it('a module found under node_modules is resolved once for two runs with the same settings', () => {
    const shared: SharedResolutions = new Map();
    let resolutions = 0;
    const resolve = () => (resolutions++, RESOLVED);
    expect(new DependencyResolutions(shared).get('/repo/node_modules/a/index.d.ts', 'b', OPTIONS, false, resolve)).toBe(RESOLVED);
    expect(new DependencyResolutions(shared).get('/repo/node_modules/a/index.d.ts', 'b', { ...OPTIONS }, false, resolve)).toBe(RESOLVED);
    expect(resolutions).toBe(1);
  });

  it('not handed on: other resolution settings, an answer that asks the project, no answer', () => {
    const shared: SharedResolutions = new Map();
    let resolutions = 0;
    const resolve = () => (resolutions++, RESOLVED);
    new DependencyResolutions(shared).get('/repo/node_modules/a/index.d.ts', 'b', OPTIONS, false, resolve);
    new DependencyResolutions(shared).get('/repo/node_modules/a/index.d.ts', 'b', { ...OPTIONS, customConditions: ['worker'] }, false, resolve);
    expect(resolutions).toBe(2);
    new DependencyResolutions(shared).get('/repo/node_modules/a/index.d.ts', 'zod', OPTIONS, true, resolve);
    new DependencyResolutions(shared).get('/repo/node_modules/a/index.d.ts', 'zod', OPTIONS, true, resolve);
    expect(resolutions).toBe(4);
    new DependencyResolutions(shared).get('/repo/node_modules/a/index.d.ts', 'c', OPTIONS, false, () => undefined);
    expect(new DependencyResolutions(shared).get('/repo/node_modules/a/index.d.ts', 'c', OPTIONS, false, resolve)).toBe(RESOLVED);
  });
});

describe("a run's programs", () => {
  it("get the run's module resolution cache, and the next program the same one", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-resolution-sharing-'));
    dirs.push(dir);
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'resolution-sharing', private: true, type: 'module' }));
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true } }));
    const file = path.join(dir, 'main.ts');
    const text = "import { z } from 'zod';\nexport const n: number = z.number().parse(1);\n";
    fs.writeFileSync(file, text);
    const files = new ProjectFiles();
    const project = createProject(path.join(dir, 'tsconfig.json'), files.host, new Set([file]), new LibraryFiles(), undefined);
    const source = files.addSourceFile(project, file, text, scriptKindOf(file));
    const cacheOf = () => (project.getProgram().compilerObject as ts.Program & { getModuleResolutionCache?(): ts.ModuleResolutionCache | undefined }).getModuleResolutionCache?.();
    const first = cacheOf();
    expect(first).toBeDefined();
    // zod's declarations resolved through the cached package.json files
    expect(source.getPreEmitDiagnostics().map((d) => d.getMessageText())).toEqual([]);
    source.addStatements('export const m = n + 1;');
    expect(cacheOf()).toBe(first);
  });
});
