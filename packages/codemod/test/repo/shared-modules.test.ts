/**
 * The plugin's test files share their worker's modules (`isolate: false` in its vitest config):
 * typescript-eslint, TypeScript and ESLint load once a worker instead of once a file. A file that
 * replaced a module (`vi.mock`), stubbed a global or set the environment would hand that to the
 * files the worker runs after it, so none may.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import pluginConfig from '../../../eslint-plugin/vitest.config.js';
import { repoRoot } from '../cli/helpers.js';
import { typeScriptFiles } from './source-files.js';

const PROCESS_CHANGERS = new Set(['vi.mock', 'vi.doMock', 'vi.stubGlobal', 'vi.stubEnv', 'vi.useFakeTimers', 'process.chdir']);

/** `file:line` of each call of a process changer or assignment to `process.env` in the code of `dir`'s test files (not in a string they write out). */
function processChanges(dir: string): string[] {
  return typeScriptFiles(dir).flatMap((file) => {
    const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const found: string[] = [];
    const at = (node: ts.Node) => `${path.relative(dir, file)}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && PROCESS_CHANGERS.has(node.expression.getText(sf))) found.push(at(node));
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

  it('the check sees such a change (in the codemod tests, which run isolated)', () => {
    expect(processChanges(path.join(repoRoot, 'packages/codemod/test'))).toEqual(expect.arrayContaining([expect.stringMatching(/^tests-beside-walk\.test\.ts:\d+$/), expect.stringMatching(/^contextless-handler-calls\.test\.ts:\d+$/)]));
  });
});
