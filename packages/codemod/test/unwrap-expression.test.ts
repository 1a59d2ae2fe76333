import { Project, SyntaxKind, ts, type Node } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { unwrapExpression, unwrapTsExpression } from '../src/engine/find/resolve.js';
import { findTestMockNodes } from '../src/engine/test-mocks/find.js';

// Each initializer wraps `vi.fn()` (or leaves it bare); `kept` are wrappers neither unwrap strips.
const wrapped = [
  'vi.fn()',
  '(vi.fn())',
  'vi.fn() as never',
  'vi.fn()!',
  'vi.fn() satisfies unknown',
  '<never>vi.fn()',
  '((<any>vi.fn())! as unknown satisfies unknown)',
  '(vi.fn() as unknown as never)!',
];
const kept = ['await vi.fn()', 'void vi.fn()', 'vi.fn()?.x', '[vi.fn()][0]'];

function initializers(snippets: string[]): Node[] {
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile('wrapped.ts', snippets.map((s, i) => `const v${i} = ${s};`).join('\n'));
  return file.getVariableDeclarations().map((d) => d.getInitializerOrThrow());
}

describe('unwrapExpression (ts-morph) and unwrapTsExpression (compiler tree) strip the same wrappers', () => {
  it('reach the same node through parentheses, as, !, satisfies and type assertions', () => {
    for (const init of initializers(wrapped)) {
      const morph = unwrapExpression(init);
      expect(morph.getKind(), init.getText()).toBe(SyntaxKind.CallExpression);
      expect(morph.getText()).toBe('vi.fn()');
      expect(unwrapTsExpression(init.compilerNode as ts.Expression), init.getText()).toBe(morph.compilerNode);
    }
  });

  it('leave every other expression as it is', () => {
    for (const init of initializers(kept)) {
      expect(unwrapExpression(init), init.getText()).toBe(init);
      expect(unwrapTsExpression(init.compilerNode as ts.Expression), init.getText()).toBe(init.compilerNode);
    }
  });

  it('the test-mock finder sees a mock through each of those wrappers', () => {
    const text = [
      "import { vi } from 'vitest';",
      "import { server } from './server.js';",
      ...wrapped.map((w) => `server.server.createMessage = ${w};`),
    ].join('\n');
    const { matches } = findTestMockNodes('src/server.test.ts', text);
    expect(matches.map((m) => m.name)).toEqual(wrapped.map(() => 'createMessage'));
  });
});
