/**
 * The `suggestMigration` option of no-server-initiated-requests: the codemod's migration of the
 * request's handler as an ESLint suggestion, with the real engine of @mcp-mrtr/codemod (its built
 * dist, resolved from the linted file as in a user's project) and the real RuleTester.
 *
 * Oracles: the fixture outputs in fixtures/cases, which are the engine's own migration of a file
 * (typechecked, behaviour-tested by the codemod's suite); for a file with one handler the suggestion
 * must be exactly that migration, and code outside the handler must come out unchanged. The
 * modules the engine generates beside a migrated file (client-capabilities helper, state codec) are
 * written into the temporary project first, as `mcp-mrtr migrate` would have: a suggestion edits one
 * file and is only offered when they exist.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import rule from '../../src/rules/no-server-initiated-requests.js';
import { asTesterRule, tsTester } from '../helpers/rule-tester.js';

const PKG = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const CASES = path.resolve(PKG, '../../fixtures/cases');
const CODEMOD_DIST = path.resolve(PKG, '../codemod/dist/index.js');
if (!fs.existsSync(CODEMOD_DIST)) throw new Error(`${CODEMOD_DIST} is missing: build first (npx turbo run build --filter=@mcp-mrtr/codemod)`);

const fixture = (name: string) => fs.readFileSync(path.join(CASES, name), 'utf8');
const { migrateSource } = (await import(CODEMOD_DIST)) as typeof import('@mcp-mrtr/codemod');

/** A project that has installed the codemod (a link to this workspace's package). */
function makeProject(): string {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-mrtr-suggest-'));
  temps.push(project);
  fs.mkdirSync(path.join(project, 'node_modules', '@mcp-mrtr'), { recursive: true });
  fs.symlinkSync(path.resolve(PKG, '../codemod'), path.join(project, 'node_modules', '@mcp-mrtr', 'codemod'), 'dir');
  fs.mkdirSync(path.join(project, 'src'));
  return project;
}
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

/** The project's file, with no generated module beside it yet. */
const BARE = path.join(makeProject(), 'src', 'server.ts');
/** The project's file, with the modules the engine generates for the inputs below already there. */
const IN_PROJECT = path.join(makeProject(), 'src', 'server.ts');
const ON = [{ suggestMigration: true }] as const;
const suggestion = (output: string) => ({ messageId: 'migrateHandler' as const, output });

// one handler, two samplings in Promise.all: one write-once round, no sealed state
const SAMPLING_IN = fixture('promise-all-sampling.input.ts');
const SAMPLING_OUT = fixture('promise-all-sampling.output.ts');
const BEFORE_RETURN = '\n  return server;\n}';
expect(SAMPLING_IN).toContain(BEFORE_RETURN);
expect(SAMPLING_OUT).toContain(BEFORE_RETURN);

// code the engine cannot migrate (a start-up hook: no MRTR form) next to the handler
const HOOK = `
  server.server.oninitialized = async () => {
    const { roots } = await server.server.listRoots();
    console.error(roots.length);
  };
`;
const withHook = (text: string) => text.replace(BEFORE_RETURN, `\n${HOOK}${BEFORE_RETURN}`);

// a second handler with its own request
const SECOND_TOOL = `
  server.registerTool('confirm_merge', { inputSchema: z.object({ pr: z.number() }) }, async ({ pr }, ctx) => {
    const answer = await ctx.mcpReq.elicitInput({
      message: \`Merge #\${pr}?\`,
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    return { content: [{ type: 'text', text: answer.action }] };
  });
`;
const withSecondTool = (text: string) => text.replace(BEFORE_RETURN, `\n${SECOND_TOOL}${BEFORE_RETURN}`);

// two dependent elicitations with effects between: phases in a sealed requestState (a codec module)
const WIZARD_IN = fixture('v2-push-wizard.input.ts');

const generated = new Map<string, string>();
for (const input of [SAMPLING_IN, WIZARD_IN]) {
  for (const created of (await migrateSource(input, BARE, { cwd: path.dirname(BARE) })).created) {
    const name = path.basename(created.path);
    if (generated.has(name)) expect(created.output, name).toBe(generated.get(name));
    generated.set(name, created.output!);
  }
}
for (const [name, text] of generated) fs.writeFileSync(path.join(path.dirname(IN_PROJECT), name), text);

const lintConfig = [{ files: ['**/*.ts'], languageOptions: { parser: tsParser as Linter.Parser }, plugins: { m: { rules: { 'no-server-initiated-requests': rule } } as never }, rules: { 'm/no-server-initiated-requests': ['error', ...ON] } }] as Linter.Config[];
const lint = (code: string, filename: string) => new Linter({ cwd: path.dirname(filename) }).verify(code, lintConfig, { filename });
const applied = (code: string, fix: { range: [number, number]; text: string }) => code.slice(0, fix.range[0]) + fix.text + code.slice(fix.range[1]);

