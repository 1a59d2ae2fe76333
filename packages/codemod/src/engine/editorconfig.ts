/**
 * The layout options a project's `.editorconfig` gives a file, read as prettier reads them: prettier
 * applies them under its own configuration (the options its config sets win), and a project with
 * only an `.editorconfig` is formatted with them. The files are looked up from the file's directory
 * up to the work tree's root (or a file saying `root = true`); every section whose glob matches the
 * file applies, a later section over an earlier one and a nearer file over a farther one, with the
 * glob semantics of editorconfig-core-js (minimatch, a name without `/` matching at any depth).
 */
import path from 'node:path';
import { escape, Minimatch } from 'minimatch';

/** What the lookup reads (the engine passes its project's file system). */
export interface EditorconfigFiles {
  fileExistsSync(file: string): boolean;
  directoryExistsSync(dir: string): boolean;
  readFileSync(file: string, encoding?: string): string;
}

/** Prettier's options from the `.editorconfig` properties that apply to `file`, or undefined when none applies. */
export function editorconfigOptionsFor(file: string, files: EditorconfigFiles): Record<string, unknown> | undefined {
  const target = path.resolve(file);
  const root = projectRoot(path.dirname(target), files);
  const chain: Array<{ dir: string; sections: Section[] }> = [];
  for (let dir = path.dirname(target); ; dir = path.dirname(dir)) {
    const config = path.join(dir, '.editorconfig');
    if (files.fileExistsSync(config)) {
      const sections = readSections(files, config);
      chain.push({ dir, sections });
      if (sections[0]?.props.root === true) break;
    }
    if (dir === root || path.dirname(dir) === dir) break;
  }
  const props: Record<string, unknown> = {};
  for (const { dir, sections } of chain.reverse()) {
    for (const section of sections) if (section.glob !== undefined && sectionMatcher(dir, section.glob)?.match(target)) Object.assign(props, section.props);
  }
  return toPrettierOptions(withDerivedWidths(props));
}

interface Section {
  /** undefined for the properties before the first section (`root`) */
  glob?: string;
  props: Record<string, unknown>;
}

/** prettier's project root: the nearest directory holding `.git` (a directory, or a file in a submodule or work tree) or a `.hg` directory. */
function projectRoot(start: string, files: EditorconfigFiles): string | undefined {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (files.fileExistsSync(path.join(dir, '.git')) || files.directoryExistsSync(path.join(dir, '.git')) || files.directoryExistsSync(path.join(dir, '.hg'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The file's sections in order (one section per name: a name written twice adds to the first), or none when a line does not parse. */
function readSections(files: EditorconfigFiles, config: string): Section[] {
  let text: string;
  try {
    text = files.readFileSync(config, 'utf8');
  } catch {
    return [];
  }
  const preamble: Section = { props: {} };
  const byName = new Map<string, Section>();
  let current = preamble;
  for (const raw of text.split(/\r?\n|\r/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[')) {
      if (!line.endsWith(']')) return [{ props: {} }]; // an unclosed section: the whole file is dropped, as below
      const name = line.slice(1, -1);
      current = byName.get(name) ?? { glob: name, props: {} };
      byName.set(name, current);
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0) return [{ props: {} }]; // editorconfig-core-js drops the whole file on a line it cannot parse
    const key = line.slice(0, eq).trim().toLowerCase();
    current.props[key] = propertyValue(key, line.slice(eq + 1).trim());
  }
  return [preamble, ...byName.values()];
}

/** The properties whose values editorconfig-core-js lowercases (the spec's case-insensitive ones). */
const CASE_INSENSITIVE = new Set(['charset', 'end_of_line', 'indent_size', 'indent_style', 'insert_final_newline', 'trim_trailing_whitespace']);

/** A property's value as editorconfig-core-js gives it: numbers and booleans parsed, the case-insensitive ones lowercased. */
function propertyValue(key: string, raw: string): unknown {
  const value = CASE_INSENSITIVE.has(key) ? raw.toLowerCase() : raw;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** The section's glob anchored at its file's directory: a name without `/` matches at any depth, a leading `/` anchors it, `..` never matches. */
function sectionMatcher(dir: string, glob: string): Minimatch | undefined {
  if (glob.split('/').some((part) => part.replace(/\\(.)/g, '$1') === '..')) return undefined;
  let full = glob.includes('/') ? (glob.startsWith('/') ? glob.slice(1) : glob) : `**/${glob}`;
  full = full.replace(/\\\\/g, '\\\\\\\\').replace(/\*\*/g, '{*,**/**/**}');
  const prefix = escape(dir.split(path.sep).join('/'), { windowsPathsNoEscape: true }).replace(/^#/, '[#]');
  return new Minimatch(`${prefix}/${full}`, { matchBase: true, dot: true });
}

/** editorconfig's defaults between the two widths: `indent_style = tab` alone means tab-sized indents, an indent size alone is also the tab width. */
function withDerivedWidths(props: Record<string, unknown>): Record<string, unknown> {
  const out = { ...props };
  if (out.indent_style === 'tab' && !('indent_size' in out)) out.indent_size = 'tab';
  if ('indent_size' in out && !('tab_width' in out) && out.indent_size !== 'tab') out.tab_width = out.indent_size;
  if ('indent_size' in out && 'tab_width' in out && out.indent_size === 'tab') out.indent_size = out.tab_width;
  return out;
}

const isPositiveInteger = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/** The mapping prettier applies (its editorconfig-to-prettier): indentation, width, quotes. */
function toPrettierOptions(props: Record<string, unknown>): Record<string, unknown> | undefined {
  const options: Record<string, unknown> = {};
  if (props.indent_style === 'space') options.useTabs = false;
  else if (props.indent_style === 'tab' || props.indent_size === 'tab') options.useTabs = true;
  if (options.useTabs === false && isPositiveInteger(props.indent_size)) options.tabWidth = props.indent_size;
  else if (isPositiveInteger(props.tab_width)) options.tabWidth = props.tab_width;
  if (props.max_line_length === 'off') options.printWidth = Number.POSITIVE_INFINITY;
  else if (isPositiveInteger(props.max_line_length)) options.printWidth = props.max_line_length;
  if (props.quote_type === 'single') options.singleQuote = true;
  else if (props.quote_type === 'double') options.singleQuote = false;
  return Object.keys(options).length > 0 ? options : undefined;
}
