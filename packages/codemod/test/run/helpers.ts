/**
 * A run's state built from in-memory sources (syntactic mode: no tsconfig, nothing read from
 * disk), and the stages run on it up to a given one.
 */
import path from 'node:path';
import { loadRun } from '../../src/run/load.js';
import { STAGES } from '../../src/run/stages.js';
import type { RunEnv, RunState } from '../../src/run/state.js';
import type { MigrateOptions } from '../../src/types.js';

export const ROOT = path.resolve('/virtual/project');

export function stateOf(files: Record<string, string>, env: Partial<RunEnv> = {}, options: MigrateOptions = {}): RunState {
  const inputs = Object.entries(files).map(([name, text]) => ({ path: path.join(ROOT, name), text }));
  return loadRun(inputs, { cwd: ROOT, ...options }, { manifests: false, ...env }, () => {});
}

/** Runs the stages in order up to and including `last`. */
export async function runThrough(state: RunState, last: string): Promise<RunState> {
  const end = STAGES.findIndex((s) => s.name === last);
  if (end < 0) throw new Error(`no stage ${last}`);
  for (const stage of STAGES.slice(0, end + 1)) await stage.run(state);
  return state;
}

export const V1_TOOL = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'x', version: '1.0.0' });
  server.registerTool('ask', { description: 'asks' }, async () => {
    const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return server;
}
`;

/** A helper file without any MCP name: the pre-filter keeps it aside until it turns out to reach a site. */
export const ASK_HELPER = `import type { Asker } from './types.js';

export async function askName(server: Asker) {
  return server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
}
`;
