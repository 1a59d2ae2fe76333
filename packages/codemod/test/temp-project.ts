/**
 * A typed project on disk, migrated by the real run (`migrateProject`): the given files, a tsconfig
 * (NodeNext, strict, Node's types unless told otherwise), a package.json and the repository's
 * node_modules linked (the v1 SDK, zod, the v2 packages). For tests whose shape spans files and
 * needs types; test/run/helpers.ts builds in-memory, syntactic runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Project, ts } from 'ts-morph';
import { migrateProject } from './shared-library-files.js';
import type { FileResult, MigrationResult } from '../src/types.js';
import { TEST_DIR } from './find-helpers.js';

export const REPO = path.resolve(TEST_DIR, '../../..');

export const NODE_TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] },
  include: ['src'],
};

export interface TempProjectSetup {
  tsconfig?: unknown;
  packageJson?: Record<string, unknown>;
}

export interface MigratedProject {
  dir: string;
  result: MigrationResult;
  /** The result of `src/<name>`, if the run reported it. */
  file(name: string): FileResult | undefined;
}

const dirs: string[] = [];

/** Writes `files` (paths relative to the project, e.g. `src/tools/a.ts`) into a new temp project; returns its directory. */
export function makeTempProject(prefix: string, files: Record<string, string>, setup: TempProjectSetup = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `mcp-mrtr-${prefix}-`));
  dirs.push(dir);
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(setup.tsconfig ?? NODE_TSCONFIG));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(setup.packageJson ?? { name: prefix, type: 'module' }));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** A new temp project holding `files`, migrated (`src/`, nothing written). */
export async function migrateTempProject(prefix: string, files: Record<string, string>, setup: TempProjectSetup = {}): Promise<MigratedProject> {
  const dir = makeTempProject(prefix, files, setup);
  const result = await migrateProject(['src'], { cwd: dir });
  return { dir, result, file: (name) => result.files.find((f) => f.path === path.join(dir, 'src', name)) };
}

/** `<file>:<line> TS<code>` of every error tsc reports on the project at `dir` as written, in the order tsc reports them. */
export function writtenProjectErrors(dir: string): string[] {
  const checked = new Project({ tsConfigFilePath: path.join(dir, 'tsconfig.json') });
  return checked
    .getPreEmitDiagnostics()
    .filter((d) => d.getCategory() === ts.DiagnosticCategory.Error)
    .map((d) => `${path.basename(d.getSourceFile()!.getFilePath())}:${d.getLineNumber()} TS${d.getCode()}`);
}

/** Removes every temp project made so far (call from afterAll). */
export function removeTempProjects(): void {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}
