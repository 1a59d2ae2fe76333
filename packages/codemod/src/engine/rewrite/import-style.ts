/**
 * How the engine writes an import it adds to or extends: in the order the file's own imports keep
 * their names, on one line while it fits the print width and one name per line when it does not
 * (prettier's layout), with the project's prettier options where it configures them and the
 * file's own quotes, semicolons and indentation where it does not.
 */
import { Node, type Project, type SourceFile } from 'ts-morph';
import { prettierLayoutFor, type PrettierLayout } from '../formatter-options.js';
import { indentUnit } from '../text-edits.js';

/** prettier's default print width, used where neither a configuration nor the file says more. */
export const DEFAULT_PRINT_WIDTH = 80;

/** Orders specifier texts (`type X`, `X as Y`, and `X: Y` in a require pattern). */
export type SpecifierOrder = (a: string, b: string) => number;

export interface ImportStyle {
  /** The longest line an import the engine writes stays on one line within. */
  printWidth: number;
  /** One level of indentation, for the names of a list written one per line. */
  indent: string;
  trailingComma: boolean;
  semicolon: boolean;
  quote: "'" | '"';
  /** How the file sorts its import lists; undefined when it sorts them in no order recognised here (new names then go last). */
  order: SpecifierOrder | undefined;
}

const nameOf = (text: string): string => text.replace(/^type\s+/, '');
const isType = (text: string): boolean => /^type\s/.test(text);
const caseInsensitive = (a: string, b: string): number => a.localeCompare(b, 'en', { sensitivity: 'base' });
const ordinal = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const byName =
  (compare: (a: string, b: string) => number): SpecifierOrder =>
  (a, b) =>
    compare(nameOf(a), nameOf(b));
const typesGrouped =
  (compare: (a: string, b: string) => number, typesFirst: boolean): SpecifierOrder =>
  (a, b) =>
    isType(a) === isType(b) ? compare(nameOf(a), nameOf(b)) : isType(a) === typesFirst ? -1 : 1;

/**
 * The orders a file's lists are checked against, the engine's own first: `type` names among the
 * others (eslint's sort-imports with ignoreCase, the ordering of this engine's earlier output),
 * case-sensitive (sort-imports' default, TypeScript's organize imports), then values before types
 * and types before values, each ignoring or minding case.
 */
const ORDERS: readonly SpecifierOrder[] = [
  byName(caseInsensitive),
  byName(ordinal),
  typesGrouped(caseInsensitive, false),
  typesGrouped(ordinal, false),
  typesGrouped(caseInsensitive, true),
  typesGrouped(ordinal, true),
];

/** `names` in the style's order, or as given when the file keeps no order. */
export function sortSpecifiers(names: string[], style: ImportStyle): string[] {
  return style.order ? [...names].sort(style.order) : names;
}

/**
 * The `{ ... }` of an import (or of a require pattern) holding `names`, for a line that reads
 * `before` up to the brace and `after` from the closing brace: on that line while it fits, else
 * one name per line. One name stays on the line whatever its length, as prettier keeps it.
 */
export function namedList(names: readonly string[], style: ImportStyle, before: string, after: string): string {
  const oneLine = `{ ${names.join(', ')} }`;
  if (names.length < 2 || before.length + oneLine.length + after.length <= style.printWidth) return oneLine;
  return brokenList(names, style.indent, style.trailingComma);
}

export function brokenList(names: readonly string[], indent: string, trailingComma: boolean): string {
  return `{\n${indent}${names.join(`,\n${indent}`)}${trailingComma ? ',' : ''}\n}`;
}

const styles = new WeakMap<SourceFile, ImportStyle>();
const layouts = new WeakMap<Project, Map<string, PrettierLayout | undefined>>();

/**
 * The file's import style, read the first time it is asked for and kept for the run: before the
 * upgrade rewrites the file's imports (it asks first), so the style is the one its author wrote.
 */
