/**
 * The project's prettier configuration: where it is (the CLI runs the project's prettier from
 * there) and the layout options the engine follows when it writes an import itself (a project
 * without prettier installed, `--dry-run`, the ESLint plugin's suggestions never run it).
 */
import fs from 'node:fs';
import path from 'node:path';

const PRETTIER_CONFIG_FILES = [
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

const DISK: ConfigFiles = { fileExistsSync: fs.existsSync, directoryExistsSync: fs.existsSync, readFileSync: (file) => fs.readFileSync(file, 'utf8') };

/** The options of a prettier configuration that decide how an import is laid out. */
export interface PrettierLayout {
  printWidth?: number;
  tabWidth?: number;
  useTabs?: boolean;
  semi?: boolean;
  singleQuote?: boolean;
  trailingComma?: string;
}

/** The directory whose prettier configuration applies to `start`, searching upwards. */
export function findPrettierConfigDir(start: string, files: ConfigFiles = DISK): string | undefined {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (PRETTIER_CONFIG_FILES.some((f) => files.fileExistsSync(path.join(dir, f)))) return dir;
    if (packagePrettierKey(dir, files) !== undefined) return dir;
    if (files.directoryExistsSync(path.join(dir, '.git')) || files.fileExistsSync(path.join(dir, '.git')) || path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The layout options of the configuration that applies to `start`, or undefined when no
 * configuration does. A configuration the engine does not read (JavaScript, JSON5, TOML, a
 * shared config named in package.json) gives `{}`: prettier's defaults, which is what it has where it
 * does not set them. Top-level options only (an `overrides` entry for some files is not applied).
 */
export function prettierLayoutFor(start: string, files: ConfigFiles = DISK): PrettierLayout | undefined {
  const dir = findPrettierConfigDir(start, files);
  if (dir === undefined) return undefined;
  // prettier's own search order within one directory: package.json first, then the rc files
  const fromPackage = packagePrettierKey(dir, files);
  if (fromPackage !== undefined) return layoutOf(typeof fromPackage === 'object' && fromPackage !== null ? (fromPackage as Record<string, unknown>) : {});
  const file = PRETTIER_CONFIG_FILES.find((f) => files.fileExistsSync(path.join(dir, f)))!;
  if (!/^\.prettierrc(\.json|\.ya?ml)?$/.test(file)) return {};
  let text: string;
  try {
    text = files.readFileSync(path.join(dir, file), 'utf8');
  } catch {
    return {};
  }
  return layoutOf(parseJson(text) ?? topLevelYamlScalars(text));
}

function packagePrettierKey(dir: string, files: ConfigFiles): unknown {
  const pkg = path.join(dir, 'package.json');
  if (!files.fileExistsSync(pkg)) return undefined;
  try {
    return (JSON.parse(files.readFileSync(pkg, 'utf8')) as { prettier?: unknown }).prettier;
  } catch {
    return undefined; // unreadable package.json: keep looking
  }
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `printWidth: 100` lines at the top level of a YAML file (an `.prettierrc` that is not JSON is
 * YAML): the options read here are plain scalars, and an indented line belongs to a nested entry.
 */
function topLevelYamlScalars(text: string): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const m of text.matchAll(/^["']?(\w+)["']?\s*:\s*["']?([\w.-]+)["']?\s*,?\s*(?:#.*)?$/gm)) {
    const raw = m[2]!;
    options[m[1]!] = raw === 'true' ? true : raw === 'false' ? false : /^\d+$/.test(raw) ? Number(raw) : raw;
  }
  return options;
}

function layoutOf(options: Record<string, unknown>): PrettierLayout {
  const layout: PrettierLayout = {};
  if (typeof options.printWidth === 'number' && options.printWidth > 0) layout.printWidth = options.printWidth;
  if (typeof options.tabWidth === 'number' && options.tabWidth > 0) layout.tabWidth = options.tabWidth;
  if (typeof options.useTabs === 'boolean') layout.useTabs = options.useTabs;
  if (typeof options.semi === 'boolean') layout.semi = options.semi;
  if (typeof options.singleQuote === 'boolean') layout.singleQuote = options.singleQuote;
  if (typeof options.trailingComma === 'string') layout.trailingComma = options.trailingComma;
  return layout;
}
