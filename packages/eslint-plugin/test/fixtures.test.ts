/**
 * The plugin over the shared before/after cases in `fixtures/cases` (discovered by file name):
 * - every finding a case lists in `lint.input` appears on its input (rule id + line);
 * - every legacy site a case lists in `sites` is reported by no-server-initiated-requests, and an input
 *   without a `sites` list (legacy server code by convention) has at least one such finding;
 * - every output is clean under `recommended` (a site the codemod could not migrate carries the
 *   `@mcp-mrtr-todo` marker just above it and may still be reported there).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TODO_MARKER } from '@mcp-mrtr/surface';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../src/index.js';

/** The codemod's idiom for one elicitation with state: ask with a sealed requestState while the answer is missing, then read the accepted content and the state. */
const ELICIT_OUTPUT = `import { McpServer, inputRequired, inputResponse, acceptedContent, fromJsonSchema } from '@modelcontextprotocol/server';
import { requestStateCodec } from './mcp-request-state.js';
const schema = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };
const server = new McpServer({ name: 'x', version: '1' }, { requestState: { verify: requestStateCodec.verify } });
server.registerTool('t', {}, async (args, ctx) => {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (answer.kind === 'missing') {
    return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'Sure?', requestedSchema: schema }) }, requestState: await requestStateCodec.mint({ step: 1, name: args.name }, ctx) });
  }
  const content = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', fromJsonSchema(schema));
  const state = ctx.mcpReq.requestState();
  return { content: [{ type: 'text', text: String(content?.confirm) + String(state?.name) }] };
});
export function createServer() { return server; }
`;

const CASES_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../fixtures/cases');
const FILE = /^(.+)\.(input|output)\.([cm]?[jt]s)$/;
const LEGACY_RULE = '@mcp-mrtr/no-server-initiated-requests';
/** How far above a reported line the codemod's marker comment may sit (multi-line statements). */
const MARKER_REACH = 3;

// the codemod's own findings that are not requests to the client: hosting, session state, test
// mocks, and a use of a v1 API that v2 lacks (the v1 tasks API), which keeps a file on v1
const NOT_REQUEST_SITES = ['serving', 'session-state', 'test-mock', 'v1-only-api'];

interface CaseJson {
  /** Findings the case expects: on its input, and on its output (a leftover the migration carries over, as a form asking for a secret). */
  lint?: { input?: Array<{ ruleId: string; line: number }>; output?: Array<{ ruleId: string; line: number }> };
  sites?: Array<{ line: number; method?: string; status?: string }>;
}

interface FixtureFile {
  caseName: string;
  role: 'input' | 'output';
  file: string;
  path: string;
}

function discover(): FixtureFile[] {
  if (!existsSync(CASES_DIR)) return [];
  return readdirSync(CASES_DIR)
    .map((file) => ({ file, match: FILE.exec(file) }))
    .filter((f): f is { file: string; match: RegExpExecArray } => f.match !== null)
    .map(({ file, match }) => ({ caseName: match[1], role: match[2] as 'input' | 'output', file, path: join(CASES_DIR, file) }))
    .sort((a, b) => a.file.localeCompare(b.file));
}

function readCase(caseName: string): CaseJson {
  const path = join(CASES_DIR, `${caseName}.case.json`);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as CaseJson) : {};
}

// explicit extensions: ESLint does not treat `**/*` as matching a file
const SOURCE_GLOBS = ['**/*.ts', '**/*.mts', '**/*.cts', '**/*.js', '**/*.mjs', '**/*.cjs'];
const linter = new Linter({ configType: 'flat', cwd: CASES_DIR });

function lint(code: string, filename: string, config: 'strict' | 'recommended'): Linter.LintMessage[] {
  const isTs = /\.[cm]?ts$/.test(filename);
  const languageOptions: Linter.Config['languageOptions'] = isTs
    ? { parser: tsParser as unknown as Linter.Parser, sourceType: 'module' }
    : { ecmaVersion: 'latest', sourceType: /\.cjs$/.test(filename) ? 'commonjs' : 'module' };
  const messages = linter.verify(code, [{ files: SOURCE_GLOBS, languageOptions }, { ...(plugin.configs[config] as Linter.Config), files: SOURCE_GLOBS }], join(CASES_DIR, filename));
  const fatal = messages.filter((m) => m.fatal);
  expect(fatal, `${filename} must parse`).toEqual([]);
  return messages;
}

