/** Merges the names the rewrite uses into the file's imports (ESM `import`, or CJS `require` destructuring). */
import { Node, SyntaxKind, ts, type ImportDeclaration, type SourceFile } from 'ts-morph';
import { brokenList, importStyleOf, namedList, sortSpecifiers, useGeneratedModuleStyle, type ImportStyle } from './import-style.js';
import type { ModuleFlavour } from './module-flavour.js';

export function ensureNamedImports(file: SourceFile, specifier: string, values: string[], types: string[], flavour: ModuleFlavour): void {
  if (flavour === 'cjs') {
    if (values.length > 0) ensureRequire(file, specifier, values, importStyleOf(file));
    return;
  }
  const text = extendImport(file, { specifier, values, types }, flavour);
  if (text === undefined) return;
  const imports = file.getImportDeclarations();
  if (imports.length > 0) appendAfterLastImport(file, [text]);
  else file.insertStatements(0, text);
}

export interface ImportRequest {
  specifier: string;
  values: string[];
  types: string[];
}

/**
 * `ensureNamedImports` for each request in turn, with the same text, but the new import
 * declarations written after the last import in one edit: each edit re-parses the file. A file
 * without imports yet, or a CommonJS one, takes them one by one. Requests of one module are one
 * request (a name asked for twice is imported once): each caller asks for what each of its edits
 * uses, without checking what another asked for.
 */
export function ensureNamedImportsOf(file: SourceFile, requests: readonly ImportRequest[], flavour: ModuleFlavour): void {
  const merged = bySpecifier(requests);
  if (flavour === 'cjs' || file.getImportDeclarations().length === 0) {
    for (const r of merged) ensureNamedImports(file, r.specifier, r.values, r.types, flavour);
    return;
  }
  // the new declarations' texts are all read off the file before any is written: one module's requests must be merged first
  const texts = merged.flatMap((r) => extendImport(file, r, flavour) ?? []);
  if (texts.length > 0) appendAfterLastImport(file, texts);
}

function bySpecifier(requests: readonly ImportRequest[]): ImportRequest[] {
  const merged = new Map<string, ImportRequest>();
  for (const r of requests) {
    const earlier = merged.get(r.specifier);
    merged.set(r.specifier, earlier ? { specifier: r.specifier, values: [...new Set([...earlier.values, ...r.values])], types: [...new Set([...earlier.types, ...r.types])] } : r);
  }
  return [...merged.values()];
}

/**
 * Adds the names the file does not import yet to its value import of the module, or returns the
 * text of a new import declaration for them (undefined when nothing is missing or it was extended).
 */
function extendImport(file: SourceFile, { specifier, values, types }: ImportRequest, flavour: ModuleFlavour): string | undefined {
  const wantedTypes = flavour === 'ts' ? types.filter((t) => !values.includes(t)) : [];
  if (values.length === 0 && wantedTypes.length === 0) return undefined;
  const style = importStyleOf(file);
  const decls = file.getImportDeclarations().filter((d) => d.getModuleSpecifierValue() === specifier);
  const imported = new Set<string>();
  for (const d of decls) for (const n of d.getNamedImports()) imported.add((n.getAliasNode() ?? n.getNameNode()).getText());
  const missing = [...values.filter((v) => !imported.has(localOf(v))), ...wantedTypes.filter((t) => !imported.has(t)).map((t) => `type ${t}`)];
  if (missing.length === 0) return undefined;
  const target = decls.find((d) => !d.isTypeOnly() && !d.getNamespaceImport());
  if (target) {
    // one re-parse for the whole import (adding names one by one re-parses the file each time)
    writeNamedImports(target, [...target.getNamedImports().map((n) => n.getText()), ...missing], style);
    return undefined;
  }
  const after = ` from ${style.quote}${specifier}${style.quote}${style.semicolon ? ';' : ''}`;
  return `import ${namedList(sortSpecifiers(missing, style), style, 'import ', after)}${after}`;
}