export function importStyleOf(file: SourceFile): ImportStyle {
  let style = styles.get(file);
  if (!style) {
    style = readImportStyle(file, prettierLayoutOf(file));
    styles.set(file, style);
  }
  return style;
}

/**
 * A module the engine generates has no author whose line length it could follow (its own
 * template lines are long): the project's prettier width, or prettier's default.
 */
export function useGeneratedModuleStyle(module: SourceFile): void {
  const prettier = prettierLayoutOf(module);
  styles.set(module, { ...readImportStyle(module, prettier), printWidth: prettier?.printWidth ?? DEFAULT_PRINT_WIDTH });
}

/**
 * The prettier options for the file (its directory's configuration, with the overrides and
 * `.editorconfig` sections that match its name), looked up once per file of a run, through the
 * project's file system.
 */
function prettierLayoutOf(file: SourceFile): PrettierLayout | undefined {
  const project = file.getProject();
  let byFile = layouts.get(project);
  if (!byFile) layouts.set(project, (byFile = new Map()));
  const filePath = file.getFilePath();
  if (!byFile.has(filePath)) byFile.set(filePath, prettierLayoutFor(filePath, project.getFileSystem()));
  return byFile.get(filePath);
}

/**
 * The style of the file's text with the given prettier options. Without a configuration (or with
 * an `.editorconfig` alone that sets no max_line_length) the print width is prettier's 80, or the
 * length of the longest one-line import the file already has when that is longer: a file whose
 * author writes 120-character imports gets no 80-character break from the engine.
 */
export function readImportStyle(file: SourceFile, prettier: PrettierLayout | undefined): ImportStyle {
  const imports = file.getImportDeclarations();
  const lists = [...imports.map((d) => d.getNamedImports().map((n) => n.getText())), ...requirePatterns(file)].filter((names) => names.length > 1);
  const oneLine = imports.map((d) => d.getText()).filter((text) => !text.includes('\n'));
  const multiLine = imports.map((d) => d.getImportClause()?.getNamedBindings()?.getText() ?? '').filter((text) => text.includes('\n'));
  const firstQuote = (imports[0]?.getModuleSpecifier().getText() ?? /\brequire\(\s*(['"])/.exec(file.getFullText())?.[1])?.[0];
  return {
    printWidth: prettier?.printWidth ?? (prettier && !prettier.onlyEditorconfig ? DEFAULT_PRINT_WIDTH : Math.max(DEFAULT_PRINT_WIDTH, ...oneLine.map((text) => text.length))),
    indent: prettier?.useTabs ? '\t' : prettier?.tabWidth ? ' '.repeat(prettier.tabWidth) : indentUnit(file),
    trailingComma: prettier?.trailingComma !== undefined ? prettier.trailingComma !== 'none' : multiLine.length === 0 || /,\s*\}$/.test(multiLine[0]!),
    semicolon: prettier?.semi ?? (imports.length === 0 || imports[0]!.getText().endsWith(';')),
    quote: prettier?.singleQuote !== undefined ? (prettier.singleQuote ? "'" : '"') : firstQuote === '"' ? '"' : "'",
    order: ORDERS.find((order) => lists.every((names) => names.every((name, i) => i === 0 || order(names[i - 1]!, name) <= 0))),
  };
}

/** The names of `const { a, b } = require('x')` patterns, as written. */
function requirePatterns(file: SourceFile): string[][] {
  const lists: string[][] = [];
  for (const statement of file.getVariableStatements()) {
    for (const decl of statement.getDeclarations()) {
      const init = decl.getInitializer();
      const pattern = decl.getNameNode();
      if (!init || !Node.isCallExpression(init) || init.getExpression().getText() !== 'require' || !Node.isObjectBindingPattern(pattern)) continue;
      lists.push(pattern.getElements().map((e) => e.getText()));
    }
  }
  return lists;
}