const covers = (m: Linter.LintMessage, line: number) => m.line <= line && line <= (m.endLine ?? m.line);
const describeMessage = (m: Linter.LintMessage) => `${m.ruleId}@${m.line}: ${m.message}`;

const files = discover();
const inputs = files.filter((f) => f.role === 'input');
const outputs = files.filter((f) => f.role === 'output');

describe('fixture cases', () => {
  it('every output has its input (cases come in pairs)', () => {
    const inputCases = new Set(inputs.map((f) => f.caseName));
    for (const output of outputs) expect(inputCases.has(output.caseName), `${output.file} has no input`).toBe(true);
  });

  // always runs, also while fixtures/cases is still empty: a legacy snippet is found, the idiom is clean
  it('inline legacy snippet is reported and the canonical migrated idiom is clean', () => {
    const legacy = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const mcp = new McpServer({ name: 'x', version: '1' });
mcp.registerTool('t', {}, async () => {
  const r = await mcp.server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: r.action }] };
});`;
    expect(lint(legacy, 'inline.input.ts', 'strict').filter((m) => m.ruleId === LEGACY_RULE).map((m) => m.line)).toEqual([4]);
    expect(lint(legacy, 'inline.input.js', 'strict').filter((m) => m.ruleId === LEGACY_RULE).map((m) => m.line)).toEqual([4]);
    expect(lint(ELICIT_OUTPUT, 'inline.output.ts', 'recommended').map(describeMessage)).toEqual([]);
    expect(lint(ELICIT_OUTPUT.replace(/^import /m, '//'), 'inline.output.js', 'recommended').map(describeMessage)).toEqual([]);
  });

  describe.each(inputs.map((f) => [f.file, f] as const))('input %s', (_name, fixture) => {
    it('reports the listed findings and every legacy site', () => {
      const expected = readCase(fixture.caseName);
      const messages = lint(readFileSync(fixture.path, 'utf8'), fixture.file, 'strict');
      for (const finding of expected.lint?.input ?? []) {
        const hit = messages.some((m) => m.ruleId === finding.ruleId && m.line === finding.line);
        expect(hit, `expected ${finding.ruleId} at line ${finding.line}; got ${messages.map(describeMessage).join(' | ') || 'nothing'}`).toBe(true);
      }
      const legacy = messages.filter((m) => m.ruleId === LEGACY_RULE);
      if (expected.sites) {
        for (const site of expected.sites.filter((s) => !NOT_REQUEST_SITES.includes(s.method ?? ''))) {
          expect(legacy.some((m) => covers(m, site.line)), `site at line ${site.line} (${site.method ?? '?'}) not reported`).toBe(true);
        }
      } else {
        expect(legacy.length, `${fixture.file} is legacy server code but no ${LEGACY_RULE} finding`).toBeGreaterThan(0);
      }
    });
  });

  describe.each(outputs.map((f) => [f.file, f] as const))('output %s', (_name, fixture) => {
    it('is clean under recommended (except marked leftovers and the findings its case.json lists)', () => {
      const code = readFileSync(fixture.path, 'utf8');
      const lines = code.split(/\r?\n/);
      const marked = (line: number) => lines.slice(Math.max(0, line - 1 - MARKER_REACH), line).some((l) => l.includes(TODO_MARKER));
      const messages = lint(code, fixture.file, 'recommended').filter((m) => !marked(m.line));
      const listed = readCase(fixture.caseName).lint?.output ?? [];
      const isListed = (m: Linter.LintMessage) => listed.some((f) => f.ruleId === m.ruleId && f.line === m.line);
      for (const finding of listed) {
        expect(messages.some((m) => m.ruleId === finding.ruleId && m.line === finding.line), `expected ${finding.ruleId} at line ${finding.line}; got ${messages.map(describeMessage).join(' | ') || 'nothing'}`).toBe(true);
      }
      expect(messages.filter((m) => !isListed(m)).map(describeMessage)).toEqual([]);
    });
  });
});