function appendAfterLastImport(file: SourceFile, texts: readonly string[]): void {
  const imports = file.getImportDeclarations();
  const last = imports[imports.length - 1]!;
  last.replaceWithText([last.getText(), ...texts].join('\n'));
}

/**
 * Folds the other named-only imports of `specifier` (`import type { Tool } from ...` beside the
 * value import, which the v1-to-v2 upgrade leaves when several v1 modules become one v2 package)
 * into its value import, in the file's order. An import carrying a comment, a default or a
 * namespace binding stays as written.
 */
export function mergeNamedImports(file: SourceFile, specifier: string): void {
  const decls = file.getImportDeclarations().filter((d) => d.getModuleSpecifierValue() === specifier);
  const target = decls.find((d) => !d.isTypeOnly() && !d.getNamespaceImport() && d.getNamedImports().length > 0);
  if (!target) return;
  const foldable = decls.filter(
    (d) =>
      d !== target &&
      !d.getDefaultImport() &&
      !d.getNamespaceImport() &&
      d.getNamedImports().length > 0 &&
      d.getLeadingCommentRanges().length === 0 &&
      d.getTrailingCommentRanges().length === 0 &&
      !hasComment(d),
  );
  if (foldable.length === 0) return;
  const texts = target.getNamedImports().map((n) => n.getText());
  const seen = new Set(texts.map((t) => t.replace(/^type /, '')));
  for (const d of foldable) {
    for (const n of d.getNamedImports()) {
      const text = d.isTypeOnly() && !n.isTypeOnly() ? `type ${n.getText()}` : n.getText();
      if (seen.has(text.replace(/^type /, ''))) continue;
      seen.add(text.replace(/^type /, ''));
      texts.push(text);
    }
  }
  for (const d of foldable) d.remove();
  writeNamedImports(target, texts, importStyleOf(file));
}

/**
 * The imports the v1-to-v2 upgrade wrote (any whose text is not in the file's text before it):
 * its merged lists put in the file's order, and a one-line import longer than the print width
 * broken one name per line. An import it left as written, or one holding a comment, is not
 * touched. `require` patterns are laid out the same way (a generated CommonJS module's).
 */
