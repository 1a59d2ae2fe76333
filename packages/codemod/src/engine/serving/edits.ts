/** Text-level edits shared by the serving rewrites. */
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';

export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Applies edits (non-overlapping) bottom-up so earlier positions stay valid. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  let next = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) next = next.slice(0, edit.start) + edit.text + next.slice(edit.end);
  return next;
}

export function abbreviate(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

export function indentOf(sourceFile: SourceFile, node: Node): string {
  const text = sourceFile.getFullText();
  const lineStart = text.lastIndexOf('\n', node.getStart() - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

export function reindent(text: string, from: string, to: string): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? to + line : line.startsWith(from) ? to + line.slice(from.length) : line))
    .join('\n');
}

/** The statement with its line (indentation and line break) so removal leaves no blank line. */
export function statementRange(sourceFile: SourceFile, node: Node): { start: number; end: number } {
  const text = sourceFile.getFullText();
  let start = node.getStart();
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  if (/^[ \t]*$/.test(text.slice(lineStart, start))) start = lineStart;
  let end = node.getEnd();
  const lineEnd = text.indexOf('\n', end);
  if (lineEnd >= 0 && /^[ \t]*\r?$/.test(text.slice(end, lineEnd))) end = lineEnd + 1;
  return { start, end };
}

/** Gives a new module specifier the quote style of the file's first import. */
export function matchQuoteStyle(specifier: Node, sample: string | undefined): void {
  if (!sample) return;
  const quote = sample[0];
  const current = specifier.getText();
  if ((quote === "'" || quote === '"') && current[0] !== quote) {
    specifier.replaceWithText(quote + current.slice(1, -1) + quote);
  }
}

/** Adds `import { name } from 'module'` unless present (into an existing import of the module if any). */
export function ensureNamedImport(sourceFile: SourceFile, module: string, name: string): void {
  const imports = sourceFile.getImportDeclarations();
  const existing = imports.find((d) => d.getModuleSpecifierValue() === module && !d.isTypeOnly() && !d.getNamespaceImport());
  if (existing) {
    if (!existing.getNamedImports().some((n) => n.getName() === name && !n.isTypeOnly())) existing.addNamedImport(name);
    return;
  }
  const inserted = sourceFile.insertImportDeclaration(imports.length, { moduleSpecifier: module, namedImports: [name] });
  matchQuoteStyle(inserted.getModuleSpecifier(), imports[0]?.getModuleSpecifier().getText());
}

/** Removes the named import of `name` when nothing else in the file mentions it (and the import if it empties). */
export function dropUnusedNamedImport(sourceFile: SourceFile, name: string): void {
  const stillUsed = sourceFile.getDescendantsOfKind(SyntaxKind.Identifier).some((i) => i.getText() === name && !i.getFirstAncestorByKind(SyntaxKind.ImportDeclaration));
  if (stillUsed) return;
  for (const decl of sourceFile.getImportDeclarations()) {
    const named = decl.getNamedImports().filter((n) => n.getName() === name);
    if (named.length === 0) continue;
    for (const n of named) n.remove();
    if (decl.getNamedImports().length === 0 && !decl.getDefaultImport() && !decl.getNamespaceImport()) decl.remove();
  }
}
