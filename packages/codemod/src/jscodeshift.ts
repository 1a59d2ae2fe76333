/**
 * jscodeshift entry: `npx jscodeshift -t node_modules/@mcp-mrtr/codemod/dist/jscodeshift.cjs src/`.
 *
 * Runs the same engine as `mcp-mrtr migrate` on one file at a time (the engine's per-source entry,
 * syntactic mode unless `--tsconfig=<file>` is passed), so a single file comes out exactly as the
 * CLI writes it, test-mock markers included. Files the migration creates (the requestState codec
 * module) are written next to it unless jscodeshift runs with `--dry`. A file that cannot be
 * migrated makes the transform throw, which jscodeshift reports as an error for that file.
 *
 * Options (jscodeshift passes unknown CLI flags through): `--stateKeyEnv=NAME`, `--tsconfig=FILE`.
 */
import fs from 'node:fs';
import { writeFileAtomic } from './fs/atomic-write.js';
import { migrateSource } from './migrate.js';
import { scanTestMocks } from './report/test-mocks.js';

export interface FileInfo {
  path: string;
  source: string;
}

export interface TransformOptions {
  stateKeyEnv?: string;
  'state-key-env'?: string;
  tsconfig?: string;
  dry?: boolean;
  [option: string]: unknown;
}

export default async function transform(file: FileInfo, _api: unknown, options: TransformOptions = {}): Promise<string | undefined> {
  const stateKeyEnv = options.stateKeyEnv ?? options['state-key-env'];
  const result = await migrateSource(file.source, file.path || 'input.ts', {
    cwd: process.cwd(),
    ...(typeof stateKeyEnv === 'string' ? { stateKeyEnv } : {}),
    ...(typeof options.tsconfig === 'string' ? { tsconfig: options.tsconfig } : {}),
  });
  if (result.status === 'failed') throw new Error(`mcp-mrtr: ${file.path}: ${result.error ?? 'could not be migrated'}`);
  const output = scanTestMocks(result.path, result.output ?? file.source).output;
  if (!options.dry) {
    for (const created of result.created) {
      if (created.output === undefined) continue;
      if (fs.existsSync(created.path) && fs.readFileSync(created.path, 'utf8') === created.output) continue;
      writeFileAtomic(created.path, created.output);
    }
  }
  return output === file.source ? undefined : output;
}

/** The engine parses with TypeScript itself; jscodeshift's parser is not used. */
export const parser = 'tsx';
