import { Project, SyntaxKind } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { widenForInputRequired } from '../../src/engine/rewrite/return-type.js';
import { applyEdits } from '../../src/engine/text-edits.js';

/** The declared return type of `f` in `text`, widened (or what the widening says instead). */
function widened(returnType: string): string {
  const text = `type F = () => ${returnType};\n`;
  const file = new Project({ useInMemoryFileSystem: true }).createSourceFile('/a.ts', text);
  const node = file.getFirstDescendantByKindOrThrow(SyntaxKind.FunctionType).getReturnTypeNodeOrThrow();
  const widening = widenForInputRequired(node);
  if (widening.kind !== 'edits') return widening.kind;
  return applyEdits(text, widening.edits).slice('type F = () => '.length, -';\n'.length);
}

describe('widenForInputRequired', () => {
  it('adds InputRequiredResult inside a Promise', () => {
    expect(widened('Promise<CallToolResult>')).toBe('Promise<CallToolResult | InputRequiredResult>');
  });

  it('widens only the Promise members of a union of a sync and an async result', () => {
    expect(widened('Promise<ServerResult> | ServerResult')).toBe('Promise<ServerResult | InputRequiredResult> | ServerResult');
    expect(widened('CallToolResult | (Promise<CallToolResult>)')).toBe('CallToolResult | (Promise<CallToolResult | InputRequiredResult>)');
  });

  it('keeps the meaning of a function type inside the Promise', () => {
    expect(widened('Promise<() => CallToolResult>')).toBe('Promise<(() => CallToolResult) | InputRequiredResult>');
  });

  it('says when the type already admits the result or has no Promise member', () => {
    expect(widened('Promise<CallToolResult | InputRequiredResult>')).toBe('admits');
    expect(widened('CallToolResult')).toBe('no-promise');
    expect(widened('PromiseLike<CallToolResult>')).toBe('no-promise');
    expect(widened('Promise<any>')).toBe('admits');
    expect(widened('Promise<unknown> | string')).toBe('admits');
  });
});
