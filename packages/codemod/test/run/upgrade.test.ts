import { describe, expect, it } from 'vitest';
import { upgradeStage } from '../../src/run/stages.js';
import { stateOf, V1_TOOL } from './helpers.js';

describe('upgrade stage', () => {
  it('upgrades a v1 file to v2 and maps its lines back to the original', () => {
    const state = stateOf({ 'src/server.ts': `// header\n${V1_TOOL}` });
    upgradeStage(state);
    const [file] = state.loaded;
    expect(file!.upgraded).toBe(true);
    expect(file!.sourceFile.getFullText()).toContain("from '@modelcontextprotocol/server'");
    expect(file!.sourceFile.getFullText()).not.toContain('@modelcontextprotocol/sdk');
    const current = file!.sourceFile.getFullText().split('\n').findIndex((l) => l.includes('elicitInput')) + 1;
    expect(file!.lineMap.toOriginal(current)).toBe(`// header\n${V1_TOOL}`.split('\n').findIndex((l) => l.includes('elicitInput')) + 1);
  });

  it('leaves v1 CommonJS and every file when upgradeV1 is off', () => {
    const commonJs = "const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');\nconst server = new McpServer({ name: 'x', version: '1' });\nmodule.exports = { server };\n";
    const state = stateOf({ 'src/cjs.js': commonJs });
    upgradeStage(state);
    expect(state.loaded[0]!.upgraded).toBe(false);
    expect(state.loaded[0]!.sourceFile.getFullText()).toBe(commonJs);
    const off = stateOf({ 'src/server.ts': V1_TOOL }, {}, { upgradeV1: false });
    upgradeStage(off);
    expect(off.loaded[0]!.sourceFile.getFullText()).toBe(V1_TOOL);
  });
});
