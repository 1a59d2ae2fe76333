/**
 * Type errors the v1-to-v2 upgrade leaves and no repair covers are reported with why, where the
 * compiler's first line does not say it: a low-level handler whose result v2 checks against its
 * method's own result type (v1 accepted any server result), with the compiler's innermost line; a
 * v1 transport an entry outside the run hands to the server the migration moved to v2. The v1 SDK
 * installed here (1.32) has transports v2's Transport accepts, unlike the 1.1x ones real projects
 * pin: that cause is checked on a declared v1 transport the v2 type rejects.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project, ts } from 'ts-morph';
import { upgradeErrorCause } from '../src/engine/upgrade-error-causes.js';
import { migrateTempProject, removeTempProjects, writtenProjectErrors, type MigratedProject } from './temp-project.js';

// Library entries typed as listing entries (`Resource`), returned as the contents of a read; prompt
// messages built by a helper whose inferred type widens the role to string.
const SHELF = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, GetPromptRequestSchema, ReadResourceRequestSchema, type Resource } from '@modelcontextprotocol/sdk/types.js';

const books: Resource[] = [{ uri: 'book://1', name: 'First' }];

function recommendFor(reader: string) {
  return [{ role: 'user', content: { type: 'text' as const, text: \`Recommend a book for \${reader}\` } }];
}

export function createShelf() {
  const server = new Server({ name: 'shelf', version: '1.0.0' }, { capabilities: { tools: {}, resources: {} } });
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => ({ contents: books.filter((b) => b.uri === request.params.uri) }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => ({ messages: recommendFor(request.params.name) }));
  server.setRequestHandler(CallToolRequestSchema, async () => {
    const answer = await server.elicitInput({ message: 'Lend?', requestedSchema: { type: 'object', properties: { days: { type: 'number' } } } });
    return { content: [{ type: 'text' as const, text: \`lend: \${answer.action}\` }] };
  });
  return server;
}
`;

let project: MigratedProject;

beforeAll(async () => {
  project = await migrateTempProject('upgrade-error-causes', { 'src/shelf.ts': SHELF });
  for (const f of project.result.files) if (f.output !== undefined) fs.writeFileSync(f.path, f.output);
}, 900_000);

afterAll(() => removeTempProjects());

describe('an upgrade error no repair covers says why', () => {
  it('a resources/read handler returning listing entries: the method’s v2 result type and the property that does not fit', () => {
    const shelf = project.file('shelf.ts')!;
    const flagged = shelf.sites.filter((s) => s.method === 'type-error');
    expect(flagged.map((s) => [s.line, s.status])).toEqual([[12, 'flagged'], [13, 'flagged']]);
    expect(flagged[0]!.reason).toMatch(
      /^the v1-to-v2 upgrade leaves a type error here: TS2322: .* \(v2 checks a 'resources\/read' handler's result against ReadResourceResult, where v1 accepted the result type of any server method: Property '(blob|text)' is missing in type '\{ uri: string; name: string;.*; v2's resource contents are text contents \(with 'text'\) or blob contents \(with 'blob'\), and the compiler names the member it tried last\)$/,
    );
    expect(flagged[0]!.advice).toMatch(/^make the handler return a ReadResourceResult: /);
    expect(flagged[1]!.reason).toMatch(
      /^the v1-to-v2 upgrade leaves a type error here: TS2322: .* \(v2 checks a 'prompts\/get' handler's result against GetPromptResult, where v1 accepted the result type of any server method: Type 'string' is not assignable to type '"user" \| "assistant"'\.\)$/,
    );
    // the handler's text is left as written: no assertion
    expect(shelf.output).toContain("server.setRequestHandler('resources/read', async (request) => ({ contents: books.filter((b) => b.uri === request.params.uri) }));");
  });

  it('the errors reported are the ones tsc finds on the written project', () => {
    const lines = project.file('shelf.ts')!.output!.split('\n');
    const lineOf = (method: string) => lines.findIndex((l) => l.includes(`setRequestHandler('${method}'`)) + 1;
    expect(writtenProjectErrors(project.dir).sort()).toEqual([`shelf.ts:${lineOf('resources/read')} TS2322`, `shelf.ts:${lineOf('prompts/get')} TS2322`]);
  });
});

describe('a v1 transport handed to a v2 server', () => {
  it('names the transport and the module it comes from', () => {
    const memory = new Project({ useInMemoryFileSystem: true, compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, strict: true, noEmit: true, lib: ['lib.es2022.d.ts'] } });
    memory.createSourceFile(
      '/repo/node_modules/@modelcontextprotocol/sdk/server/stdio.d.ts',
      "declare module '@modelcontextprotocol/sdk/server/stdio.js' {\n  export class StdioServerTransport {\n    start(): Promise<void>;\n    send(message: { jsonrpc: '2.0'; [key: string]: unknown }): Promise<void>;\n  }\n}\n",
    );
    const entry = memory.createSourceFile(
      '/repo/serve.ts',
      "import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';\ninterface Transport {\n  start(): Promise<void>;\n  send(message: { jsonrpc: '2.0'; id: string | number }, options?: { relatedRequestId?: string | number }): Promise<void>;\n  setProtocolVersion(version: string): void;\n}\ndeclare const server: { connect(transport: Transport): Promise<void> };\nexport const started = server.connect(new StdioServerTransport());\n",
    );
    const errors = entry.getPreEmitDiagnostics().filter((d) => d.getCategory() === ts.DiagnosticCategory.Error);
    expect(errors.map((d) => [d.getLineNumber(), d.getCode()])).toEqual([[8, 2345]]);
    expect(upgradeErrorCause(entry, errors[0]!.getStart()!, undefined)).toEqual({
      cause: "StdioServerTransport is the v1 SDK's transport (from '@modelcontextprotocol/sdk/server/stdio.js') and the server it connects is a v2 server since the migration: v2's Transport is not v1's",
      advice: "move this file's transport to the v2 SDK's (the v2 migration guide names each v1 transport's replacement), or keep the server it connects on v1",
    });
  });
});

describe('a read of a property only some members of a v2 union have', () => {
  it('names the members that have it, on the real v2 CreateMessageResult', () => {
    const checked = new Project({ tsConfigFilePath: path.join(project.dir, 'tsconfig.json'), skipAddingFilesFromTsConfig: true });
    const reply = checked.createSourceFile(
      path.join(project.dir, 'src', 'reply.ts'),
      "import type { CreateMessageResult } from '@modelcontextprotocol/server';\n\nexport function replyText(result: CreateMessageResult): string {\n  return `model said: ${result.content.text}`;\n}\n",
    );
    const errors = reply.getPreEmitDiagnostics().filter((d) => d.getCategory() === ts.DiagnosticCategory.Error);
    expect(errors.map((d) => [d.getLineNumber(), d.getCode()])).toEqual([[4, 2339]]);
    expect(upgradeErrorCause(reply, errors[0]!.getStart()!, undefined)).toEqual({
      cause: "'text' is on the 'text' member only of this v2 union: older v1 SDKs gave every member an open index signature, which typed this read as unknown; v2's members are closed",
      advice: "check which member the value is before reading 'text' (e.g. `.type === 'text'`): what the line then does for the other members is a decision to make by hand",
    });
  });
});