export function layoutWrittenImports(file: SourceFile, before: string): void {
  const style = importStyleOf(file);
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const lists: Array<{ statement: Node; list: Node; names: string[] }> = [];
  for (const decl of file.getImportDeclarations()) {
    const bindings = decl.getImportClause()?.getNamedBindings();
    if (bindings && Node.isNamedImports(bindings)) lists.push({ statement: decl, list: bindings, names: bindings.getElements().map((n) => n.getText()) });
  }
  for (const statement of file.getVariableStatements()) {
    const decl = statement.getDeclarations()[0];
    const pattern = decl?.getNameNode();
    if (pattern && Node.isObjectBindingPattern(pattern) && /^require\(/.test(decl!.getInitializer()?.getText() ?? '')) lists.push({ statement, list: pattern, names: pattern.getElements().map((e) => e.getText()) });
  }
  for (const { statement, list, names } of lists) {
    if (before.includes(statement.getText()) || /\/[/*]/.test(statement.getText()) || list.getText().includes('\n')) continue;
    const text = listOnItsLine(statement, sortSpecifiers(names, style), style, list);
    if (text !== list.getText()) edits.push({ start: list.getStart(), end: list.getEnd(), text });
  }
  if (edits.length === 0) return;
  // one re-parse for every import (node-by-node replaceWithText re-parses the file each time)
  let text = file.getFullText();
  for (const edit of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  file.replaceWithText(text);
}

/** A module the engine generates: every import in it is the engine's, laid out for the project's print width. */
export function layoutGeneratedImports(module: SourceFile): void {
  useGeneratedModuleStyle(module);
  layoutWrittenImports(module, '');
}

const hasComment = (decl: ImportDeclaration): boolean => /\/[/*]/.test(decl.getText());

/** The local name of an import specifier text (`a as b`, and `a: b` in a require pattern: `b`). */
const localOf = (text: string): string => text.replace(/^.*(\s+as\s+|:\s*)/, '');

/**
 * Replaces only the `{ ... }` of the import (quotes, semicolon and a default import stay as
 * written), with `names` in the file's order: a list written one name per line stays so, with its
 * own indentation and trailing comma; a one-line list stays on its line while it fits the print width.
 */
function writeNamedImports(decl: ImportDeclaration, names: string[], style: ImportStyle): void {
  const bindings = decl.getImportClause()?.getNamedBindings();
  if (!bindings) return;
  const sorted = sortSpecifiers(names, style);
  const current = bindings.getText();
  if (!current.includes('\n')) return void bindings.replaceWithText(listOnItsLine(decl, sorted, style));
  const indent = /\n([ \t]*)\S/.exec(current)?.[1] ?? style.indent;
  bindings.replaceWithText(brokenList(sorted, indent, /,\s*\}$/.test(current)));
}

/** The list for a node's place on its line: what the line holds before the node and after it up to the statement's end. */
function listOnItsLine(statement: Node, names: string[], style: ImportStyle, node: Node = bindingsOf(statement)): string {
  const full = statement.getSourceFile().getFullText();
  const before = full.slice(full.lastIndexOf('\n', node.getStart()) + 1, node.getStart());
  const after = full.slice(node.getEnd(), statement.getEnd()).split('\n')[0]!;
  return namedList(names, style, before, after);
}

function bindingsOf(statement: Node): Node {
  return (Node.isImportDeclaration(statement) ? statement.getImportClause()?.getNamedBindings() : undefined) ?? statement;
}

function ensureRequire(file: SourceFile, specifier: string, values: string[], style: ImportStyle): void {
  for (const statement of file.getVariableStatements()) {
    for (const decl of statement.getDeclarations()) {
      const init = decl.getInitializer();
      if (!init || !Node.isCallExpression(init) || init.getExpression().getText() !== 'require') continue;
      const arg = init.getArguments()[0];
      if (!arg || !Node.isStringLiteral(arg) || arg.getLiteralValue() !== specifier) continue;
      const pattern = decl.getNameNode();
      if (!Node.isObjectBindingPattern(pattern)) continue;
      const have = new Set(pattern.getElements().map((e) => e.getName()));
      const missing = values.filter((v) => !have.has(localOf(v)));
      if (missing.length === 0) return;
      const names = sortSpecifiers([...pattern.getElements().map((e) => e.getText()), ...missing], style);
      const current = pattern.getText();
      const indent = /\n([ \t]*)\S/.exec(current)?.[1];
      // replaceText, not the pattern's replaceWithText: that one re-indents the lines of a broken list by the pattern's depth
      file.replaceText([pattern.getStart(), pattern.getEnd()], indent !== undefined ? brokenList(names, indent, /,\s*\}$/.test(current)) : listOnItsLine(statement, names, style, pattern));
      return;
    }
  }
  const requires = file.getStatements().filter((s) => Node.isVariableStatement(s) && /\brequire\s*\(/.test(s.getText()));
  const anchor = requires[requires.length - 1];
  const after = ` = require(${style.quote}${specifier}${style.quote})${!anchor || anchor.getText().endsWith(';') ? ';' : ''}`;
  const text = `const ${namedList(sortSpecifiers(values, style), style, 'const ', after)}${after}`;
  if (anchor) anchor.replaceWithText(`${anchor.getText()}\n${text}`);
  else {
    const first = file.getStatements()[0];
    const directive = first && Node.isExpressionStatement(first) && /^['"]use strict['"]/.test(first.getText());
    file.insertStatements(directive ? 1 : 0, text);
  }
}

/** Drops imports of the given names that nothing in the file references any more (legacy result schemas). */
export function dropUnusedImports(file: SourceFile, candidates: readonly string[]): void {
  // read once: dropping a name edits only import declarations, so the names used outside them stay
  let usedOutside: Set<string> | undefined;
  for (const decl of file.getImportDeclarations()) {
    for (const named of decl.getNamedImports()) {
      const local = (named.getAliasNode() ?? named.getNameNode()).getText();
      if (!candidates.includes(named.getName())) continue;
      usedOutside ??= identifiersOutsideImports(file);
      if (!usedOutside.has(local)) named.remove();
    }
    collapseLoneName(decl);
    if (decl.getNamedImports().length === 0 && !decl.getDefaultImport() && !decl.getNamespaceImport() && decl.getImportClause()) decl.remove();
  }
  for (const statement of file.getVariableStatements()) {
    const decl = statement.getDeclarations()[0];
    const pattern = decl?.getNameNode();
    const init = decl?.getInitializer();
    if (!pattern || !Node.isObjectBindingPattern(pattern) || !init || !/^require\(/.test(init.getText())) continue;
    const keep = pattern.getElements().filter((element) => {
      if (!candidates.includes(element.getName())) return true;
      return file.getDescendantsOfKind(SyntaxKind.Identifier).some((id) => id.getText() === element.getName() && id.getFirstAncestor((a) => a === statement) === undefined);
    });
    if (keep.length === pattern.getElements().length) continue;
    if (keep.length === 0) statement.remove();
    else pattern.replaceWithText(`{ ${keep.map((e) => e.getText()).join(', ')} }`);
  }
}

/**
 * The names of `wanted` (import specifiers: `name`, `name as local`, `name: local`) whose local name
 * the file's code outside its import declarations uses. The rewrite collects the names while it
 * plans, some for code it then writes in another file (a handler asking through a helper of another
 * file returns the helper's input_required result and builds none), so it imports only these.
 */
export function usedImportNames(used: ReadonlySet<string>, wanted: readonly string[]): string[] {
  return wanted.filter((name) => used.has(localOf(name)));
}

/**
 * The texts of the file's identifiers outside its import declarations, JSDoc included, read on the
 * compiler's tree as ts-morph's `getDescendantsOfKind` walks it (`getChildren`). Not through
 * ts-morph: wrapping every identifier in a node of its own made each later edit of the file
 * (every import this stage adds or drops re-parses it) walk all of them again.
 */
export function identifiersOutsideImports(file: SourceFile): Set<string> {
  const sourceFile = file.compilerNode;
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    for (const child of node.getChildren(sourceFile)) {
      if (child.kind === SyntaxKind.ImportDeclaration) continue;
      if (child.kind === SyntaxKind.Identifier) names.add(child.getText(sourceFile));
      visit(child);
    }
  };
  visit(sourceFile);
  return names;
}

/**
 * A list left with one name after the others were dropped goes back on one line (prettier never
 * breaks a single name): the serving stage adds its name before it drops the one it replaces.
 */
function collapseLoneName(decl: ImportDeclaration): void {
  const bindings = decl.getImportClause()?.getNamedBindings();
  if (!bindings || !Node.isNamedImports(bindings) || bindings.getElements().length !== 1 || !bindings.getText().includes('\n') || hasComment(decl)) return;
  bindings.replaceWithText(`{ ${bindings.getElements()[0]!.getText()} }`);
}

/**
 * `const ask = server.server.elicitInput.bind(server.server)` (or a destructured method) that only
 * served rewritten calls: removed once nothing references it.
 */
export function dropUnusedAliases(file: SourceFile, aliases: readonly string[]): void {
  for (const name of aliases) {
    for (const statement of file.getDescendantsOfKind(SyntaxKind.VariableStatement)) {
      const decls = statement.getDeclarations();
      if (decls.length !== 1 || decls[0]!.getName() !== name) continue;
      if (!/\b(elicitInput|createMessage|listRoots|requestSampling|sendRequest|request)\b/.test(decls[0]!.getInitializer()?.getText() ?? '')) continue;
      const uses = file.getDescendantsOfKind(SyntaxKind.Identifier).filter((id) => id.getText() === name && !id.getFirstAncestor((a) => a === statement));
      if (uses.length === 0) statement.remove();
    }
  }
}
