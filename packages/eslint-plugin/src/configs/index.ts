import tsParser from '@typescript-eslint/parser';
import type { ESLint, Linter } from 'eslint';
import { RULE_SEVERITY, type RuleName } from './severity.js';

export const NAMESPACE = '@mcp-mrtr';

/**
 * The files a preset applies to. A flat config without `files` only reaches ESLint's default
 * `*.js`/`*.mjs`/`*.cjs`, so a TypeScript project would have every file "ignored" and lint green.
 */
export const SOURCE_FILES = ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts', '**/*.js', '**/*.jsx', '**/*.mjs', '**/*.cjs'];

/** Every rule whose severity in `recommended` is not `off`, at that severity. */
export function recommendedRules(ruleNames: readonly RuleName[]): Linter.RulesRecord {
  const out: Linter.RulesRecord = {};
  for (const name of ruleNames) {
    const severity = RULE_SEVERITY[name];
    if (severity !== 'off') out[`${NAMESPACE}/${name}`] = severity;
  }
  return out;
}

/** Every rule, as an error. */
export function strictRules(ruleNames: readonly string[]): Linter.RulesRecord {
  const out: Linter.RulesRecord = {};
  for (const name of ruleNames) out[`${NAMESPACE}/${name}`] = 'error';
  return out;
}

/**
 * A preset that works as is in TypeScript and JavaScript projects: it names its files and parses them
 * with @typescript-eslint/parser (which reads JavaScript too), as typescript-eslint's own presets do.
 * Typed with the user's own `eslint` types so `defineConfig(...)` and `Linter.Config[]` accept it.
 */
export function preset(name: string, plugin: ESLint.Plugin, rules: Linter.RulesRecord): Linter.Config {
  return {
    name: `${NAMESPACE}/${name}`,
    files: SOURCE_FILES,
    languageOptions: { parser: tsParser as unknown as Linter.Parser },
    plugins: { [NAMESPACE]: plugin },
    rules,
  };
}
