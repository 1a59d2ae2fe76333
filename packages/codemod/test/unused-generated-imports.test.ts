/**
 * No import the migration writes goes unused: the TypeScript compiler's noUnusedLocals diagnostics on
 * every fixture output (JavaScript ones checked too), for the names of import declarations and
 * `require` bindings the input did not import already. A user's own unused import is theirs; one the
 * migration adds breaks a project compiled with noUnusedLocals (verify then undoes its migration) or
 * linted for unused imports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const CASES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/cases');
const outputs = readdirSync(CASES)
  .filter((f) => /\.output\.(ts|mts|js|mjs|cjs)$/.test(f))
  .map((f) => path.join(CASES, f));

/** "'x' is declared but its value is never read", "'X' is declared but never used", and the whole-declaration forms. */
const UNUSED = new Set([6133, 6196, 6192, 6198]);

/** The local names a file's import declarations and top-level `require` destructurings bind. */
function importedNames(file: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.name) names.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) names.add(e.name.text);
    }
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (ts.isObjectBindingPattern(d.name) && d.initializer?.getText(file).startsWith('require(')) for (const e of d.name.elements) if (ts.isIdentifier(e.name)) names.add(e.name.text);
      }
    }
  }
  return names;
}

/** The import (or require) statement a diagnostic's position lies in, if any. */
function importStatementAt(file: ts.SourceFile, pos: number): ts.Statement | undefined {
  return file.statements.find(
    (s) => s.getStart(file) <= pos && pos < s.getEnd() && (ts.isImportDeclaration(s) || (ts.isVariableStatement(s) && /=\s*require\(/.test(s.getText(file)))),
  );
}

describe('imports the migration writes are used', () => {
  it('no fixture output has an unused name among the imports the migration added', () => {
    expect(outputs.length).toBeGreaterThan(10);
    const program = ts.createProgram(outputs, { noUnusedLocals: true, allowJs: true, checkJs: true, noEmit: true, noResolve: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext });
    const offenders: string[] = [];
    for (const output of outputs) {
      const file = program.getSourceFile(output)!;
      const input = output.replace('.output.', '.input.');
      const inputFile = ts.createSourceFile(input, readFileSync(input, 'utf8'), ts.ScriptTarget.ES2022, true);
      const before = importedNames(inputFile);
      for (const d of program.getSemanticDiagnostics(file)) {
        if (!UNUSED.has(d.code) || d.start === undefined) continue;
        const statement = importStatementAt(file, d.start);
        if (!statement) continue;
        // a whole declaration unused (6192/6198) names all of its bindings; else the one at the position
        const whole = d.code === 6192 || d.code === 6198;
        const names = whole ? [...importedNames(ts.createSourceFile('x.ts', statement.getText(file), ts.ScriptTarget.ES2022, true))] : [file.text.slice(d.start, d.start + (d.length ?? 0))];
        for (const name of names) if (!before.has(name)) offenders.push(`${path.basename(output)}: ${name}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
