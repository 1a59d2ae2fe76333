import { describe, expect, it } from 'vitest';
import type { Project } from 'ts-morph';
import type { Reach, RewriteOutcome } from '../../src/engine/model.js';
import { verifyStage } from '../../src/run/verify-stage.js';
import { runThrough, stateOf, V1_TOOL } from './helpers.js';

/** A rewrite stand-in that replaces each site's statement and reports it migrated. */
const replaceStatement = (replacement: string) => (_project: Project, reaches: Reach[]): RewriteOutcome => {
  for (const reach of reaches) reach.site.node.getFirstAncestor((a) => a.getKindName() === 'VariableStatement')?.replaceWithText(replacement);
  return { decisions: reaches.map((r) => ({ site: r.site, status: 'migrated' })), createdFiles: [] };
};

describe('verify stage', () => {
  it('restores a rewritten file that does not parse and flags its sites', async () => {
    const state = await runThrough(stateOf({ 'src/server.ts': V1_TOOL }, { rewrite: replaceStatement('const answer = (;') }), 'serving');
    const file = state.loaded[0]!;
    expect(file.sourceFile.getFullText()).toContain('const answer = (;');
    verifyStage(state);
    expect(file.sourceFile.getFullText()).not.toContain('const answer = (;');
    expect([...state.decisionBySite.values()].map((d) => [d.status, d.reason?.replace(/\(.*/, '')])).toEqual([['flagged', 'rewrite not verified: the rewritten file does not parse ']]);
    // nothing migrated in it any more: back to its v1 text
    expect(file.backToV1).toBe(true);
    expect(file.sourceFile.getFullText()).toBe(V1_TOOL);
  });

  it('keeps a rewrite that parses (syntactic mode: no types to check)', async () => {
    const state = await runThrough(stateOf({ 'src/server.ts': V1_TOOL }, { rewrite: replaceStatement("const answer = { action: 'accept' };") }), 'serving');
    verifyStage(state);
    expect(state.loaded[0]!.sourceFile.getFullText()).toContain("const answer = { action: 'accept' };");
    expect([...state.decisionBySite.values()].map((d) => d.status)).toEqual(['migrated']);
  });
});
