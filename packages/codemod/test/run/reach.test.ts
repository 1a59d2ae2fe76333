import { describe, expect, it } from 'vitest';
import { reachStage } from '../../src/run/stages.js';
import { runThrough, stateOf, V1_TOOL } from './helpers.js';

describe('reach stage', () => {
  it("gives each site its reach and where it is reported: the original file's line and column, its handler", async () => {
    const original = `// a comment line the upgrade keeps\n${V1_TOOL}`;
    const state = await runThrough(stateOf({ 'src/server.ts': original }), 'find');
    reachStage(state);
    expect(state.reaches.map((r) => r.handlers.map((h) => h.handler.name))).toEqual([['ask']]);
    const [info] = [...state.siteInfo.values()];
    const line = original.split('\n').findIndex((l) => l.includes('elicitInput')) + 1;
    const column = original.split('\n')[line - 1]!.indexOf('server.server.elicitInput') + 1;
    expect({ line: info!.line, column: info!.column, handler: info!.handler }).toEqual({ line, column, handler: 'ask' });
    expect(info!.snippet).toMatch(/^server\.server\.elicitInput\(\{ message: 'Name\?'/);
  });

  it('a site no handler reaches gets a non-handler context', async () => {
    const state = await runThrough(stateOf({ 'src/timer.ts': "declare const server: any;\nsetInterval(async () => { await server.server.listRoots(); }, 1000);\n" }), 'reach');
    expect(state.reaches.map((r) => [r.handlers.length, r.nonHandlerContexts.map((c) => c.context)])).toEqual([[0, ['timer']]]);
  });
});
