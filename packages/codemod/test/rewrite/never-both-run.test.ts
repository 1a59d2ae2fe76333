/**
 * Requests that never both run in one call may share a wire key (engine/rewrite/index.ts
 * assignKeys over control-flow.ts neverBothRun): the branches of an `if`, the clauses of a `switch`
 * that leave it, a block leaving the switch with `break` before the second, but not a clause that
 * falls through, nor branches inside a loop (one iteration runs one branch, the next the other).
 */
import { describe, expect, it } from 'vitest';
import { Project, SyntaxKind, type Node } from 'ts-morph';
import { neverBothRun } from '../../src/engine/rewrite/control-flow.js';

/** The body of `f` and its two statements calling `ask`, in source order. */
function asks(body: string): { body: Node; a: Node; b: Node } {
  const file = new Project({ useInMemoryFileSystem: true }).createSourceFile('f.ts', `async function f(op: string, items: string[]) {\n${body}\n}`);
  const fn = file.getFirstDescendantByKindOrThrow(SyntaxKind.FunctionDeclaration);
  const [a, b] = fn.getDescendantsOfKind(SyntaxKind.ExpressionStatement).filter((s) => s.getText().includes('ask('));
  return { body: fn.getBody()!, a: a!, b: b! };
}

describe('neverBothRun', () => {
  it('holds for the branches of an if and for switch clauses that leave the switch', () => {
    const branches = asks(`if (op === 'a') { await ask(1); } else { await ask(2); }`);
    expect(neverBothRun(branches.a, branches.b, branches.body)).toBe(true);
    const clauses = asks(`switch (op) {\n case 'a': { await ask(1); break; }\n case 'b': { await ask(2); break; }\n}`);
    expect(neverBothRun(clauses.a, clauses.b, clauses.body)).toBe(true);
  });

  it('holds when the block of the first request leaves the switch with a break before the second', () => {
    const early = asks(`switch (op) {\n case 'a': {\n  if (items.length > 0) { await ask(1); break; }\n  await ask(2);\n  break;\n }\n}`);
    expect(neverBothRun(early.a, early.b, early.body)).toBe(true);
    // a break of an inner switch does not leave the outer one
    const inner = asks(`switch (op) {\n case 'a': {\n  switch (items[0]) { case 'x': { await ask(1); break; } }\n  await ask(2);\n  break;\n }\n}`);
    expect(neverBothRun(inner.a, inner.b, inner.body)).toBe(false);
    // after the switch the break does not skip anything
    const after = asks(`switch (op) {\n case 'a': { await ask(1); break; }\n}\nawait ask(2);`);
    expect(neverBothRun(after.a, after.b, after.body)).toBe(false);
  });

  it('fails for requests in sequence, a clause falling through, and branches inside a loop', () => {
    const sequence = asks(`await ask(1);\nawait ask(2);`);
    expect(neverBothRun(sequence.a, sequence.b, sequence.body)).toBe(false);
    const fallsThrough = asks(`switch (op) {\n case 'a': await ask(1);\n case 'b': await ask(2); break;\n}`);
    expect(neverBothRun(fallsThrough.a, fallsThrough.b, fallsThrough.body)).toBe(false);
    const loop = asks(`for (const item of items) { if (item === 'a') { await ask(1); } else { await ask(2); } }`);
    expect(neverBothRun(loop.a, loop.b, loop.body)).toBe(false);
  });
});
