/**
 * Where the project's prettier configuration is: the CLI runs the project's prettier from there,
 * and formatter-options.ts reads the options the engine follows from it. Kept free of the option
 * reading's packages: the CLI loads this module at every start.
 */
import path from 'node:path';
import { DISK, isRepositoryRoot, nearestDirWhere, readManifest, type WalkFiles } from './package-dir.js';

export const PRETTIER_CONFIG_FILES = [
  '.prettierrc',
  '.prettierrc.json',
  '.prettierrc.json5',
  '.prettierrc.yaml',
  '.prettierrc.yml',
  '.prettierrc.toml',
  '.prettierrc.js',
  '.prettierrc.cjs',
  '.prettierrc.mjs',
  '.prettierrc.ts',
  '.prettierrc.cts',
  '.prettierrc.mts',
  'prettier.config.js',
  'prettier.config.cjs',
  'prettier.config.mjs',
  'prettier.config.ts',
  'prettier.config.cts',
  'prettier.config.mts',
];

/** The directory whose prettier configuration applies to `start`, searching upwards, no further than the work tree's root. */
export function findPrettierConfigDir(start: string, files: WalkFiles = DISK): string | undefined {
  return nearestDirWhere(
    start,
    (dir) => PRETTIER_CONFIG_FILES.some((f) => files.fileExistsSync(path.join(dir, f))) || packagePrettierKey(dir, files) !== undefined,
    (dir) => isRepositoryRoot(dir, files),
  );
}

/** The `prettier` key of the folder's package.json; undefined without one or when it does not parse (the search goes on). */
export function packagePrettierKey(dir: string, files: WalkFiles): unknown {
  return files.fileExistsSync(path.join(dir, 'package.json')) ? readManifest(dir, files)?.prettier : undefined;
}
