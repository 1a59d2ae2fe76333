import { describe, expect, it } from 'vitest';
import type { Project } from 'ts-morph';
import type { Reach, RewriteOutcome } from '../../src/engine/model.js';
import { rewriteStage } from '../../src/run/rewrite.js';
import { runThrough, stateOf, V1_TOOL } from './helpers.js';

describe('rewrite stage', () => {
  it('snapshots the texts before the rewrite and records one decision per site', async () => {
    const state = await runThrough(stateOf({ 'src/server.ts': V1_TOOL }), 'reach');
    const upgraded = state.loaded[0]!.sourceFile.getFullText();
    await rewriteStage(state);
    expect(state.preRewrite.get(state.loaded[0]!.path)).toBe(upgraded);
    expect([...state.decisionBySite.values()].map((d) => d.status)).toEqual(['migrated']);
    expect(state.loaded[0]!.sourceFile.getFullText()).not.toContain('elicitInput(');
    expect(state.createdFiles.map((f) => f.split('/').pop())).toEqual(['mcp-client-capabilities.ts', 'mcp-input-responses.ts']);
  });

  it('gives the rewrite only the reaches it may take: a suppressed site is not passed, and is decided suppressed', async () => {
    const suppressed = V1_TOOL.replace('    const answer =', '    // mcp-mrtr-ignore: asked on purpose\n    const answer =');
    const seen: Reach[][] = [];
    const state = await runThrough(
      stateOf({ 'src/server.ts': suppressed }, { rewrite: (_project: Project, reaches: Reach[]): RewriteOutcome => (seen.push(reaches), { decisions: [], createdFiles: [] }) }),
      'reach',
    );
    await rewriteStage(state);
    expect(seen).toEqual([[]]);
    expect([...state.decisionBySite.values()].map((d) => [d.status, d.reason])).toEqual([['suppressed', 'asked on purpose']]);
  });

  it('puts every file back and flags every site when the rewrite throws', async () => {
    const state = await runThrough(
      stateOf({
        'src/server.ts': V1_TOOL,
      }, {
        rewrite: (project: Project): RewriteOutcome => {
          project.getSourceFiles()[0]!.insertText(0, '// half-done\n');
          throw new Error('boom');
        },
      }),
      'reach',
    );
    const before = state.loaded[0]!.sourceFile.getFullText();
    await rewriteStage(state);
    expect(state.loaded[0]!.sourceFile.getFullText()).toBe(before);
    expect([...state.decisionBySite.values()].map((d) => [d.status, d.reason])).toEqual([['flagged', 'rewrite failed: boom']]);
  });
});
