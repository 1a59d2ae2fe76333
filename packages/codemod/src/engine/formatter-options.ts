/**
 * The layout options the engine follows when it writes an import itself (a project without
 * prettier installed, `--dry-run`, the ESLint plugin's suggestions never run it): the ones prettier
 * would use for the file, read from its configuration and the project's `.editorconfig`.
 */
import path from 'node:path';
import micromatch from 'micromatch';
import { parse as parseYaml } from 'yaml';
import { editorconfigOptionsFor } from './editorconfig.js';
import { DISK, type WalkFiles } from './package-dir.js';
import { findPrettierConfigDir, packagePrettierKey, PRETTIER_CONFIG_FILES } from './prettier-config.js';

/** The options of a prettier configuration that decide how an import is laid out. */
export interface PrettierLayout {
  printWidth?: number;
  tabWidth?: number;
  useTabs?: boolean;
  semi?: boolean;
  singleQuote?: boolean;
  trailingComma?: string;
  /** set when no prettier configuration applies and these come from an `.editorconfig` alone: the project may not run prettier, so what it leaves unset is the file's own */
  onlyEditorconfig?: true;
}

/**
 * The layout options prettier would use for `file`, or undefined when no configuration applies: the
 * configuration found upwards from its directory with its `overrides` whose `files` match it
 * (prettier's matching: globs relative to the configuration's directory, a glob without `/` matching
 * the file's name at any depth, `excludeFiles` taking files out), over the `.editorconfig` properties
 * prettier maps (max_line_length, indent_style, indent_size, tab_width, quote_type). A configuration
 * the engine does not read (JavaScript, JSON5, TOML, a shared config named in package.json) gives
 * prettier's defaults where the `.editorconfig` sets nothing.
 */
export function prettierLayoutFor(file: string, files: WalkFiles = DISK): PrettierLayout | undefined {
  const fromEditorconfig = editorconfigOptionsFor(file, files);
  const dir = findPrettierConfigDir(path.dirname(path.resolve(file)), files);
  if (dir === undefined) return fromEditorconfig && { ...layoutOf(fromEditorconfig), onlyEditorconfig: true };
  const { overrides, ...options } = readConfig(dir, files);
  const relative = path.relative(dir, path.resolve(file));
  for (const override of Array.isArray(overrides) ? (overrides as unknown[]) : []) {
    if (overrideApplies(override, relative)) Object.assign(options, (override as { options?: object }).options);
  }
  return layoutOf({ ...fromEditorconfig, ...options });
}

/** The options written in the configuration of `dir`, in prettier's search order within one directory: package.json first, then the rc files. */
function readConfig(dir: string, files: WalkFiles): Record<string, unknown> {
  const fromPackage = packagePrettierKey(dir, files);
  if (fromPackage !== undefined) return asRecord(fromPackage) ?? {};
  const file = PRETTIER_CONFIG_FILES.find((f) => files.fileExistsSync(path.join(dir, f)))!;
  if (!/^\.prettierrc(\.json|\.ya?ml)?$/.test(file)) return {};
  try {
    const text = files.readFileSync(path.join(dir, file), 'utf8');
    // an `.prettierrc` without extension is YAML or JSON (JSON is YAML's subset)
    return asRecord(file === '.prettierrc.json' ? JSON.parse(text) : parseYaml(text)) ?? {};
  } catch {
    return {};
  }
}

/** Whether an `overrides` entry is for the file at `relative` (to the configuration's directory), with prettier's own glob matching. */
function overrideApplies(override: unknown, relative: string): boolean {
  const entry = asRecord(override);
  if (!entry || (typeof entry.files !== 'string' && !Array.isArray(entry.files))) return false;
  const patterns = ([] as unknown[]).concat(entry.files).filter((p): p is string => typeof p === 'string');
  const excluded = ([] as unknown[]).concat(entry.excludeFiles ?? []).filter((p): p is string => typeof p === 'string');
  const ignore = excluded.length > 0 ? excluded : undefined;
  // micromatch's basename option matches every pattern against the name alone: prettier uses it only for patterns without a slash
  const withoutSlash = patterns.filter((p) => !p.includes('/'));
  const withSlash = patterns.filter((p) => p.includes('/'));
  return (
    (withoutSlash.length > 0 && micromatch.isMatch(relative, withoutSlash, { ignore, basename: true, dot: true })) ||
    (withSlash.length > 0 && micromatch.isMatch(relative, withSlash, { ignore, basename: false, dot: true }))
  );
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : undefined;
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
