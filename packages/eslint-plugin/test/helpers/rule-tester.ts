/** RuleTester wiring for the core rules: typescript-eslint parser, plain JS through espree, typed variant. */
import { fileURLToPath } from 'node:url';
import { RuleTester } from '@typescript-eslint/rule-tester';
import * as espree from 'espree';
import { afterAll, describe, it } from 'vitest';

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
// No timeout of its own: each case gets vitest.config.ts's, sized for a loaded 2-core machine (the
// first typed case builds a TypeScript program); test/repo/timeouts.test.ts in the codemod checks it.
RuleTester.it = (name: string, fn: () => void) => it(name, fn);
RuleTester.itOnly = (name: string, fn: () => void) => it.only(name, fn);

/** typescript-eslint parser without type information (how `recommended` runs in editors). */
export const tsTester = new RuleTester();

/** Plain JavaScript parsed by espree, ESLint's default parser. */
export const jsTester = new RuleTester({
  languageOptions: { parser: espree as never, parserOptions: { ecmaVersion: 2022, sourceType: 'module' } },
});

/** With type information from the tiny project in `test/typed-project`. */
export const typedTester = new RuleTester({
  languageOptions: {
    parserOptions: { project: './tsconfig.json', tsconfigRootDir: fileURLToPath(new URL('../typed-project', import.meta.url)) },
  },
});

/**
 * The rule-tester package pins its own copy of @typescript-eslint/utils, whose RuleModule type is
 * nominally different from ours; the runtime objects are identical.
 */
export function asTesterRule<T>(rule: T): any {
  return rule;
}

export const JS_FILE = 'file.js';
