/** Merges the names the rewrite uses into the file's imports (ESM `import`, or CJS `require` destructuring). */
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';
import type { ModuleFlavour } from './state-module.js';

export function ensureNamedImports(file: SourceFile, specifier: string, values: string[], types: string[], flavour: ModuleFlavour): void {
  const wantedTypes = flavour === 'ts' ? types.filter((t) => !values.includes(t)) : [];
  if (values.length === 0 && wantedTypes.length === 0) return;
  if (flavour === 'cjs') return ensureRequire(file, specifier, values);
  const decls = file.getImportDeclarations().filter((d) => d.getModuleSpecifierValue() === specifier);
  const imported = new Set<string>();
  for (const d of decls) for (const n of d.getNamedImports()) imported.add((n.getAliasNode() ?? n.getNameNode()).getText());
  const missingValues = values.filter((v) => !imported.has(localOf(v)));
  const missingTypes = wantedTypes.filter((t) => !imported.has(t));
  if (missingValues.length === 0 && missingTypes.length === 0) return;
  const target = decls.find((d) => !d.isTypeOnly() && !d.getNamespaceImport());
  if (target) {
    // one re-parse for the whole import (adding names one by one re-parses the file each time)
    const texts = [...target.getNamedImports().map((n) => n.getText()), ...missingValues, ...missingTypes.map((t) => `type ${t}`)];
    writeNamedImports(target, texts.sort(byImportedName));
    return;
  }
  const names = [...missingValues, ...missingTypes.map((t) => `type ${t}`)];
  const imports = file.getImportDeclarations();
  const quote = imports[0]?.getModuleSpecifier().getText()[0] === '"' ? '"' : "'";
  const text = `import { ${names.join(', ')} } from ${quote}${specifier}${quote};`;
  if (imports.length > 0) imports[imports.length - 1]!.replaceWithText(`${imports[imports.length - 1]!.getText()}\n${text}`);
  else file.insertStatements(0, text);
}

/**
 * Folds the other named-only imports of `specifier` (`import type { Tool } from ...` beside the
 * value import, which the v1-to-v2 upgrade leaves when several v1 modules become one v2 package)
 * into its value import, sorted like the names the rewrite adds. An import carrying a comment, a
 * default or a namespace binding stays as written.
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
      !/\/[/*]/.test(d.getText()),
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
  writeNamedImports(target, texts.sort(byImportedName));
}

/** The local name of an import specifier text (`a as b`, and `a: b` in a require pattern: `b`). */
const localOf = (text: string): string => text.replace(/^.*(\s+as\s+|:\s*)/, '');

const byImportedName = (a: string, b: string) => a.replace(/^type /, '').localeCompare(b.replace(/^type /, ''), 'en', { sensitivity: 'base' });

/** Replaces only the `{ ... }` of the import: quotes, semicolon and a default import stay as written. */
function writeNamedImports(decl: import('ts-morph').ImportDeclaration, names: string[]): void {
  const bindings = decl.getImportClause()?.getNamedBindings();
  if (!bindings) return;
  const multiline = bindings.getText().includes('\n');
  bindings.replaceWithText(multiline ? `{\n  ${names.join(',\n  ')},\n}` : `{ ${names.join(', ')} }`);
}

function ensureRequire(file: SourceFile, specifier: string, values: string[]): void {
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
      const names = [...pattern.getElements().map((e) => e.getText()), ...missing];
      pattern.replaceWithText(`{ ${names.join(', ')} }`);
      return;
    }
  }
  const text = `const { ${values.join(', ')} } = require('${specifier}');`;
  const requires = file.getStatements().filter((s) => Node.isVariableStatement(s) && /\brequire\s*\(/.test(s.getText()));
  const anchor = requires[requires.length - 1];
  if (anchor) anchor.replaceWithText(`${anchor.getText()}\n${text}`);
  else {
    const first = file.getStatements()[0];
    const directive = first && Node.isExpressionStatement(first) && /^['"]use strict['"]/.test(first.getText());
    file.insertStatements(directive ? 1 : 0, text);
  }
}

/** Drops imports of the given names that nothing in the file references any more (legacy result schemas). */
export function dropUnusedImports(file: SourceFile, candidates: readonly string[]): void {
  for (const decl of file.getImportDeclarations()) {
    for (const named of decl.getNamedImports()) {
      const local = (named.getAliasNode() ?? named.getNameNode()).getText();
      if (!candidates.includes(named.getName())) continue;
      const uses = file.getDescendantsOfKind(SyntaxKind.Identifier).filter((id) => id.getText() === local && !id.getFirstAncestorByKind(SyntaxKind.ImportDeclaration));
      if (uses.length === 0) named.remove();
    }
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
