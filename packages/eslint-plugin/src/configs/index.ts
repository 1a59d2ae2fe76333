import type { TSESLint } from '@typescript-eslint/utils';
import { RULE_SEVERITY, type RuleName } from './severity.js';

export const NAMESPACE = '@mcp-mrtr';

interface RuleWithDocs {
  meta: { docs?: { recommended?: unknown } };
}

type RulesRecord = Record<string, TSESLint.FlatConfig.RuleEntry>;

function severityOf(name: string): TSESLint.FlatConfig.RuleEntry {
  return Object.prototype.hasOwnProperty.call(RULE_SEVERITY, name) ? RULE_SEVERITY[name as RuleName] : 'error';
}

/** Rules marked `docs.recommended` (none needs type information), at their contract severity. */
export function recommendedRules(rules: Readonly<Record<string, RuleWithDocs>>): RulesRecord {
  const out: RulesRecord = {};
  for (const [name, rule] of Object.entries(rules)) {
    if (rule.meta.docs?.recommended) out[`${NAMESPACE}/${name}`] = severityOf(name);
  }
  return out;
}

/** Every rule, as an error. */
export function strictRules(rules: Readonly<Record<string, RuleWithDocs>>): RulesRecord {
  const out: RulesRecord = {};
  for (const name of Object.keys(rules)) out[`${NAMESPACE}/${name}`] = 'error';
  return out;
}
