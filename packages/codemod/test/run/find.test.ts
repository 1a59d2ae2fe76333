import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findStage } from '../../src/run/stages.js';
import { ASK_HELPER, ROOT, runThrough, stateOf, V1_TOOL } from './helpers.js';

describe('find stage', () => {
  it('finds the sites and the handlers of the loaded files', async () => {
    const state = await runThrough(stateOf({ 'src/server.ts': V1_TOOL }), 'find');
    expect(state.sites.map((s) => [s.method, s.line])).toEqual([['elicitation/create', 6]]);
    expect(state.handlers.map((h) => h.name)).toEqual(['ask']);
    expect([...state.fileByPath.keys()]).toEqual([path.join(ROOT, 'src/server.ts')]);
  });

  it('loads a file the pre-filter kept aside once it turns out to import, through other files, a file with a site', async () => {
    const state = stateOf({
      'src/ask.ts': ASK_HELPER,
      'src/middle.ts': "import { askName } from './ask.js';\nexport const viaMiddle = (s: any) => askName(s);\n",
      'src/top.ts': "import { viaMiddle } from './middle.js';\nexport const viaTop = (s: any) => viaMiddle(s);\n",
      'src/unrelated.ts': 'export const x = 1;\n',
    });
    const names = () => state.loaded.map((f) => path.basename(f.path)).sort();
    // top.ts names nothing of MCP and imports no file with a candidate site directly: kept aside
    expect(names()).toEqual(['ask.ts', 'middle.ts']);
    findStage(state);
    expect(names()).toEqual(['ask.ts', 'middle.ts', 'top.ts']);
    expect([...state.fileByPath.keys()].map((p) => path.basename(p)).sort()).toEqual(['ask.ts', 'middle.ts', 'top.ts']);
    expect(state.sites.map((s) => path.basename(s.sourceFile.getFilePath()))).toEqual(['ask.ts']);
    // the file nothing needs stays out, reported unchanged
    expect(state.results.get(path.join(ROOT, 'src/unrelated.ts'))).toEqual({ path: path.join(ROOT, 'src/unrelated.ts'), status: 'unchanged', sites: [] });
    expect(state.deferred.size).toBe(0);
  });

  it('records the mcp-mrtr-ignore suppressions of the sites they hold', async () => {
    const suppressed = V1_TOOL.replace('    const answer =', '    // mcp-mrtr-ignore: asked on purpose\n    const answer =');
    const state = await runThrough(stateOf({ 'src/server.ts': suppressed }), 'find');
    expect([...state.suppressedSites.values()].map((c) => c.reason)).toEqual(['asked on purpose']);
  });
});
