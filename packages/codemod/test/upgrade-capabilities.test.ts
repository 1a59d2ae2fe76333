/**
 * A low-level server whose capabilities literal also lists keys v2's `ServerCapabilities` does not
 * declare (`sampling: {}`, `elicitation: {}`: capabilities a client declares) fails v2's
 * excess-property check after the v1-to-v2 upgrade. The v2 `Server` sends the object it is given,
 * so the repair keeps the keys and asserts the literal as `ServerCapabilities` (types only); a
 * literal whose declared keys have values of the wrong type is left to the compiler's error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project, ts } from 'ts-morph';
import { migrateTempProject, removeTempProjects, type MigratedProject } from './temp-project.js';

const GARDEN = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export function createGarden() {
  const server = new Server(
    { name: 'garden', version: '1.0.0' },
    {
      capabilities: {
        tools: {},
        logging: {},
        sampling: {},
        'elicitation': {},
      },
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'water', description: 'Waters a bed', inputSchema: { type: 'object' as const } }] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const answer = await server.elicitInput({ message: \`Water \${request.params.name}?\`, requestedSchema: { type: 'object', properties: { litres: { type: 'number' } } } });
    return { content: [{ type: 'text' as const, text: \`watered: \${answer.action}\` }] };
  });
  return server;
}
`;

// logging: true is not an object, in v1 as in v2: asserting would only turn one error into another
const GREENHOUSE = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export function createGreenhouse() {
  const server = new Server({ name: 'greenhouse', version: '1.0.0' }, { capabilities: { tools: {}, logging: true, sampling: {} } });
  server.setRequestHandler(CallToolRequestSchema, async () => {
    const answer = await server.elicitInput({ message: 'Vent?', requestedSchema: { type: 'object', properties: { open: { type: 'boolean' } } } });
    return { content: [{ type: 'text' as const, text: \`vent: \${answer.action}\` }] };
  });
  return server;
}
`;

let project: MigratedProject;

beforeAll(async () => {
  project = await migrateTempProject('upgrade-capabilities', { 'src/garden.ts': GARDEN, 'src/greenhouse.ts': GREENHOUSE });
  for (const f of project.result.files) if (f.output !== undefined) fs.writeFileSync(f.path, f.output);
}, 900_000);

afterAll(() => removeTempProjects());

/** `<line>: TS<code>` of each error tsc reports in the written `src/<name>`. */
function writtenErrors(name: string): string[] {
  const checked = new Project({ tsConfigFilePath: path.join(project.dir, 'tsconfig.json') });
  return checked
    .getSourceFileOrThrow(path.join(project.dir, 'src', name))
    .getPreEmitDiagnostics()
    .filter((d) => d.getCategory() === ts.DiagnosticCategory.Error)
    .map((d) => `${d.getLineNumber()}: TS${d.getCode()}`);
}

describe('the upgrade compiles: a server capabilities literal with keys v2 does not declare', () => {
  it('is asserted as ServerCapabilities with every key kept, the note names the keys, and the file compiles', () => {
    const garden = project.file('garden.ts')!;
    expect(garden.sites.map((s) => [s.method, s.status])).toEqual([['elicitation/create', 'migrated']]);
    const out = garden.output!;
    expect(out).toContain("      capabilities: {\n        tools: {},\n        logging: {},\n        sampling: {},\n        'elicitation': {},\n      } as ServerCapabilities,\n    },\n  );\n");
    expect(out).toMatch(/import \{[^}]*\btype ServerCapabilities\b[^}]*\} from '@modelcontextprotocol\/server';/);
    expect(garden.notes?.filter((n) => n.includes('ServerCapabilities'))).toEqual([
      "8: the server capabilities declare 'sampling', 'elicitation', which v2's ServerCapabilities does not have: the literal is asserted as ServerCapabilities, a change of types only, so the server still sends them in its initialize result as before; remove them if no client reads them",
    ]);
    expect(writtenErrors('garden.ts')).toEqual([]);
  });

  it('the migrated server still holds and advertises the same capabilities', async () => {
    const mod = (await import(path.join(project.dir, 'src', 'garden.ts'))) as { createGarden: () => { getCapabilities(): unknown } };
    expect(mod.createGarden().getCapabilities()).toEqual({ tools: {}, logging: {}, sampling: {}, elicitation: {} });
  });

  it('a literal whose declared key has a value of the wrong type is left as written, to its compiler error', () => {
    const out = project.file('greenhouse.ts')!.output!;
    expect(out).toContain("{ capabilities: { tools: {}, logging: true, sampling: {} } }");
    expect(out).not.toContain('ServerCapabilities');
    expect(writtenErrors('greenhouse.ts').length).toBeGreaterThan(0);
  });
});
