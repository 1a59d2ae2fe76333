/**
 * vitest.config.ts sizes the timeouts for a loaded 2-core machine, where one typed migration can
 * take minutes; a test file lowering them for all its tests (`vi.setConfig`) turns a busy machine
 * into a red run (test/migrate.test.ts's 300 s, once, under a load of 25 on 2 cores). A test that
 * must end sooner says so on itself, with its reason. What tests start outside their process gets
 * the timeouts of test/child-timeouts.ts: a project's own vitest run (vitest's 5 s default failed
 * test-called-helpers' migrated project under load) and every child process (the demo's 110 s).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { afterAll, describe, expect, it } from 'vitest';
import config from '../../vitest.config.js';
import pluginConfig from '../../../eslint-plugin/vitest.config.js';
import { CHILD_PROCESS_TIMEOUT_MS as PLUGIN_CHILD_PROCESS_TIMEOUT_MS } from '../../../eslint-plugin/test/child-timeouts.js';
import { CHILD_PROCESS_TIMEOUT_MS } from '../child-timeouts.js';
import { cleanupProjects, makeProject, packageRoot, repoRoot } from '../cli/helpers.js';
import { runProjectTests } from '../cli/vitest-run.js';
import { typeScriptFiles } from './source-files.js';

const TIMEOUTS = ['testTimeout', 'hookTimeout'] as const;

/** The timeouts `vi.setConfig({ ... })` calls of `text` set, as `name=value` (a value that is not a literal number as `name=?`). */
export function configuredTimeouts(file: string, text: string): string[] {
  if (!text.includes('setConfig')) return [];
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.expression.getText(sf) === 'vi.setConfig' && node.arguments[0] && ts.isObjectLiteralExpression(node.arguments[0])) {
      for (const property of node.arguments[0].properties) {
        if (!ts.isPropertyAssignment(property) || !(TIMEOUTS as readonly string[]).includes(property.name.getText(sf))) continue;
        const value = ts.isNumericLiteral(property.initializer) ? Number(property.initializer.text.replace(/_/g, '')) : '?';
        found.push(`${property.name.getText(sf)}=${value}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

const CHILD_PROCESS_CALLS = new Set(['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'execFileAsync']);
const TEST_CALLS = new Set(['it', 'test', 'describe']);

/** The numbers `const NAME = 60_000` declarations of `sf` give their names (shadowing aside: a check, not a compiler). */
function numericConstants(sf: ts.SourceFile): Map<string, number> {
  const constants = new Map<string, number>();
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclarationList(node) && node.flags & ts.NodeFlags.Const) {
      for (const declaration of node.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.initializer && ts.isNumericLiteral(declaration.initializer)) constants.set(declaration.name.text, Number(declaration.initializer.text.replace(/_/g, '')));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return constants;
}

/** The root name of a callee: `it` for `it`, `it.only`, `it.concurrent.skip` and `it.each(rows)`. */
function rootName(callee: ts.Expression): string | undefined {
  let current = callee;
  while (ts.isPropertyAccessExpression(current) || ts.isCallExpression(current)) current = current.expression;
  return ts.isIdentifier(current) ? current.text : undefined;
}

/**
 * The `timeout`s of `text` below `floor`, as `line: call timeout=value`: in the options of a
 * child-process call (`kind` 'child') or of a test or suite (`kind` 'test', also `it.only` and the
 * like, and vitest's positional timeout, `it(name, fn, 60_000)`). A value is a number literal or the
 * name of a `const` of this file holding one (`it(name, fn, CASE_TIMEOUT_MS)`).
 */
export function lowTimeouts(file: string, text: string, kind: 'child' | 'test', floor: number): string[] {
  if (!/timeout/i.test(text)) return [];
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const constants = numericConstants(sf);
  const valueOf = (expression: ts.Expression): number | undefined =>
    ts.isNumericLiteral(expression) ? Number(expression.text.replace(/_/g, '')) : ts.isIdentifier(expression) ? constants.get(expression.text) : undefined;
  const calls = kind === 'child' ? CHILD_PROCESS_CALLS : TEST_CALLS;
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = kind === 'test' ? rootName(node.expression) : ts.isPropertyAccessExpression(node.expression) ? node.expression.name.text : node.expression.getText(sf);
      if (callee !== undefined && calls.has(callee)) {
        const values = node.arguments.filter(ts.isObjectLiteralExpression).flatMap((options) =>
          options.properties.flatMap((property) => (ts.isPropertyAssignment(property) && property.name.getText(sf) === 'timeout' ? [valueOf(property.initializer)] : [])),
        );
        // vitest's it/test/describe(name, fn, timeout): a number after the name
        if (kind === 'test') values.push(...node.arguments.slice(1).filter((argument) => !ts.isObjectLiteralExpression(argument)).map(valueOf));
        for (const value of values) {
          if (value !== undefined && value < floor) found.push(`${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}: ${callee} timeout=${value}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** `lowTimeouts` over every test source of the package (`root`, this one unless given), each prefixed with its file. */
function lowTimeoutsInTests(kind: 'child' | 'test', floor: number, root = packageRoot): string[] {
  return typeScriptFiles(path.join(root, 'test')).flatMap((file) =>
    lowTimeouts(file, fs.readFileSync(file, 'utf8'), kind, floor).map((found) => `${path.relative(root, file)}:${found}`),
  );
}

afterAll(cleanupProjects);

describe("test files keep the config's timeouts", () => {
  it('reads the timeouts a vi.setConfig call sets', () => {
    expect(configuredTimeouts('a.test.ts', 'vi.setConfig({ testTimeout: 120_000, hookTimeout: limit, retry: 1 });\n')).toEqual(['testTimeout=120000', 'hookTimeout=?']);
    expect(configuredTimeouts('a.test.ts', "const text = 'vi.setConfig({ testTimeout: 1 })';\n")).toEqual([]);
  });

  it('no test file lowers the test or hook timeout for all its tests', () => {
    const floor = Math.min(...TIMEOUTS.map((name) => config.test?.[name] ?? 0));
    expect(floor).toBeGreaterThanOrEqual(600_000);
    const lowered = typeScriptFiles(path.join(packageRoot, 'test')).flatMap((file) =>
      configuredTimeouts(file, fs.readFileSync(file, 'utf8'))
        .filter((setting) => !(Number(setting.split('=')[1]) >= floor))
        .map((setting) => `${path.relative(packageRoot, file)}: ${setting}`),
    );
    expect(lowered).toEqual([]);
  });

  it('reads the literal timeouts of child-process calls and of tests', () => {
    const text = [
      "spawnSync('tsc', [], { encoding: 'utf8', timeout: 120_000 });",
      'await execFileAsync(node, args, { timeout: 600_000 });',
      "it('runs', { timeout: 60_000 }, () => {});",
      "server.createMessage({ messages: [] }, { timeout: 1000 });",
      'spawnSync(node, [], { timeout: limit });',
    ].join('\n');
    expect(lowTimeouts('a.test.ts', text, 'child', 600_000)).toEqual(['1: spawnSync timeout=120000']);
    expect(lowTimeouts('a.test.ts', text, 'test', 900_000)).toEqual(['3: it timeout=60000']);
  });

  it("reads a test's positional timeout and a file constant given as one (vitest's it(name, fn, timeout))", () => {
    const text = [
      'const CASE_TIMEOUT_MS = 60_000;',
      "it('a', () => {}, 30_000);",
      'RuleTester.it = (name, fn) => it(name, fn, CASE_TIMEOUT_MS);',
      'RuleTester.itOnly = (name, fn) => it.only(name, fn, CASE_TIMEOUT_MS);',
      "test.concurrent('b', { timeout: CASE_TIMEOUT_MS }, () => {});",
      "it('c', () => {}, 900_000);",
      "it('d', () => {}, limit);",
      "it.each([1])('e %i', () => {}, 1000);",
    ].join('\n');
    expect(lowTimeouts('a.test.ts', text, 'test', 900_000)).toEqual(['2: it timeout=30000', '3: it timeout=60000', '4: it timeout=60000', '5: test timeout=60000', '8: it timeout=1000']);
  });

  it('no child process a test starts is killed sooner than test/child-timeouts.ts says', () => {
    expect(lowTimeoutsInTests('child', CHILD_PROCESS_TIMEOUT_MS)).toEqual([]);
  });

  it("the plugin's tests give the child processes they start as long (packages/eslint-plugin/test/child-timeouts.ts)", () => {
    expect(PLUGIN_CHILD_PROCESS_TIMEOUT_MS).toBe(CHILD_PROCESS_TIMEOUT_MS);
    const plugin = path.join(repoRoot, 'packages/eslint-plugin');
    expect(lowTimeoutsInTests('child', CHILD_PROCESS_TIMEOUT_MS, plugin)).toEqual([]);
    // the plugin's tests do start child processes: the scan above has something to look at
    const starters = typeScriptFiles(path.join(plugin, 'test')).filter((file) => /\b(spawnSync|execFileSync)\(/.test(fs.readFileSync(file, 'utf8')));
    expect(starters.map((file) => path.basename(file)).sort()).toEqual(['plugin.test.ts', 'presets.test.ts']);
    for (const file of starters) expect(fs.readFileSync(file, 'utf8'), file).toContain('timeout: CHILD_PROCESS_TIMEOUT_MS');
  });

  it("no test or suite ends sooner than the config's test timeout", () => {
    expect(lowTimeoutsInTests('test', config.test?.testTimeout ?? 0)).toEqual([]);
  });

  it("no plugin test or suite ends sooner than the plugin config's test timeout (the RuleTester cases too)", () => {
    expect(pluginConfig.test?.testTimeout ?? 0).toBeGreaterThanOrEqual(600_000);
    expect(lowTimeoutsInTests('test', pluginConfig.test?.testTimeout ?? 0, path.join(repoRoot, 'packages/eslint-plugin'))).toEqual([]);
  });

  it("a project's own vitest run gives its tests longer than vitest's 5 s default", () => {
    const dir = makeProject({
      'package.json': '{ "name": "slow-tests", "type": "module", "private": true }\n',
      'slow.test.js': "import { it } from 'vitest';\nit('takes longer than 5 s', () => new Promise((resolve) => setTimeout(resolve, 6000)));\n",
    });
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    expect(runProjectTests(dir, [])).toEqual([{ title: 'takes longer than 5 s', status: 'passed' }]);
  });

  it("no test starts a project's vitest but through vitestRunArgs (test/cli/vitest-run.ts)", () => {
    // test-output.test.ts runs this repository's own packages, under their own configs; this file names it to look for it
    const own = ['test/cli/vitest-run.ts', 'test/repo/test-output.test.ts', 'test/repo/timeouts.test.ts'];
    const starters = typeScriptFiles(path.join(packageRoot, 'test'))
      .filter((file) => fs.readFileSync(file, 'utf8').includes('vitest.mjs'))
      .map((file) => path.relative(packageRoot, file));
    expect(starters.filter((file) => !own.includes(file))).toEqual([]);
  });
});
