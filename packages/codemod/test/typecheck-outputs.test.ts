/**
 * Every fixture output (and the generated requestState codec modules) typechecks against the real
 * `@modelcontextprotocol/server` types: one strict TypeScript Program over all of them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const CASES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/cases');
const outputs = readdirSync(CASES)
  .filter((f) => /\.output\.(ts|mts|js|mjs|cjs)$/.test(f) || /^mcp-(request-state|client-capabilities|input-responses)\.(ts|mts|js|mjs|cjs)$/.test(f))
  .map((f) => path.join(CASES, f));

describe('fixture outputs typecheck (strict, real @modelcontextprotocol/server types)', () => {
  it('finds outputs', () => {
    expect(outputs.filter((f) => f.endsWith('.output.ts')).length).toBeGreaterThan(10);
  });

  it('has no diagnostics', () => {
    const program = ts.createProgram(outputs, {
      strict: true,
      noEmit: true,
      allowJs: true,
      checkJs: false,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ['node'],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => !d.file || outputs.includes(path.resolve(d.file.fileName)));
    const text = diagnostics.map((d) => {
      const where = d.file && d.start !== undefined ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(text).toEqual([]);
  });

  it('silences nothing: no @ts-ignore, @ts-expect-error or any casts in outputs beyond the input\'s own', () => {
    const program = ts.createProgram(outputs, { allowJs: true, noEmit: true, noResolve: true });
    // the user's own casts (a wrapper of an SDK method written with `as any`) are kept as they were;
    // what may not appear is one the migration added
    const silencers = (text: string) => text.match(/@ts-(ignore|expect-error|nocheck)|\bas any\b|: any\b/g)?.length ?? 0;
    const offenders: string[] = [];
    for (const file of outputs) {
      const text = program.getSourceFile(file)?.getFullText() ?? '';
      const input = file.replace('.output.', '.input.');
      const before = input !== file && existsSync(input) ? silencers(readFileSync(input, 'utf8')) : 0;
      if (silencers(text) > before) offenders.push(path.basename(file));
    }
    expect(offenders).toEqual([]);
  });
});
