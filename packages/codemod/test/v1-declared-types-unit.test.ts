/**
 * `assertV1DeclaredTypes` on one file typechecked against the real v2 types (resolved from this
 * package's dependencies): which reads it repairs, given the starts of the file's errors. And the
 * advice `v2TypeHint` gives where a read is left unrepaired.
 */
import path from 'node:path';
import { Project, ts, type SourceFile } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { assertV1DeclaredTypes, errorStartsOf } from '../src/engine/v1-declared-types.js';
import { STRUCTURED_CONTENT_ADVICE, v2TypeHint } from '../src/engine/v2-type-hints.js';
import { TEST_DIR } from './find-helpers.js';

let count = 0;
function file(text: string): SourceFile {
  const project = new Project({ compilerOptions: { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, noEmit: true } });
  // beside this package's own files, so that the v2 packages resolve from its node_modules
  return project.createSourceFile(path.join(TEST_DIR, '..', `__v1-declared-types-${process.pid}-${count++}.mts`), text);
}

const HEAD = `import type { CallToolResult } from '@modelcontextprotocol/server';
declare function call(): CallToolResult;
`;

describe('assertV1DeclaredTypes', () => {
  it('repairs a read of v2 structuredContent whose use fails, and nothing else', () => {
    const sf = file(`${HEAD}export const a = call().structuredContent?.metadata;\nexport const fine = call().structuredContent;\n`);
    const notes = assertV1DeclaredTypes(sf, () => errorStartsOf(sf));
    expect(notes).toHaveLength(1);
    expect(sf.getFullText()).toContain('export const a = (call().structuredContent as { [key: string]: unknown } | undefined)?.metadata;');
    expect(sf.getFullText()).toContain('export const fine = call().structuredContent;');
    expect(errorStartsOf(sf)).toEqual([]);
  });

  it('an error in the object the property is read from is not the read\'s', () => {
    const sf = file(`${HEAD}declare function pick(r: CallToolResult, n: number): CallToolResult;\nexport const b = pick(call(), 'x').structuredContent;\n`);
    const starts = errorStartsOf(sf);
    expect(starts).toEqual([sf.getFullText().indexOf("'x'")]);
    expect(assertV1DeclaredTypes(sf, () => starts)).toEqual([]);
  });

  it('a property of the project\'s own type, declared unknown there, is left alone', () => {
    const sf = file(`interface Own { structuredContent?: unknown }\ndeclare const own: Own;\nexport const c = own.structuredContent?.metadata;\n`);
    expect(errorStartsOf(sf)).toHaveLength(1);
    expect(assertV1DeclaredTypes(sf, () => errorStartsOf(sf))).toEqual([]);
    expect(sf.getFullText()).toContain('own.structuredContent?.metadata');
  });

  it('asks for the errors only when the file reads a widened v2 property', () => {
    const sf = file(`${HEAD}export const d = call().content.length;\n`);
    let asked = false;
    assertV1DeclaredTypes(sf, () => {
      asked = true;
      return [];
    });
    expect(asked).toBe(false);
  });
});

describe('v2TypeHint', () => {
  it('names the v2 change behind "does not exist on type \'{}\'" on a structuredContent read', () => {
    const sf = file(`${HEAD}export const e = call().structuredContent?.metadata;\n`);
    const [start] = errorStartsOf(sf);
    expect(v2TypeHint(sf, start!)).toBe(STRUCTURED_CONTENT_ADVICE);
    expect(v2TypeHint(sf, sf.getText().indexOf('call()'))).toBeUndefined();
  });
});

describe('assertV1DeclaredTypes on a v2 client result', () => {
  it('repairs a read of the structuredContent `callTool` returns', () => {
    const sf = file(`import type { Client } from '@modelcontextprotocol/client';\ndeclare const client: Client;\nexport const f = async () => (await client.callTool({ name: 'x' })).structuredContent?.metadata;\n`);
    expect(errorStartsOf(sf)).toHaveLength(1);
    expect(assertV1DeclaredTypes(sf, () => errorStartsOf(sf))).toHaveLength(1);
    expect(sf.getFullText()).toContain(`((await client.callTool({ name: 'x' })).structuredContent as { [key: string]: unknown } | undefined)?.metadata`);
    expect(errorStartsOf(sf)).toEqual([]);
  });
});
