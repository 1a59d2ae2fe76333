/**
 * A request helper that a tool calls and a unit test calls directly. When the test's calls can be
 * driven through the rewritten helper (it sends on an object a parameter holds and the test calls it
 * plainly, or it is a method sending on an object its instance's field holds and the test calls it
 * on an instance it names), the helper is rewritten once, in place, for both; otherwise every
 * request of it stays flagged with the test's reason, why the call cannot be driven, and each
 * handler's entry naming that request's own line.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SiteResult } from '../../src/types.js';
import { migrateInPlace, tempProject } from '../security/temp-project.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function migrate(name: string, files: Record<string, string>): Promise<{ dir: string; sites: (file: string) => SiteResult[] }> {
  const dir = tempProject(name, files);
  dirs.push(dir);
  const result = await migrateInPlace(dir);
  return { dir, sites: (file) => result.files.find((f) => f.path.endsWith(file))?.sites.filter((s) => s.method === 'elicitation/create') ?? [] };
}

const CLASS_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export class Preferences {
  constructor(private readonly server: McpServer) {}

  async askName(): Promise<string> {
    const answer = await this.server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return answer.action === 'accept' ? String(answer.content?.name) : 'anonymous';
  }

  async askColour(): Promise<string> {
    const answer = await this.server.server.elicitInput({ message: 'Colour?', requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } } });
    return answer.action === 'accept' ? String(answer.content?.colour) : 'grey';
  }
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'prefs', version: '1.0.0' });
  const preferences = new Preferences(server);
  server.registerTool('profile', { description: 'Builds a profile' }, async () => {
    const name = await preferences.askName();
    const colour = await preferences.askColour();
    return { content: [{ type: 'text', text: \`\${name} likes \${colour}\` }] };
  });
  return server;
}
`;

const CLASS_TEST = `import { expect, it, vi } from 'vitest';
import { Preferences } from './prefs.js';

it('asks the name', async () => {
  const elicitInput = vi.fn().mockResolvedValue({ action: 'accept', content: { name: 'Ada' } });
  const preferences = new Preferences({ server: { elicitInput } } as never);
  expect(await preferences.askName()).toBe('Ada');
  expect(await preferences.askColour()).toBe('undefined');
});
`;

const FUNCTION_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export async function askName(server: McpServer): Promise<string> {
  const answer = await server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
  return answer.action === 'accept' ? String(answer.content?.name) : 'anonymous';
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'greet', version: '1.0.0' });
  server.registerTool('greet', { description: 'Greets' }, async () => {
    const name = await askName(server);
    return { content: [{ type: 'text', text: \`Hello \${name}\` }] };
  });
  return server;
}
`;

const FUNCTION_TEST = `import { expect, it, vi } from 'vitest';
import { askName } from './greet.js';

it('asks the name', async () => {
  const elicitInput = vi.fn().mockResolvedValue({ action: 'accept', content: { name: 'Ada' } });
  expect(await askName({ server: { elicitInput } } as never)).toBe('Ada');
});
`;

const STATIC_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export class Greeter {
  static server: McpServer;

  static async askName(): Promise<string> {
    const answer = await this.server.server.elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return answer.action === 'accept' ? String(answer.content?.name) : 'anonymous';
  }
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'greet', version: '1.0.0' });
  Greeter.server = server;
  server.registerTool('greet', { description: 'Greets' }, async () => {
    const name = await Greeter.askName();
    return { content: [{ type: 'text', text: \`Hello \${name}\` }] };
  });
  return server;
}
`;

const STATIC_TEST = `import { expect, it, vi } from 'vitest';
import { Greeter } from './greet.js';

it('asks the name', async () => {
  const elicitInput = vi.fn().mockResolvedValue({ action: 'accept', content: { name: 'Ada' } });
  Greeter.server = { server: { elicitInput } } as never;
  expect(await Greeter.askName()).toBe('Ada');
});
`;

const JS_CLASS_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export class Reminders {
  constructor(server) {
    this.server = server;
  }

  async askWhen(task) {
    const answer = await this.server.server.elicitInput({ message: \`When for \${task}?\`, requestedSchema: { type: 'object', properties: { when: { type: 'string' } } } });
    return answer.action === 'accept' ? String(answer.content?.when) : 'later';
  }
}

export function createServer() {
  const server = new McpServer({ name: 'remind', version: '1.0.0' });
  const reminders = new Reminders(server);
  server.registerTool('remind', { description: 'Sets a reminder' }, async () => {
    const when = await reminders.askWhen('laundry');
    return { content: [{ type: 'text', text: \`Reminder at \${when}\` }] };
  });
  return server;
}
`;

const JS_CLASS_TEST = `import { expect, it, vi } from 'vitest';
import { Reminders } from './remind.js';

it('asks when', async () => {
  const elicitInput = vi.fn().mockResolvedValue({ action: 'accept', content: { when: 'noon' } });
  const reminders = new Reminders({ server: { elicitInput } });
  expect(await reminders.askWhen('laundry')).toBe('noon');
});
`;

describe('request helpers that unit tests call directly', () => {
  it('a method sending on this.server, called on an instance the test names, is rewritten in place once and the test drives it bound to that instance', async () => {
    const { dir, sites } = await migrate('test-called-class', { 'prefs.ts': CLASS_SERVER, 'prefs.test.ts': CLASS_TEST });
    expect(sites('prefs.ts').map((s) => [s.line, s.status])).toEqual([
      [7, 'migrated'],
      [12, 'migrated'],
    ]);
    const server = readFileSync(join(dir, 'prefs.ts'), 'utf8');
    expect(server.match(/async askName\(/g)).toHaveLength(1);
    expect(server).toContain('async askName(ctx: ServerContext, answerKey: string)');
    expect(server).not.toContain('elicitInput(');
    const test = readFileSync(join(dir, 'prefs.test.ts'), 'utf8');
    expect(test).toContain("expect(await callHelperAnsweringInputRequests(preferences.askName.bind(preferences), [], () => preferences['server'].server, 'elicitInput')).toBe('Ada');");
    expect(test).toContain("expect(await callHelperAnsweringInputRequests(preferences.askColour.bind(preferences), [], () => preferences['server'].server, 'elicitInput')).toBe('undefined');");
  });

  it('a JavaScript method sending on a field its constructor assigns without declaring it is rewritten, and the test drives it', async () => {
    const { dir, sites } = await migrate('test-called-js-class', { 'remind.js': JS_CLASS_SERVER, 'remind.test.js': JS_CLASS_TEST });
    expect(sites('remind.js').map((s) => [s.line, s.status])).toEqual([[9, 'migrated']]);
    expect(readFileSync(join(dir, 'remind.js'), 'utf8')).toContain('async askWhen(task, ctx, answerKey) {');
    const test = readFileSync(join(dir, 'remind.test.js'), 'utf8');
    expect(test).toContain("expect(await callHelperAnsweringInputRequests(reminders.askWhen.bind(reminders), ['laundry'], () => reminders['server'].server, 'elicitInput')).toBe('noon');");
    expect(test).toContain('async function callHelperAnsweringInputRequests(helper, args, receiver, method) {');
  });

  it('a method whose test calls it on an instance it does not hold in a variable stays flagged per request with why', async () => {
    const test = CLASS_TEST.replace("const preferences = new Preferences({ server: { elicitInput } } as never);\n  expect(await preferences.askName())", "expect(await new Preferences({ server: { elicitInput } } as never).askName())").replace(/\n  expect\(await preferences\.askColour\(\)\)[^\n]*/, '');
    expect(test).toContain('new Preferences({ server: { elicitInput } } as never).askName()');
    const { sites } = await migrate('test-called-class-unnamed', { 'prefs.ts': CLASS_SERVER, 'prefs.test.ts': test });
    const [name, colour] = sites('prefs.ts');
    expect([name?.status, colour?.status]).toEqual(['flagged', 'flagged']);
    expect(name!.reason).toBe(
      "the test `asks the name` (prefs.test.ts:4) calls the code of this request directly: rewriting it for the handlers would change what the test calls (a call of it cannot go through the rewritten helper: the test's call `new Preferences({ server: { elicitInput…(...)` (prefs.test.ts:6) is not a call of the method on a variable holding an instance)",
    );
  });

  it('a method whose test calls it on a stand-in for an instance stays flagged with why (the driver would hand the stand-in the context and key)', async () => {
    const test = CLASS_TEST.replace('const preferences = new Preferences({ server: { elicitInput } } as never);', "const preferences = { askName: vi.fn().mockResolvedValue('Ada'), askColour: elicitInput } as unknown as Preferences;");
    expect(test).toContain('as unknown as Preferences;');
    const { sites } = await migrate('test-called-class-stand-in', { 'prefs.ts': CLASS_SERVER, 'prefs.test.ts': test });
    const [name] = sites('prefs.ts');
    expect(name?.status).toBe('flagged');
    expect(name!.reason).toContain(
      "(a call of it cannot go through the rewritten helper: the test's call `preferences.askName(...)` (prefs.test.ts:7) is on `preferences`, which holds `{ askName: vi.fn().mockResolvedValue('A…` (line 6), not an instance the test builds with `new Preferences(...)`)",
    );
  });

  it('a method that assigns the field it sends on stays flagged with why', async () => {
    const server = CLASS_SERVER.replace("async askName(): Promise<string> {\n", "async askName(): Promise<string> {\n    this.server = this.server ?? new McpServer({ name: 'prefs', version: '1.0.0' });\n").replace('private readonly server', 'private server');
    expect(server).toContain('this.server = this.server ??');
    const { sites } = await migrate('test-called-class-assigns', { 'prefs.ts': server, 'prefs.test.ts': CLASS_TEST });
    const [name] = sites('prefs.ts');
    expect(name?.status).toBe('flagged');
    expect(name!.reason).toContain('(a call of it cannot go through the rewritten helper: `askName` assigns `this.server`, the field it sends the request on)');
  });

  it('a static method sending on a static field stays flagged with why', async () => {
    const { sites } = await migrate('test-called-static', { 'greet.ts': STATIC_SERVER, 'greet.test.ts': STATIC_TEST });
    const [name] = sites('greet.ts');
    expect(name?.status).toBe('flagged');
    expect(name!.reason).toContain('(a call of it cannot go through the rewritten helper: `askName` sends the request on `this.server.server`, and is not a method of a class instance)');
  });

  it('a function sending on its parameter, in the tool\'s own file, is rewritten in place once and the test drives it', async () => {
    const { dir, sites } = await migrate('test-called-function', { 'greet.ts': FUNCTION_SERVER, 'greet.test.ts': FUNCTION_TEST });
    expect(sites('greet.ts').map((s) => [s.line, s.status])).toEqual([[4, 'migrated']]);
    const server = readFileSync(join(dir, 'greet.ts'), 'utf8');
    // one helper for the tool and the test (no inlined copy beside a kept legacy one)
    expect(server.match(/async function askName\(/g)).toHaveLength(1);
    expect(server).toContain('export async function askName(server: McpServer, ctx: ServerContext, answerKey: string)');
    expect(server).not.toContain('elicitInput(');
    const test = readFileSync(join(dir, 'greet.test.ts'), 'utf8');
    expect(test).toContain("expect(await callHelperAnsweringInputRequests(askName, [{ server: { elicitInput } } as never], (args) => args[0].server, 'elicitInput')).toBe('Ada');");
  });

  it('names the test whose call cannot be driven, not the first test calling the function', async () => {
    const server = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export async function askSoil(server: McpServer, bed: string): Promise<string> {
  const answer = await server.server.elicitInput({ message: \`Soil for \${bed}?\`, requestedSchema: { type: 'object', properties: { soil: { type: 'string' } } } });
  return answer.action === 'accept' ? String(answer.content?.soil) : 'loam';
}

class Beds {
  constructor(private readonly server: McpServer) {}
  async prepare(bed: string): Promise<string> {
    return askSoil(this.server, bed);
  }
}

export function createServer(): McpServer {
  const server = new McpServer({ name: 'beds', version: '1.0.0' });
  const beds = new Beds(server);
  server.registerTool('prepare', { description: 'Prepares a bed' }, async () => {
    const soil = await beds.prepare('north');
    return { content: [{ type: 'text', text: soil }] };
  });
  return server;
}
`;
    const test = `import { expect, it, vi } from 'vitest';
import { askSoil } from './beds.js';

const fake = () => ({ server: { elicitInput: vi.fn().mockResolvedValue({ action: 'accept', content: { soil: 'clay' } }) } }) as never;

it('asks the soil', async () => {
  expect(await askSoil(fake(), 'north')).toBe('clay');
});

it('asks the soil of a listed bed', async () => {
  const args: [never, string] = [fake(), 'south'];
  expect(await askSoil(...args)).toBe('clay');
});
`;
    const { sites } = await migrate('test-called-second-blocks', { 'beds.ts': server, 'beds.test.ts': test });
    const [soil] = sites('beds.ts');
    expect(soil?.status).toBe('flagged');
    expect(soil!.reason).toBe(
      "the test `asks the soil of a listed bed` (beds.test.ts:10) calls the code of this request directly: rewriting it for the handlers would change what the test calls (a call of it cannot go through the rewritten helper: the test's call of `askSoil` (beds.test.ts:12) spreads or adds arguments) (and 1 more caller outside handlers)",
    );
  });
});
