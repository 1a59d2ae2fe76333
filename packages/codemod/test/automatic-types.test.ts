/**
 * The programs the engine typechecks with (the run's, verify's, the importers check's: all from
 * `createProject`) see the `@types` packages the project's own tsc loads without being told. A
 * tsconfig without `types` loads every package under the visible `node_modules/@types` folders with
 * TypeScript before 6, none with TypeScript 6 (the one ts-morph bundles) and later. Before
 * engine/automatic-types.ts, a test file using `process` or Node's `AbortController` (lib without
 * DOM) that the project's tsc 5 compiles got TS2591/TS2304 in the importers check, which took them
 * for errors of its test-mock rewrite and undid it. Each project installs `@types/node`, linked from
 * this repository's.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ts } from 'ts-morph';
import { LibraryFiles } from '../src/engine/library-files.js';
import { ProjectFiles } from '../src/engine/project-files.js';
import { scriptKindOf } from '../src/engine/script-kind.js';
import { createProject } from '../src/run/load.js';
import { typeErrors } from '../src/run/verify.js';
import { CHILD_PROCESS_TIMEOUT_MS } from './child-timeouts.js';
import { REPO } from './temp-project.js';

const COMPILER_OPTIONS = { target: 'ES2022', lib: ['ES2022'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true };

const TEST = `export const signal = new AbortController().signal;
export const text = process.env.TEXT ?? 'long text';
`;

const dirs: string[] = [];
const libraryFiles = new LibraryFiles();

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A project with @types/node installed, the given TypeScript version (`typescript/package.json` only) and tsconfig options. */
function project(options: Record<string, unknown>, typescriptVersion: string): { dir: string; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-automatic-types-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'node_modules/@types'), { recursive: true });
  fs.symlinkSync(path.join(REPO, 'node_modules/@types/node'), path.join(dir, 'node_modules/@types/node'), 'dir');
  fs.mkdirSync(path.join(dir, 'node_modules/typescript'));
  fs.writeFileSync(path.join(dir, 'node_modules/typescript/package.json'), JSON.stringify({ name: 'typescript', version: typescriptVersion }));
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...COMPILER_OPTIONS, ...options }, include: ['src'] }));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'automatic-types', type: 'module' }));
  fs.mkdirSync(path.join(dir, 'src'));
  const file = path.join(dir, 'src', 'signal.test.ts');
  fs.writeFileSync(file, TEST);
  return { dir, file };
}

/** The file's type errors in the engine's program over the project. */
function engineErrors(dir: string, file: string): string[] {
  const files = new ProjectFiles();
  const program = createProject(path.join(dir, 'tsconfig.json'), files.host, new Set([file]), libraryFiles, undefined);
  return typeErrors(files.addSourceFile(program, file, TEST, scriptKindOf(file))).map((e) => e.key.replace(/ Do you need.*/, ''));
}

describe("the engine's programs and a tsconfig without types", () => {
  it('control: the engine bundles TypeScript 6 or later, the repository (the projects here) 5', () => {
    expect(Number.parseInt(ts.version, 10)).toBeGreaterThanOrEqual(6);
    const own = JSON.parse(fs.readFileSync(path.join(REPO, 'node_modules/typescript/package.json'), 'utf8')) as { version: string };
    expect(Number.parseInt(own.version, 10)).toBe(5);
  });

  it("a project on TypeScript 5: Node's globals resolve, as its own tsc resolves them", () => {
    const { dir, file } = project({}, '5.9.3');
    const tsc = spawnSync(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8', timeout: CHILD_PROCESS_TIMEOUT_MS });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(engineErrors(dir, file)).toEqual([]);
  });

  it('a project on TypeScript 6: none, as its own tsc loads none', () => {
    const { dir, file } = project({}, '6.0.2');
    expect(engineErrors(dir, file)).toEqual(["TS2304: Cannot find name 'AbortController'.", "TS2591: Cannot find name 'process'."]);
  });

  it("a tsconfig's own types are kept: an empty list loads none, on TypeScript 5 too", () => {
    const { dir, file } = project({ types: [] }, '5.9.3');
    expect(engineErrors(dir, file)).toEqual(["TS2304: Cannot find name 'AbortController'.", "TS2591: Cannot find name 'process'."]);
  });
});
