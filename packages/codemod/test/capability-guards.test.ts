/**
 * Capability checks away from the request (a guard helper reading getClientCapabilities(), tools
 * registered in oninitialized when the client declared a capability): switching the hosting to
 * serveStdio would turn their features off for 2026-07-28 clients (no session, no capabilities), so
 * the hosting stays and both it and each check are flagged with that reason.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import type { FileResult } from '../src/types.js';
import { migrateTempProject, removeTempProjects, type MigratedProject } from './temp-project.js';

vi.setConfig({ testTimeout: 900_000 });


const GUARD = `import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

export function supportsSampling(server: Server): boolean {
  return !!server.getClientCapabilities()?.sampling;
}
`;

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { supportsSampling } from './guard.js';

const server = new McpServer({ name: 'guarded', version: '1.0.0' });

server.registerTool('mode', { description: 'Says how answers are made' }, async () => ({
  content: [{ type: 'text', text: supportsSampling(server.server) ? 'with sampling' : 'plain' }],
}));

server.server.oninitialized = () => {
  if (server.server.getClientCapabilities()?.elicitation) {
    server.registerTool('confirm', { description: 'Asks first' }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
  }
};

await server.connect(new StdioServerTransport());
`;

let project: MigratedProject;
const file = (name: string): FileResult => project.file(name)!;

beforeAll(async () => {
  project = await migrateTempProject('guards', { 'src/guard.ts': GUARD, 'src/server.ts': SERVER });
}, 900_000);

afterAll(removeTempProjects);

describe('capability checks on the session keep the hosting as it is, flagged with the true reason', () => {
  it('does not switch to serveStdio, and says which checks would turn off', () => {
    const server = file('server.ts');
    expect(server.output).toContain('await server.connect(new StdioServerTransport());');
    expect(server.output).not.toMatch(/^serveStdio\(/m);
    const hosting = server.sites.find((s) => s.method === 'serving' && s.reason!.startsWith('server.connect'))!;
    expect(hosting.status).toBe('flagged');
    expect(hosting.reason).toMatch(/not rewritten: supportsSampling \(src\/guard\.ts:4\), the oninitialized callback \(src\/server\.ts:12\) read the session's client capabilities/);
    expect(hosting.reason).toMatch(/a 2026-07-28 request has no session, so the check would see no capability and turn the feature off for clients that declare it/);
  });

  it('marks each check at its line, in its own file', () => {
    const guard = file('guard.ts');
    expect(guard.sites.map((s) => [s.line, s.method, s.status])).toEqual([[4, 'serving', 'flagged']]);
    expect(guard.sites[0]!.reason).toMatch(/^capability check on the session \(getClientCapabilities\(\)\): a 2026-07-28 request has no session/);
    const lines = guard.output!.split('\n');
    expect(lines[lines.findIndex((l) => l.includes('return !!server.getClientCapabilities()')) - 1]).toMatch(new RegExp(`^  // ${TODO_MARKER}\\(capability check on the session`));
    const server = file('server.ts');
    expect(server.sites.filter((s) => s.reason!.startsWith('capability check on the session')).map((s) => s.line)).toEqual([12]);
  });
});
