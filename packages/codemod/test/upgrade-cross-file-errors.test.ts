/**
 * A type error the v1-to-v2 upgrade leaves in one file can come from another file's upgrade: a
 * helper whose result v2 types differently (`CallToolResult.structuredContent` is `unknown` in v2,
 * an object in v1) breaks the file that reads it, while that file's own text compiles against v1
 * and against the helper's v1 text. The report must name that error at its line, as tsc shows it
 * on the written project (it used to be compared with a baseline where the helper stayed upgraded,
 * which had the same error, and went unreported).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateTempProject, removeTempProjects, writtenProjectErrors, type MigratedProject } from './temp-project.js';

const SCORES = `import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function scoresOf(result: CallToolResult) {
  return result.structuredContent;
}
`;

const LEAGUE = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { scoresOf } from './scores.js';

export function createLeague() {
  const server = new McpServer({ name: 'league', version: '1.0.0' });
  server.registerTool('standings', { description: 'Standings, once the referee confirms' }, async () => {
    const answer = await server.server.elicitInput({ message: 'Confirm?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    const scores = scoresOf({ content: [], structuredContent: { home: 2, away: 1 } });
    return { content: [{ type: 'text', text: \`\${answer.action}: \${String(scores?.home)}\` }] };
  });
  return server;
}
`;

let project: MigratedProject;

beforeAll(async () => {
  project = await migrateTempProject('upgrade-cross-file', { 'src/scores.ts': SCORES, 'src/league.ts': LEAGUE });
  for (const f of project.result.files) if (f.output !== undefined) fs.writeFileSync(f.path, f.output);
}, 900_000);

afterAll(() => removeTempProjects());

describe('an upgrade error caused by another file’s upgrade', () => {
  it('is reported at its line as a flagged type-error site, the one tsc finds on the written project', () => {
    const league = project.file('league.ts')!;
    expect(league.sites.filter((s) => s.method !== 'type-error').map((s) => s.status)).toEqual(['migrated']);
    const errors = writtenProjectErrors(project.dir);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^league\.ts:\d+ TS2339$/);
    const line = Number(/:(\d+) /.exec(errors[0]!)![1]);
    const flagged = league.sites.filter((s) => s.method === 'type-error');
    expect(flagged.map((s) => s.status)).toEqual(['flagged']);
    expect(flagged[0]!.reason).toBe("the v1-to-v2 upgrade leaves a type error here: TS2339: Property 'home' does not exist on type '{}'.");
    // the line of the original text: the marker the run writes sits above the written line
    const written = league.output!.split('\n');
    expect(written[line - 2]).toContain('@mcp-mrtr-todo(the v1-to-v2 upgrade leaves a type error here');
    expect(written[line - 1]).toContain('scores?.home');
    expect(LEAGUE.split('\n')[flagged[0]!.line - 1]).toContain('scores?.home');
  });
});
