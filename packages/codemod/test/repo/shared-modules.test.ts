/**
 * Test files share their worker's modules (`isolate: false` in the vitest configs): TypeScript,
 * ts-morph, typescript-eslint, ESLint and the SDKs load once a worker instead of once a file. A file
 * that replaced a module (`vi.mock`), stubbed a global or changed directory would hand that to the
 * files the worker runs after it. In the plugin no file may; in the codemod only the files its
 * config runs isolated may, and the environment and the clock, which several codemod files set, are
 * put back after each file (test/setup/file-boundary.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import pluginConfig from '../../../eslint-plugin/vitest.config.js';
import codemodConfig, { ISOLATED_FILES } from '../../vitest.config.js';
import { repoRoot } from '../cli/helpers.js';
import { typeScriptFiles } from './source-files.js';

const PROCESS_CHANGERS = new Set(['vi.mock', 'vi.doMock', 'vi.stubGlobal', 'vi.stubEnv', 'vi.useFakeTimers', 'process.chdir']);

/** `file:line` of each call of a process changer or assignment to `process.env` in the code of `dir`'s test files (not in a string they write out). */
function processChanges(dir: string, changers: ReadonlySet<string> = PROCESS_CHANGERS): string[] {
  return typeScriptFiles(dir).flatMap((file) => {
    const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const found: string[] = [];
    const at = (node: ts.Node) => `${path.relative(dir, file)}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && changers.has(node.expression.getText(sf))) found.push(at(node));
      if (changers !== PROCESS_CHANGERS) {
        ts.forEachChild(node, visit);
        return;
      }
      if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment && /^process\.env\b/.test(node.left.getText(sf))) found.push(at(node));
      if (ts.isDeleteExpression(node) && /^process\.env\b/.test(node.expression.getText(sf))) found.push(at(node));
      ts.forEachChild(node, visit);
    };
    visit(sf);
    return found;
  });
}

describe('plugin test files sharing a worker', () => {
  it('share modules, and none mocks a module, stubs a global, fakes the clock or sets the environment', () => {
    expect(pluginConfig.test?.isolate).toBe(false);
    expect(processChanges(path.join(repoRoot, 'packages/eslint-plugin/test'))).toEqual([]);
  });

  it('the check sees such a change (in the codemod tests)', () => {
    expect(processChanges(path.join(repoRoot, 'packages/codemod/test'))).toEqual(expect.arrayContaining([expect.stringMatching(/^tests-beside-walk\.test\.ts:\d+$/), expect.stringMatching(/^contextless-handler-calls\.test\.ts:\d+$/)]));
  });
});

/** What test/setup/file-boundary.ts cannot put back after a file: a replaced module, a stubbed global, the working directory. */
const MODULE_AND_GLOBAL_CHANGERS = new Set(['vi.mock', 'vi.doMock', 'vi.stubGlobal', 'process.chdir']);

describe('codemod test files sharing a worker', () => {
  it('share modules, and only the files run isolated replace a module, stub a global or change directory', () => {
    const projects = (codemodConfig.test?.projects ?? []) as { test?: { name?: string; isolate?: boolean; include?: string[] } }[];
    expect(projects.find((p) => p.test?.name === 'shared')?.test?.isolate).toBe(false);
    expect(projects.find((p) => p.test?.name === 'isolated')?.test?.include).toEqual(ISOLATED_FILES);
    const changing = [...new Set(processChanges(path.join(repoRoot, 'packages/codemod/test'), MODULE_AND_GLOBAL_CHANGERS).map((at) => `test/${at.replace(/:\d+$/, '')}`))];
    expect(changing.sort()).toEqual([...ISOLATED_FILES].sort());
  });
});
