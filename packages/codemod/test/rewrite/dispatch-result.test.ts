import { Node, Project, SyntaxKind } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { passThroughEdit, resultRoute } from '../../src/engine/rewrite/dispatch-result.js';
import { applyEdits } from '../../src/engine/text-edits.js';

/** The route of the `tool(...)` call in `dispatcher`'s body. */
function routeOf(body: string) {
  const text = `declare function tool(): Promise<unknown>;\nconst seen: string[] = [];\nexport const dispatcher = async () => {\n${body}\n};\n`;
  const file = new Project({ useInMemoryFileSystem: true }).createSourceFile('/a.ts', text);
  const call = file.getDescendantsOfKind(SyntaxKind.CallExpression).find((c) => c.getExpression().getText() === 'tool')!;
  const fn = file.getFirstDescendant((n) => Node.isArrowFunction(n))!;
  return { text, route: resultRoute(call, fn) };
}

describe('resultRoute', () => {
  it('a returned call, directly or through a variable that is only returned', () => {
    expect(routeOf('  return await tool();').route.kind).toBe('returned');
    expect(routeOf('  const r = await tool();\n  return r;').route.kind).toBe('returned');
  });

  it('a result wrapped by pure code that returns on every path gets the guard right after its declaration', () => {
    const { text, route } = routeOf("  const r = await tool();\n  if (typeof r === 'string') return { content: [{ type: 'text', text: r }] };\n  return { content: [{ type: 'text', text: JSON.stringify(r) }] };");
    expect(route.kind).toBe('post-processed');
    if (route.kind !== 'post-processed') return;
    expect(applyEdits(text, [passThroughEdit(route)])).toContain('  const r = await tool();\n  if (isInputRequiredResult(r)) return r;\n  if (typeof r');
  });

  it('post-processing with an effect, or that can fall through, is blocked with the reason', () => {
    const effect = routeOf("  const r = await tool();\n  seen.push('x');\n  return { content: [], r };").route;
    expect(effect).toEqual({ kind: 'blocked', reason: "is stored in `r` and post-processed by code that runs `seen.push('x')` (line 5), which has effects and must not be skipped" });
    const through = routeOf("  const r = await tool();\n  if (r) return { content: [] };").route;
    expect(through).toEqual({ kind: 'blocked', reason: 'is stored in `r` and post-processed by code that does not return on every path (after line 4)' });
  });
});
