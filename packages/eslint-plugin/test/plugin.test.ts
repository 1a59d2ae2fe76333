/**
 * Guards over the plugin as a whole: rule files ↔ exported rules ↔ docs ↔ configs, metadata, and the
 * built package loading from CommonJS and ESM.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PROJECT_DOCS_BASE } from '@mcp-mrtr/surface';
import tsParser from '@typescript-eslint/parser';
import Ajv from 'ajv';
import { ESLint, Linter } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { RULE_SEVERITY } from '../src/configs/severity.js';
import { CHILD_PROCESS_TIMEOUT_MS } from './child-timeouts.js';
import plugin from '../src/index.js';

const PKG = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const RULES_DIR = join(PKG, 'src/rules');
const DOCS_DIR = join(PKG, 'docs/rules');
const packageJson = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8')) as { name: string; version: string; exports: any; peerDependencies: Record<string, string> };

const ruleFiles = readdirSync(RULES_DIR)
  .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();
const ruleNames = Object.keys(plugin.rules).sort();
type AnyRule = { meta: { docs?: { url?: string; description?: string }; schema?: unknown; type?: string; hasSuggestions?: boolean; fixable?: string } };
const rules = plugin.rules as unknown as Record<string, AnyRule>;

describe('rule inventory', () => {
  it('exports exactly the rule files, and the twelve contract names', () => {
    expect(ruleNames).toEqual(ruleFiles);
    expect(ruleNames).toEqual(Object.keys(RULE_SEVERITY).sort());
  });

  it.each(ruleFiles)('%s: doc page with Incorrect and Correct examples, linked from meta.docs.url', (name) => {
    const docPath = join(DOCS_DIR, `${name}.md`);
    expect(existsSync(docPath), `${docPath} missing`).toBe(true);
    const doc = readFileSync(docPath, 'utf8');
    expect(doc).toMatch(new RegExp(`^# ${name}\\b`, 'm'));
    const incorrect = doc.search(/^#+ .*Incorrect/im);
    const correct = doc.search(/^#+ .*(?<!In)Correct/m);
    expect(incorrect).toBeGreaterThanOrEqual(0);
    expect(correct).toBeGreaterThan(incorrect);
    // each section holds at least one code example
    expect(doc.slice(incorrect, correct)).toMatch(/```(ts|js|typescript|javascript)/);
    expect(doc.slice(correct)).toMatch(/```(ts|js|typescript|javascript)/);
    // the severity is declared once (RULE_SEVERITY); the page repeats it for readers
    const severity = RULE_SEVERITY[name as keyof typeof RULE_SEVERITY];
    const severityLine = /^- Severity: (.*)$/m.exec(doc)?.[1] ?? '';
    expect(severityLine).toMatch(severity === 'off' ? /^not in `recommended`/ : new RegExp(`^\\*\\*${severity}\\*\\* in \`recommended\``));
    expect(severityLine).toMatch(/error in `strict`|and `strict`/);
    const rule = rules[name];
    expect(rule.meta.docs?.url).toBe(`${PROJECT_DOCS_BASE}/packages/eslint-plugin/docs/rules/${name}.md`);
    expect(rule.meta.docs?.description?.length).toBeGreaterThan(20);
    expect(['problem', 'suggestion', 'layout']).toContain(rule.meta.type);
    // no behaviour-changing autofix: fixes are offered as suggestions only
    expect(rule.meta.fixable).toBeUndefined();
  });

  it.each(ruleFiles)('%s: meta.schema is a valid JSON schema', (name) => {
    const schema = rules[name].meta.schema;
    expect(schema === false || Array.isArray(schema) || (typeof schema === 'object' && schema !== null)).toBe(true);
    // ESLint validates rule options with ajv 6 against JSON Schema draft-04; so does this test.
    // Named as the default meta-schema, or ajv warns "meta-schema not available" on every compile.
    const ajv = new Ajv({ meta: false, validateSchema: true, schemaId: 'auto', missingRefs: 'ignore', defaultMeta: DRAFT_04 } as never);
    ajv.addMetaSchema(require4Meta());
    // as ESLint wraps an options array (no `items` for a rule without options)
    const wrapped = Array.isArray(schema) ? { type: 'array', ...(schema.length > 0 ? { items: schema } : {}), minItems: 0, maxItems: schema.length } : schema;
    if (wrapped) expect(() => ajv.compile(wrapped as object)).not.toThrow();
  });
});

const DRAFT_04 = 'http://json-schema.org/draft-04/schema#';

function require4Meta(): object {
  const require = createRequire(import.meta.url);
  return require('ajv/lib/refs/json-schema-draft-04.json') as object;
}

describe('configs', () => {
  it('have names and carry the plugin itself', () => {
    for (const key of ['recommended', 'strict'] as const) {
      const config = plugin.configs[key];
      expect(config.name).toBe(`@mcp-mrtr/${key}`);
      expect(config.plugins?.['@mcp-mrtr']).toBe(plugin);
    }
    expect(plugin.meta).toEqual({ name: packageJson.name, version: packageJson.version, namespace: '@mcp-mrtr' });
    expect(packageJson.peerDependencies.eslint).toBe('^9 || ^10');
  });

  it('strict turns on every rule; recommended every recommended rule at its contract severity', () => {
    const strict = plugin.configs.strict.rules ?? {};
    const recommended = plugin.configs.recommended.rules ?? {};
    expect(Object.keys(strict).sort()).toEqual(ruleNames.map((n) => `@mcp-mrtr/${n}`));
    for (const name of ruleNames) {
      const id = `@mcp-mrtr/${name}`;
      expect(strict[id]).toBe('error');
      const severity = RULE_SEVERITY[name as keyof typeof RULE_SEVERITY];
      if (severity === 'off') expect(recommended[id]).toBeUndefined();
      else expect(recommended[id]).toBe(severity);
    }
    // the core rules (requests, MRTR result shape, state verification) are all recommended
    for (const name of ['no-server-initiated-requests', 'require-request-state-verification', 'input-required-allowed-methods', 'no-empty-input-required', 'consistent-input-keys', 'no-unvalidated-input-responses']) {
      expect(recommended[`@mcp-mrtr/${name}`], name).toBeDefined();
    }
  });

  it('ESLint accepts every rule with its schema and runs the strict config over TS and JS', () => {
    const linter = new Linter({ configType: 'flat' });
    const code = `mcp.tool('t', {}, async () => { await mcp.server.elicitInput({ message: 'x', requestedSchema: {} }); return { content: [] }; });`;
    const js = linter.verify(code, [plugin.configs.strict as Linter.Config]);
    expect(js.filter((m) => m.fatal)).toEqual([]);
    expect(js.map((m) => m.ruleId)).toContain('@mcp-mrtr/no-server-initiated-requests');
    const ts = linter.verify(
      `const extra: any = {};\n${code}`,
      [{ files: ['**/*.ts'], languageOptions: { parser: tsParser as unknown as Linter.Parser } }, { ...(plugin.configs.strict as Linter.Config), files: ['**/*.ts'] }],
      join(PKG, 'virtual.ts'),
    );
    expect(ts.filter((m) => m.fatal)).toEqual([]);
    expect(ts.filter((m) => m.ruleId === '@mcp-mrtr/no-server-initiated-requests').map((m) => m.line)).toEqual([2]);
  });
});

describe('built package', () => {
  const cjs = join(PKG, 'dist/index.cjs');
  const esm = join(PKG, 'dist/index.js');

  beforeAll(() => {
    // turbo runs `build` before `test`; when run alone with a stale or missing dist, build first
    const newestSource = Math.max(...listFiles(join(PKG, 'src')).map((f) => statSync(f).mtimeMs));
    const stale = [cjs, esm].some((f) => !existsSync(f) || statSync(f).mtimeMs < newestSource);
    if (stale) execFileSync('npx', ['turbo', 'run', 'build', '--filter=@mcp-mrtr/eslint-plugin', '--output-logs=errors-only'], { cwd: PKG, stdio: 'pipe', timeout: CHILD_PROCESS_TIMEOUT_MS });
  });

  it('package.json exports point at the built files for import and require', () => {
    expect(packageJson.exports['.'].import.default).toBe('./dist/index.js');
    expect(packageJson.exports['.'].require.default).toBe('./dist/index.cjs');
    for (const f of ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts']) expect(existsSync(join(PKG, f)), f).toBe(true);
  });

  it('require() returns the plugin itself (not { default })', () => {
    const require = createRequire(import.meta.url);
    const loaded = require(cjs);
    expect(loaded.meta).toEqual(plugin.meta);
    expect(Object.keys(loaded.rules).sort()).toEqual(ruleNames);
    expect(loaded.configs.recommended.plugins['@mcp-mrtr']).toBe(loaded);
  });

  it('import() yields the plugin as default export, and ESLint runs it', async () => {
    const loaded = (await import(pathToFileURL(esm).href)).default;
    expect(loaded.meta).toEqual(plugin.meta);
    expect(Object.keys(loaded.rules).sort()).toEqual(ruleNames);
    const eslint = new ESLint({ overrideConfigFile: true, overrideConfig: [loaded.configs.recommended] });
    const [result] = await eslint.lintText(`server.registerTool('t', {}, async (a, ctx) => { await ctx.mcpReq.requestSampling({ messages: [] }); });`, { filePath: join(PKG, 'virtual.js') });
    expect(result.messages.map((m) => m.ruleId)).toContain('@mcp-mrtr/no-server-initiated-requests');
  });
});

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)]));
}
