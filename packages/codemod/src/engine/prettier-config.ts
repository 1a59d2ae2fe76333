/**
 * Where the project's prettier configuration is: the CLI runs the project's prettier from there,
 * and formatter-options.ts reads the options the engine follows from it. Kept free of the option
 * reading's packages: the CLI loads this module at every start.
 */
import fs from 'node:fs';
import path from 'node:path';

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

/** What the lookup reads: the real disk by default; the engine passes its project's file system (an in-memory one in unit tests). */
export interface ConfigFiles {
  fileExistsSync(file: string): boolean;
  directoryExistsSync(dir: string): boolean;
  readFileSync(file: string, encoding?: string): string;
}

export const DISK: ConfigFiles = { fileExistsSync: fs.existsSync, directoryExistsSync: fs.existsSync, readFileSync: (file) => fs.readFileSync(file, 'utf8') };

/** The directory whose prettier configuration applies to `start`, searching upwards. */
export function findPrettierConfigDir(start: string, files: ConfigFiles = DISK): string | undefined {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (PRETTIER_CONFIG_FILES.some((f) => files.fileExistsSync(path.join(dir, f)))) return dir;
    if (packagePrettierKey(dir, files) !== undefined) return dir;
    if (files.directoryExistsSync(path.join(dir, '.git')) || files.fileExistsSync(path.join(dir, '.git')) || path.dirname(dir) === dir) return undefined;
  }
}

/** The `prettier` key of the directory's package.json, or undefined when it has none (or none readable). */
export function packagePrettierKey(dir: string, files: ConfigFiles): unknown {
  const pkg = path.join(dir, 'package.json');
  if (!files.fileExistsSync(pkg)) return undefined;
  try {
    return (JSON.parse(files.readFileSync(pkg, 'utf8')) as { prettier?: unknown }).prettier;
  } catch {
    return undefined; // unreadable package.json: keep looking
  }
}
