/**
 * The v1-to-v2 upgrade is kept only where the run needs v2: files the run migrated nothing in, and
 * that no migrated file is connected to by imports, come out as they went in (a marker above a
 * flagged site aside), so a project that compiled still compiles, against the real v1 SDK types.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project, ts } from 'ts-morph';
import { LEGACY_SDK_PACKAGE, TODO_MARKER } from '@mcp-mrtr/surface';
import { migrateProject } from './shared-library-files.js';
import type { FileResult, MigrationResult } from '../src/types.js';
import { TEST_DIR } from './find-helpers.js';

const REPO = path.resolve(TEST_DIR, '../../..');
const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] }, include: ['src'] };

// A low-level server whose tool list is typed loosely: v1 accepts it, the v2 handler type does not.
const LOW_LEVEL = `/**
 * Tool list of the low-level server.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

interface ToolDef { name: string; description: string; inputSchema: Record<string, unknown> }
const TOOLS: ToolDef[] = [{ name: 'echo', description: 'Echo', inputSchema: { type: 'object' } }];

export function createServer() {
  const server = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: String(request.params.arguments?.text) }] }));
  return server;
}
`;

// A helper taking the v1 Server type, whose only request (in a timer) is flagged, and a test that
// builds a v1 Server for it: upgrading the helper alone would make the two Server types clash.
const NOTIFY = `import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

export function scheduleSummary(server: Server, text: string): void {
  setTimeout(() => {
    void server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 });
  }, 10);
}
`;

const NOTIFY_TEST = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { scheduleSummary } from './notify.js';

export function scheduleForTest(): void {
  const server = new Server({ name: 'test', version: '1.0.0' }, { capabilities: {} });
  scheduleSummary(server, 'hello');
}
`;

// A helper typed with v1's handler context and nothing to migrate: the official codemod notes its
// rename of RequestHandlerExtra, a note that goes with the upgrade when the file goes back to v1.
const EXTRA = `import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

export function requestIdOf(extra: RequestHandlerExtra<ServerRequest, ServerNotification>): string {
  return String(extra.requestId);
}
`;

let dir: string;
let result: MigrationResult;
const file = (name: string): FileResult => result.files.find((f) => f.path === path.join(dir, 'src', name))!;

function projectErrors(): string[] {
  const project = new Project({ tsConfigFilePath: path.join(dir, 'tsconfig.json') });
  return project.getPreEmitDiagnostics().filter((d) => d.getCategory() === ts.DiagnosticCategory.Error).map((d) => `${d.getSourceFile()?.getBaseName()}:${d.getLineNumber()}: ${ts.flattenDiagnosticMessageText(d.getMessageText() as string, ' ').slice(0, 120)}`);
}

let errorsBefore: string[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-upgrade-scope-'));
  fs.mkdirSync(path.join(dir, 'src'));
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'scope', type: 'module', dependencies: { [LEGACY_SDK_PACKAGE]: '1.29.0' } }, null, 2) + '\n');
  fs.writeFileSync(path.join(dir, 'src', 'low-level.ts'), LOW_LEVEL);
  fs.writeFileSync(path.join(dir, 'src', 'notify.ts'), NOTIFY);
  fs.writeFileSync(path.join(dir, 'src', 'notify.test.ts'), NOTIFY_TEST);
  fs.writeFileSync(path.join(dir, 'src', 'request-id.ts'), EXTRA);
  errorsBefore = projectErrors();
  result = await migrateProject(['src'], { cwd: dir });
  for (const f of result.files) if (f.output !== undefined) fs.writeFileSync(f.path, f.output);
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('files the run migrated nothing in keep their v1 code', () => {
  it('a low-level server with nothing migrated comes out byte-identical (no stricter v2 handler types)', () => {
    expect(file('low-level.ts').status).toBe('unchanged');
    expect(file('low-level.ts').output).toBe(LOW_LEVEL);
    expect(file('low-level.ts').notes).toBeUndefined();
  });

  it("a file put back to v1 carries none of its upgrade's notes, the official codemod's included", () => {
    expect(file('request-id.ts').output).toBe(EXTRA);
    expect(file('request-id.ts').notes).toBeUndefined();
    expect(file('request-id.ts').officialNotes).toBeUndefined();
  });

  it('a helper whose only request is flagged keeps its v1 Server type, with the marker above the request', () => {
    const notify = file('notify.ts');
    expect(notify.sites.map((s) => [s.line, s.method, s.status])).toEqual([[5, 'sampling/createMessage', 'flagged']]);
    const lines = notify.output!.split('\n');
    expect(lines[4]).toMatch(new RegExp(`^    // ${TODO_MARKER}\\(`));
    expect(lines.filter((_, i) => i !== 4).join('\n')).toBe(NOTIFY);
    expect(file('notify.test.ts').output ?? NOTIFY_TEST).toBe(NOTIFY_TEST);
  });

  it('the project typechecks after the run as before it, and the v1 SDK stays declared, saying why', () => {
    expect(errorsBefore).toEqual([]);
    expect(projectErrors()).toEqual([]);
    const manifest = result.packageJsonChanges.find((c) => c.path === path.join(dir, 'package.json'));
    expect(manifest?.removed ?? {}).toEqual({});
    expect(manifest?.output ?? manifest?.original).toContain(LEGACY_SDK_PACKAGE);
    expect(manifest?.notes?.join(' ')).toMatch(/kept: .*notify\.ts.* still import it/);
    expect(result.summary.sitesFlagged).toBe(1);
  });
});
