/**
 * The fake sampling answers a driven helper's reader rejects (src/engine/test-mocks/answer-shape.ts)
 * are found in what a fake function returns through the same wrappers resolve.ts's unwrapExpression
 * strips, and through `await`, in arrows and function expressions alike; what a function nested in
 * the fake returns is not the fake's answer.
 */
import { Project } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { drivenRejectedAnswers } from '../src/engine/test-mocks/answer-shape.js';

// each returns an answer with no `role`, which a sampling result requires
const ANSWER = "{ model: 'm', content: { type: 'text', text: 'x' } }";
const fakes = [
  `vi.fn(async () => (${ANSWER}))`,
  `vi.fn(async () => (${ANSWER} as never))`,
  `vi.fn(async () => (${ANSWER} satisfies object))`,
  `vi.fn(async () => (${ANSWER})!)`,
  `vi.fn(async () => <never>${ANSWER})`,
  `vi.fn(async () => await (${ANSWER} as never))`,
  `vi.fn(async function () { return (await Promise.resolve(0), ${ANSWER}) as never; })`,
  `vi.fn(async function () { return await ((await ${ANSWER}) satisfies object)!; })`,
];

function rejectedLines(text: string): number[] {
  const file = new Project({ useInMemoryFileSystem: true }).createSourceFile('summary.test.ts', text);
  return drivenRejectedAnswers(file, false).map((a) => a.line);
}

describe("the fake sampling answers a driven helper's reader rejects", () => {
  it('are seen through parentheses, as, satisfies, !, type assertions and await in what the fake returns', () => {
    const text = fakes.map((fake, i) => `const server${i} = { createMessage: ${fake} };`).join('\n');
    // the comma expression (line 7) returns its last operand, which no unwrap reads: not an answer literal
    expect(rejectedLines(text)).toEqual([1, 2, 3, 4, 5, 6, 8]);
  });

  it("what a function nested in the fake returns is not the fake's answer", () => {
    const text = [
      `const server0 = { createMessage: vi.fn(async () => { const inner = function () { return ${ANSWER}; }; inner(); return { role: 'assistant', model: 'm', content: { type: 'text', text: 'y' } }; }) };`,
      `const server1 = { createMessage: vi.fn(async function () { const inner = () => { return ${ANSWER}; }; inner(); return { role: 'assistant', model: 'm', content: { type: 'text', text: 'y' } }; }) };`,
    ].join('\n');
    expect(rejectedLines(text)).toEqual([]);
  });

  it('an answer a client can send is not among them, whatever wraps it', () => {
    const text = fakes.map((fake, i) => `const server${i} = { createMessage: ${fake.replace("{ model: 'm',", "{ role: 'assistant', model: 'm',")} };`).join('\n');
    expect(rejectedLines(text)).toEqual([]);
  });
});
