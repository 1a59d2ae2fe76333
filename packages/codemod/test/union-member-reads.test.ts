/**
 * A read of a property that only some members of a closed v2 union declare (`result.content.text`
 * on a sampling result, whose content is a text, image or audio block): older v1 SDKs gave every
 * block an open index signature, so the read typed as unknown and compiled; on v2 it is TS2339.
 * `repairClosedUnionReads` rewrites it to `('text' in E ? E.text : undefined)` where E has no
 * effects and the file then typechecks, checked here on the real v2 types; and a run over a project
 * whose v1 types are an older SDK's (open blocks, a stand-in declared by the test) writes that
 * repair, which tsc accepts, instead of a flagged type error: in an upgraded file (verify) and in an
 * unchanged file of the run importing one (the importers check).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project, ts, type SourceFile } from 'ts-morph';
import { repairClosedUnionReads } from '../src/engine/union-member-reads.js';
import { TEST_DIR } from './find-helpers.js';
import { NODE_TSCONFIG, migrateTempProject, removeTempProjects, type MigratedProject } from './temp-project.js';

let count = 0;
function file(text: string): SourceFile {
  const project = new Project({ compilerOptions: { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, noEmit: true } });
  // beside this package's own files, so that the v2 packages resolve from its node_modules
  return project.createSourceFile(path.join(TEST_DIR, '..', `__union-member-reads-${process.pid}-${count++}.mts`), text);
}

function errorsOf(sf: SourceFile): Array<{ key: string; start: number }> {
  return sf
    .getPreEmitDiagnostics()
    .filter((d) => d.getCategory() === ts.DiagnosticCategory.Error)
    .map((d) => ({ key: `TS${d.getCode()}: ${ts.flattenDiagnosticMessageText(d.getMessageText() as string | ts.DiagnosticMessageChain, ' ').split('\n')[0]}`, start: d.getStart()! }));
}

function repaired(text: string): { sf: SourceFile; notes: string[] | undefined; left: string[] } {
  const sf = file(text);
  const outcome = repairClosedUnionReads(sf, errorsOf(sf), () => errorsOf(sf));
  return { sf, notes: outcome?.notes.map((n) => `${n.line}: ${n.text}`), left: errorsOf(sf).map((e) => e.key.split(':')[0]!) };
}

const HEAD = `import type { CreateMessageResult } from '@modelcontextprotocol/server';
declare const result: CreateMessageResult;
`;

describe('repairClosedUnionReads on the real v2 CreateMessageResult', () => {
  it("narrows a read of 'text' with `in`: the same value, typed string | undefined", () => {
    const { sf, notes, left } = repaired(`${HEAD}export const said = \`model said: \${result.content.text}\`;\nexport const typed: string | undefined = result.content.text;\n`);
    expect(sf.getFullText()).toContain("export const said = `model said: ${('text' in result.content ? result.content.text : undefined)}`;");
    expect(sf.getFullText()).toContain("export const typed: string | undefined = ('text' in result.content ? result.content.text : undefined);");
    expect(notes).toEqual([
      "3: 'result.content.text' reads 'text', which only the 'text' member of this v2 union declares (older v1 SDKs typed the read as unknown): read as ('text' in result.content ? ... : undefined), the same value at run time",
      "4: 'result.content.text' reads 'text', which only the 'text' member of this v2 union declares (older v1 SDKs typed the read as unknown): read as ('text' in result.content ? ... : undefined), the same value at run time",
    ]);
    expect(left).toEqual([]);
  });

  it('any property some members declare: data is on the image and audio blocks', () => {
    const { sf, notes, left } = repaired(`${HEAD}export const bytes = String(result.content.data);\n`);
    expect(sf.getFullText()).toContain("export const bytes = String(('data' in result.content ? result.content.data : undefined));");
    expect(notes?.[0]).toContain("only the 'image', 'audio' members of this v2 union declare");
    expect(left).toEqual([]);
  });

  it('a property chain from this, in the file’s quote style', () => {
    const { sf, left } = repaired(`import type { CreateMessageResult } from "@modelcontextprotocol/server";\nexport class Chat {\n  last!: CreateMessageResult;\n  said(): unknown {\n    return this.last.content.text;\n  }\n}\n`);
    expect(sf.getFullText()).toContain('return ("text" in this.last.content ? this.last.content.text : undefined);');
    expect(left).toEqual([]);
  });

  it('a chain over lines keeps its text in the read and adds no line', () => {
    const { sf, notes, left } = repaired(`${HEAD}export const m = result\n  .content // the block\n  .text;\nexport const after = 1;\n`);
    expect(sf.getFullText()).toContain("export const m = ('text' in result.content ? result\n  .content // the block\n  .text : undefined);\nexport const after = 1;\n");
    expect(notes?.[0]).toMatch(/^3: 'result \.content \/\/ the block \.text' reads 'text'/);
    expect(left).toEqual([]);
  });

  it('leaves a read whose object has effects, is in an optional chain, is written to or is called', () => {
    const text = `${HEAD}declare function latest(): CreateMessageResult;\ndeclare const maybe: CreateMessageResult | undefined;\nexport const a = latest().content.text;\nexport const b = maybe?.content.text;\nresult.content.text = 'x';\nexport const c = result.content.text();\n`;
    const { sf, notes, left } = repaired(text);
    expect(notes).toBeUndefined();
    expect(sf.getFullText()).toBe(text);
    expect(left).toEqual(['TS2339', 'TS2339', 'TS2339', 'TS2339']);
  });

  it('puts a read back when its use does not accept string | undefined, and keeps the others', () => {
    const text = `${HEAD}export const n: number = result.content.text.length;\nexport const s = \`\${result.content.text}\`;\n`;
    const { sf, notes, left } = repaired(text);
    expect(notes).toHaveLength(1);
    expect(sf.getFullText()).toContain('export const n: number = result.content.text.length;');
    expect(sf.getFullText()).toContain("export const s = `${('text' in result.content ? result.content.text : undefined)}`;");
    expect(left).toEqual(['TS2339']);
  });

  it('leaves a union of the project’s own types alone', () => {
    const text = `type Block = { type: 'text'; text: string } | { type: 'image'; data: string };\ndeclare const block: Block;\nexport const t = block.text;\n`;
    const { sf, notes } = repaired(text);
    expect(notes).toBeUndefined();
    expect(sf.getFullText()).toBe(text);
  });
});

// An older v1 SDK's types (1.1x), declared for the test: every content block has an open index
// signature, so `result.content.text` typed as unknown and compiled before the upgrade.
const OLD_V1_TYPES = `export interface TextContent {
  [x: string]: unknown;
  type: 'text';
  text: string;
}
export interface ImageContent {
  [x: string]: unknown;
  type: 'image';
  data: string;
  mimeType: string;
}
export interface CreateMessageResult {
  [x: string]: unknown;
  model: string;
  role: 'user' | 'assistant';
  content: TextContent | ImageContent;
}
`;

const REPLY = `import type { CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';

export function replyText(result: CreateMessageResult): string {
  return \`model said: \${result.content.text}\`;
}

export function firstWord(results: CreateMessageResult[]): unknown {
  return results.map((r) => r.content.text)[0];
}

export function lastReply(): CreateMessageResult {
  return { model: 'm', role: 'assistant', content: { type: 'text', text: 'done' } };
}
`;

// names no MCP package: kept aside by the pre-filter, its read breaks through reply.ts's upgrade
const SUMMARY = `import { lastReply } from './reply.js';

export function summary(): string {
  const reply = lastReply();
  return \`last: \${reply.content.text}\`;
}
`;

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { replyText } from './reply.js';

export function createServer() {
  const server = new McpServer({ name: 'replies', version: '1.0.0' });
  server.registerTool('confirm', { description: 'Confirms, then replies' }, async () => {
    const answer = await server.server.elicitInput({ message: 'Go on?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    const reply = replyText({ model: 'm', role: 'assistant', content: { type: 'text', text: answer.action } });
    return { content: [{ type: 'text', text: reply }] };
  });
  return server;
}
`;

describe('a run over a project on an older v1 SDK', () => {
  let project: MigratedProject;

  beforeAll(async () => {
    const tsconfig = { ...NODE_TSCONFIG, compilerOptions: { ...NODE_TSCONFIG.compilerOptions, paths: { '@modelcontextprotocol/sdk/types.js': ['./old-sdk/types.d.ts'] } } };
    project = await migrateTempProject('union-member-reads', { 'src/reply.ts': REPLY, 'src/server.ts': SERVER, 'src/summary.ts': SUMMARY, 'old-sdk/types.d.ts': OLD_V1_TYPES }, { tsconfig });
    for (const f of project.result.files) if (f.output !== undefined) fs.writeFileSync(f.path, f.output);
  }, 900_000);

  afterAll(() => removeTempProjects());

  it('repairs the reads the upgrade broke, with a note, and flags none', () => {
    const reply = project.file('reply.ts')!;
    expect(reply.output).toContain("import type { CreateMessageResult } from '@modelcontextprotocol/server';");
    expect(reply.output).toContain("return `model said: ${('text' in result.content ? result.content.text : undefined)}`;");
    expect(reply.output).toContain("return results.map((r) => ('text' in r.content ? r.content.text : undefined))[0];");
    expect(reply.sites.filter((s) => s.method === 'type-error')).toEqual([]);
    // at the lines of the user's file
    expect(reply.notes?.filter((n) => n.includes('of this v2 union declare')).map((n) => n.split(':')[0])).toEqual(['4', '8']);
    expect(project.file('server.ts')!.sites.map((s) => s.status)).toEqual(['migrated']);
  });

  it('repairs such a read in an unchanged file of the run that imports an upgraded one (the importers check)', () => {
    const summary = project.file('summary.ts')!;
    expect(summary.output).toContain("return `last: ${('text' in reply.content ? reply.content.text : undefined)}`;");
    expect(summary.sites).toEqual([]);
    expect(summary.notes).toEqual([expect.stringMatching(/^5: 'reply\.content\.text' reads 'text', which only the 'text' member of this v2 union declares/)]);
  });

  it('the written project typechecks', () => {
    const checked = new Project({ tsConfigFilePath: path.join(project.dir, 'tsconfig.json') });
    const errors = checked.getPreEmitDiagnostics().filter((d) => d.getCategory() === ts.DiagnosticCategory.Error);
    expect(errors.map((d) => `${path.basename(d.getSourceFile()?.getFilePath() ?? '')}:${d.getLineNumber()} TS${d.getCode()}`)).toEqual([]);
  });
});

// stdio hosting, the file's only change, in a file whose upgrade's one error is such a read
const ENTRY = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';

export function said(result: CreateMessageResult): string {
  return \`model said: \${result.content.text}\`;
}

export function createServer(): Server {
  return new Server({ name: 'echo', version: '1.0.0' }, { capabilities: {} });
}

await createServer().connect(new StdioServerTransport());
`;

describe('a hosting rewrite in a file whose upgrade leaves only such a read', () => {
  let project: MigratedProject;

  beforeAll(async () => {
    const tsconfig = { ...NODE_TSCONFIG, compilerOptions: { ...NODE_TSCONFIG.compilerOptions, paths: { '@modelcontextprotocol/sdk/types.js': ['./old-sdk/types.d.ts'] } } };
    project = await migrateTempProject('union-member-reads-serving', { 'src/main.ts': ENTRY, 'old-sdk/types.d.ts': OLD_V1_TYPES }, { tsconfig });
    for (const f of project.result.files) if (f.output !== undefined) fs.writeFileSync(f.path, f.output);
  }, 900_000);

  afterAll(() => removeTempProjects());

  it('is not held back for it: the hosting is rewritten and the read repaired', () => {
    const main = project.file('main.ts')!;
    expect(main.sites.map((s) => [s.method, s.status])).toEqual([['serving', 'migrated']]);
    expect(main.output).toContain('serveStdio(');
    expect(main.output).toContain("return `model said: ${('text' in result.content ? result.content.text : undefined)}`;");
    const checked = new Project({ tsConfigFilePath: path.join(project.dir, 'tsconfig.json') });
    expect(checked.getPreEmitDiagnostics().filter((d) => d.getCategory() === ts.DiagnosticCategory.Error).map((d) => d.getLineNumber())).toEqual([]);
  });
});