describe('suggestMigration: two handlers in one file', () => {
  const code = withSecondTool(SAMPLING_IN);
  const firstHandler = SAMPLING_IN.slice(SAMPLING_IN.indexOf('    async ({ diff }, ctx) => {'), SAMPLING_IN.indexOf('  return server;'));

  it('the second tool alone is a case the engine migrates (holding it back is what keeps it as it is)', async () => {
    const whole = await migrateSource(code, IN_PROJECT, { cwd: path.dirname(IN_PROJECT) });
    expect(whole.sites.map((s) => s.status)).toEqual(['migrated', 'migrated', 'migrated']);
  });

  it("each suggestion migrates its own handler; the other keeps its request and text", () => {
    const messages = lint(code, IN_PROJECT);
    expect(messages.map((m) => [m.messageId, m.line])).toEqual([
      ['legacyRequest', 14],
      ['legacyRequest', 18],
      ['legacyRequest', 30],
    ]);
    const [first, , second] = messages.map((m) => m.suggestions ?? []);
    expect(first).toHaveLength(1);
    expect(applied(code, first![0]!.fix)).toBe(withSecondTool(SAMPLING_OUT));

    expect(second).toHaveLength(1);
    expect(second![0]!.messageId).toBe('migrateHandler');
    const migrated = applied(code, second![0]!.fix);
    expect(migrated).toContain(firstHandler);
    expect(migrated).not.toContain(SECOND_TOOL);
    expect(migrated).not.toContain('mcp-mrtr-ignore');
    expect(migrated).toMatch(/inputRequired\(/);
    // linted again: only the first tool's two requests are left
    expect(lint(migrated, IN_PROJECT).map((m) => [m.messageId, m.message.match(/sampling\/createMessage|elicitation\/create/)?.[0]])).toEqual([
      ['legacyRequest', 'sampling/createMessage'],
      ['legacyRequest', 'sampling/createMessage'],
    ]);
  });
});

describe('suggestMigration: the modules the engine generates', () => {
  it('without them beside the file, no suggestion; with them as the engine writes them, the whole migration', async () => {
    expect(lint(WIZARD_IN, BARE).map((m) => m.suggestions ?? [])).toEqual([[], []]);
    const whole = await migrateSource(WIZARD_IN, BARE, { cwd: path.dirname(BARE) });
    expect(whole.created.map((c) => path.basename(c.path))).toContain('mcp-request-state.ts');
    // the suggestion is the engine's own one-file migration in that project (no tsconfig: no type
    // information), which builds the second request where it is asked; the typed run of
    // `mcp-mrtr migrate` (the fixture) builds it once, in a function typed by the checker
    const oneFile = await migrateSource(WIZARD_IN, IN_PROJECT, { cwd: path.dirname(IN_PROJECT) });
    expect(oneFile.status).toBe('changed');
    expect(oneFile.sites.map((s) => s.status)).toEqual(['migrated', 'migrated']);
    const typed = fixture('v2-push-wizard.output.ts');
    const requestBuilding = /reachRequest\b|How should we reach|properties: \{ via: |^\s*\}\)?;$/;
    const withoutRequestBuilding = (text: string) => text.split('\n').filter((l) => !requestBuilding.test(l)).join('\n');
    expect(withoutRequestBuilding(oneFile.output!)).toBe(withoutRequestBuilding(typed));
    const messages = lint(WIZARD_IN, IN_PROJECT);
    expect(messages).toHaveLength(2);
    for (const m of messages) {
      expect(m.suggestions).toHaveLength(1);
      expect(applied(WIZARD_IN, m.suggestions![0]!.fix)).toBe(oneFile.output);
    }
  });
});

tsTester.run('no-server-initiated-requests (suggestMigration)', asTesterRule(rule), {
  valid: [],
  invalid: [
    {
      // one handler: the suggestion is the engine's migration of the file, byte for byte
      code: SAMPLING_IN,
      filename: IN_PROJECT,
      options: ON,
      errors: [
        { messageId: 'legacyRequest', suggestions: [suggestion(SAMPLING_OUT)] },
        { messageId: 'legacyRequest', suggestions: [suggestion(SAMPLING_OUT)] },
      ],
    },
    {
      // a start-up hook the engine would flag stays as it is; the handler is migrated as on its own
      code: withHook(SAMPLING_IN),
      filename: IN_PROJECT,
      options: ON,
      errors: [
        { messageId: 'legacyRequest', suggestions: [suggestion(withHook(SAMPLING_OUT))] },
        { messageId: 'legacyRequest', suggestions: [suggestion(withHook(SAMPLING_OUT))] },
        { messageId: 'legacyRequestOutsideHandler', suggestions: [] },
      ],
    },
    {
      // off by default: no engine run, no suggestion
      code: SAMPLING_IN,
      filename: IN_PROJECT,
      errors: [
        { messageId: 'legacyRequest', suggestions: [] },
        { messageId: 'legacyRequest', suggestions: [] },
      ],
    },
    {
      // the generated modules the rewrite imports do not exist yet: a suggestion edits one file, so
      // there is none (`mcp-mrtr migrate` creates them; see the tests above)
      code: SAMPLING_IN,
      filename: BARE,
      options: ON,
      errors: [
        { messageId: 'legacyRequest', suggestions: [] },
        { messageId: 'legacyRequest', suggestions: [] },
      ],
    },
    {
      // a v1 file is upgraded to v2 as a whole first: that is `mcp-mrtr migrate`'s job, not one handler's
      code: SAMPLING_IN.replace("from '@modelcontextprotocol/server'", "from '@modelcontextprotocol/sdk/server/mcp.js'"),
      filename: IN_PROJECT,
      options: ON,
      errors: [
        { messageId: 'legacyRequest', suggestions: [] },
        { messageId: 'legacyRequest', suggestions: [] },
      ],
    },
    {
      // the codemod is not installed where the file lives: no suggestion, no error
      code: SAMPLING_IN,
      filename: path.join(os.tmpdir(), 'no-codemod-here', 'server.ts'),
      options: ON,
      errors: [
        { messageId: 'legacyRequest', suggestions: [] },
        { messageId: 'legacyRequest', suggestions: [] },
      ],
    },
  ],
});
