/**
 * A server that uses the v1 experimental tasks API, which the v2 SDK has in no form: the files its
 * imports connect it to stay on v1 (the upgrade would delete the task imports and leave code that
 * does not compile, and the MRTR form needs v2), their requests are flagged with that reason, and a
 * file the run migrates in another part of the project is migrated as before. The project compiles
 * after the run as it did before, against the real SDK types.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project, ts } from 'ts-morph';
import { LEGACY_SDK_PACKAGE, TARGET_SERVER_PACKAGE, TODO_MARKER } from '@mcp-mrtr/surface';
import { migrateProject } from './shared-library-files.js';
import type { FileResult, MigrationResult } from '../src/types.js';
import { TEST_DIR } from './find-helpers.js';
import { makeTempProject, removeTempProjects } from './temp-project.js';


const REPO = path.resolve(TEST_DIR, '../../..');
const TSCONFIG = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] }, include: ['src'] };

const TASK_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { registerConfirm } from './confirm.js';

export function createServer(): McpServer {
  const server = new McpServer({ name: 'jobs', version: '1.0.0' }, { capabilities: { tasks: { requests: { tools: { call: {} } } } }, taskStore: new InMemoryTaskStore() });
  registerConfirm(server);
  return server;
}
`;

const CONFIRM = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function registerConfirm(server: McpServer): void {
  server.registerTool('confirm', { description: 'asks before going on' }, async () => {
    const answer = await server.server.elicitInput({ message: 'Go on?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
}
`;

// Another server of the project, connected to the first by no import.
const GREETER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function createGreeter(): McpServer {
  const server = new McpServer({ name: 'greeter', version: '1.0.0' });
  server.registerTool('greet', { description: 'greets' }, async () => {
    const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return server;
}
`;

let dir: string;
let result: MigrationResult;
const file = (name: string): FileResult => result.files.find((f) => f.path === path.join(dir, 'src', name))!;
const withoutMarkers = (text: string) => text.split('\n').filter((l) => !l.includes(TODO_MARKER)).join('\n');

function projectErrors(): string[] {
  return errorsOf(dir);
}

function errorsOf(projectDir: string): string[] {
  const project = new Project({ tsConfigFilePath: path.join(projectDir, 'tsconfig.json') });
  return project.getPreEmitDiagnostics().filter((d) => d.getCategory() === ts.DiagnosticCategory.Error).map((d) => `${d.getSourceFile()?.getBaseName()}:${d.getLineNumber()}: ${ts.flattenDiagnosticMessageText(d.getMessageText() as string, ' ').slice(0, 120)}`);
}

let errorsBefore: string[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-v1-hold-back-'));
  fs.mkdirSync(path.join(dir, 'src'));
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'hold-back', type: 'module', dependencies: { [LEGACY_SDK_PACKAGE]: '1.29.0' } }, null, 2) + '\n');
  fs.writeFileSync(path.join(dir, 'src', 'server.ts'), TASK_SERVER);
  fs.writeFileSync(path.join(dir, 'src', 'confirm.ts'), CONFIRM);
  fs.writeFileSync(path.join(dir, 'src', 'greeter.ts'), GREETER);
  errorsBefore = projectErrors();
  result = await migrateProject(['src'], { cwd: dir });
  for (const f of result.files) if (f.output !== undefined) fs.writeFileSync(f.path, f.output);
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a use of the v1 tasks API keeps the files connected to it on v1', () => {
  it('the project compiled before and compiles after', () => {
    expect(errorsBefore).toEqual([]);
    expect(projectErrors()).toEqual([]);
  });

  it('the file using it keeps its v1 code and task store, with a marker and a report entry at the import', () => {
    expect(withoutMarkers(file('server.ts').output!)).toBe(TASK_SERVER);
    const held = file('server.ts').sites.find((s) => s.method === 'v1-only-api')!;
    expect(held).toMatchObject({ line: 2, status: 'flagged' });
    expect(held.reason).toContain('line 2 loads `@modelcontextprotocol/sdk/experimental/tasks`');
    expect(held.reason).toContain('line 6 passes the `taskStore` server option');
    expect(held.reason).toContain('the v2 SDK has no tasks API');
    expect(held.reason).toContain('this file and the file sharing SDK objects with it (src/confirm.ts) stay on v1');
    expect(held.advice).toContain('serve the task tools as plain tools');
    expect(file('server.ts').output).toContain(`${TODO_MARKER}(kept on the v1 SDK`);
  });

  it('the request in a file it imports is flagged with that reason, not migrated', () => {
    expect(withoutMarkers(file('confirm.ts').output!)).toBe(CONFIRM);
    const site = file('confirm.ts').sites.find((s) => s.method === 'elicitation/create')!;
    expect(site.status).toBe('flagged');
    expect(site.reason).toContain('the MRTR form needs the v2 SDK');
    expect(site.reason).toContain('stays on v1 with src/server.ts, where src/server.ts:2 loads `@modelcontextprotocol/sdk/experimental/tasks`, the v1 tasks API');
    // the true obstacle: the server it registers on is the held file's v1 server
    expect(site.reason).toContain("src/server.ts:3 imports `registerConfirm` (its type has the SDK's `McpServer`) from this file");
    expect(site.reason).toContain('a v1 server cannot serve the inputRequired result of a v2 handler');
  });

  it('a server connected to it by no import is migrated as before', () => {
    expect(file('greeter.ts').sites.find((s) => s.method === 'elicitation/create')?.status).toBe('migrated');
    expect(file('greeter.ts').output).toContain(TARGET_SERVER_PACKAGE);
    expect(file('greeter.ts').output).not.toContain(LEGACY_SDK_PACKAGE);
  });

  it('package.json keeps the v1 SDK the held files import, beside the v2 package', () => {
    const change = result.packageJsonChanges.find((c) => c.path === path.join(dir, 'package.json'));
    expect(change?.removed ?? {}).not.toHaveProperty(LEGACY_SDK_PACKAGE);
    expect(change?.added ?? {}).toHaveProperty(TARGET_SERVER_PACKAGE);
  });
});

// The same task server, now also sharing a plain helper with the greeter: the greeter is in its
// import component, but nothing of the SDK crosses the helper's import.
const LABEL = `export function label(name: string): string {
  return \`[\${name}]\`;
}
`;

const TASK_SERVER_WITH_LABEL = TASK_SERVER.replace("import { registerConfirm } from './confirm.js';", "import { registerConfirm } from './confirm.js';\nimport { label } from './label.js';").replace("name: 'jobs'", 'name: label(\'jobs\')');

const GREETER_WITH_LABEL = GREETER.replace("import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';", "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { label } from './label.js';").replace("text: answer.action", 'text: label(answer.action)');

// A greeter whose handler the task server also calls itself: the handler's type has no SDK type on
// v1, but its migration gives it one (its result can be an inputRequired result), which the task
// server's v1 code does not expect.
const GREETER_CALLED = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

const server = new McpServer({ name: 'greeter', version: '1.0.0' });

export const greet = async () => {
  const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  return { content: [{ type: 'text' as const, text: answer.action }] };
};

server.registerTool('greet', { description: 'greets' }, greet);

export function createGreeter(): McpServer {
  return server;
}
`;

const TASK_SERVER_CALLING = TASK_SERVER.replace("import { registerConfirm } from './confirm.js';", "import { registerConfirm } from './confirm.js';\nimport { greet } from './greeter.js';") +
  `
export async function greetingCount(): Promise<number> {
  const result = await greet();
  return result.content.length;
}
`;

describe('files of its import component that share no SDK object with it', () => {
  async function migrated(files: Record<string, string>) {
    const project = makeTempProject('v1-hold-back-split', files, { packageJson: { name: 'hold-back-split', type: 'module', dependencies: { [LEGACY_SDK_PACKAGE]: '1.29.0' } } });
    const errorsBeforeRun = errorsOf(project);
    const run = await migrateProject(['src'], { cwd: project });
    for (const f of run.files) if (f.output !== undefined) fs.writeFileSync(f.path, f.output);
    return { run, errorsBeforeRun, errorsAfter: errorsOf(project), of: (name: string) => run.files.find((f) => f.path === path.join(project, 'src', name))! };
  }

  afterAll(() => removeTempProjects());

  it('are migrated when the type checker accepts the split: a plain helper shared with another server', async () => {
    const { errorsBeforeRun, errorsAfter, of } = await migrated({ 'src/server.ts': TASK_SERVER_WITH_LABEL, 'src/confirm.ts': CONFIRM, 'src/label.ts': LABEL, 'src/greeter.ts': GREETER_WITH_LABEL });
    expect(errorsBeforeRun).toEqual([]);
    expect(errorsAfter).toEqual([]);
    expect(of('greeter.ts').sites.find((s) => s.method === 'elicitation/create')?.status).toBe('migrated');
    expect(of('greeter.ts').output).toContain(TARGET_SERVER_PACKAGE);
    expect(of('greeter.ts').output).toContain("import { label } from './label.js';");
    expect(of('label.ts').status).toBe('unchanged');
    expect(withoutMarkers(of('server.ts').output!)).toBe(TASK_SERVER_WITH_LABEL);
    expect(of('server.ts').sites.find((s) => s.method === 'v1-only-api')?.reason).toContain('this file and the file sharing SDK objects with it (src/confirm.ts) stay on v1');
    expect(of('confirm.ts').sites.find((s) => s.method === 'elicitation/create')?.status).toBe('flagged');
  });

  it('stay on v1 with it when the split leaves a type error, which the reason names', async () => {
    const { errorsBeforeRun, errorsAfter, of } = await migrated({ 'src/server.ts': TASK_SERVER_CALLING, 'src/confirm.ts': CONFIRM, 'src/greeter.ts': GREETER_CALLED });
    expect(errorsBeforeRun).toEqual([]);
    expect(errorsAfter).toEqual([]);
    expect(withoutMarkers(of('greeter.ts').output ?? GREETER_CALLED)).toBe(GREETER_CALLED);
    const site = of('greeter.ts').sites.find((s) => s.method === 'elicitation/create')!;
    expect(site.status).toBe('flagged');
    expect(site.reason).toContain('keeping only the files that share SDK objects with src/server.ts on v1 was refused: it leaves a type error in src/server.ts');
  });
});
