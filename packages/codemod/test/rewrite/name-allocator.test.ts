/**
 * Generated names (engine/rewrite/emit.ts NameAllocator): a function's generated locals clash with
 * the file's identifiers and with the generated names of the functions around it or inside it,
 * never with a sibling function's, so two handlers side by side both get `args`, not `args2`.
 */
import { describe, expect, it } from 'vitest';
import { Project, SyntaxKind, type Node } from 'ts-morph';
import { NameAllocator } from '../../src/engine/rewrite/emit.js';
import { camelCase } from '../../src/engine/rewrite/text.js';

const SOURCE = `
export function createServer(server: Server) {
  server.registerTool('a', {}, async (input) => { const inner = async () => input; return inner(); });
  server.registerTool('b', {}, async (input) => input);
}
`;

function functions(): { file: NameAllocator; a: Node; inner: Node; b: Node } {
  const sourceFile = new Project({ useInMemoryFileSystem: true }).createSourceFile('server.ts', SOURCE);
  const [a, inner, b] = sourceFile.getDescendantsOfKind(SyntaxKind.ArrowFunction);
  return { file: new NameAllocator(sourceFile.getFullText().match(/[A-Za-z_$][\w$]*/g) ?? []), a: a!, inner: inner!, b: b! };
}

describe('NameAllocator', () => {
  it('gives sibling functions the same name, numbered only against the file and the functions around or inside', () => {
    const { file, a, inner, b } = functions();
    expect(file.inFunction(a).take('args')).toBe('args');
    expect(file.inFunction(b).take('args')).toBe('args');
    // a function inside `a` sees `a`'s generated names, and `a` sees its nested function's
    expect(file.inFunction(inner).take('args')).toBe('args2');
    expect(file.inFunction(inner).take('replyRequest')).toBe('replyRequest');
    expect(file.inFunction(a).take('replyRequest')).toBe('replyRequest2');
    // the file's own identifiers are taken everywhere, and one function's allocator is one object
    expect(file.inFunction(b).take('input')).toBe('input2');
    expect(file.inFunction(b)).toBe(file.inFunction(b));
  });

  it("keeps a nested block scope's names out of its function", () => {
    const { file, a } = functions();
    const block = file.inFunction(a).clone();
    expect(block.take('resuming')).toBe('resuming');
    expect(file.inFunction(a).has('resuming')).toBe(false);
    expect(file.inFunction(a).take('args')).toBe('args');
    expect(block.take('args')).toBe('args2');
  });
});

describe('camelCase', () => {
  it("spells a tool name's words as one identifier and leaves an identifier alone", () => {
    expect(camelCase('summarize_text')).toBe('summarizeText');
    expect(camelCase('pick-port_reply')).toBe('pickPortReply');
    expect(camelCase('nameRes')).toBe('nameRes');
  });
});
