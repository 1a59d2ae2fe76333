/**
 * @mcp-mrtr/eslint-plugin: finds leftover MCP server-to-client requests and unsafe MRTR code.
 *
 *   import mcpMrtr from '@mcp-mrtr/eslint-plugin';
 *   export default [mcpMrtr.configs.recommended];
 */
import type { ESLint, Linter } from 'eslint';
import packageJson from '../package.json' with { type: 'json' };
import { NAMESPACE, preset, recommendedRules, strictRules } from './configs/index.js';
import { rules } from './rules/index.js';

export interface McpMrtrPlugin {
  meta: { name: string; version: string; namespace: string };
  rules: typeof rules;
  configs: { recommended: Linter.Config; strict: Linter.Config };
}

const plugin: McpMrtrPlugin = {
  meta: { name: packageJson.name, version: packageJson.version, namespace: NAMESPACE },
  rules,
  configs: {} as McpMrtrPlugin['configs'],
};

// typescript-eslint's rule modules and ESLint's own Rule.RuleModule type differ only in detail
const asEslintPlugin = plugin as unknown as ESLint.Plugin;
const ruleNames = Object.keys(rules) as (keyof typeof rules)[];
plugin.configs.recommended = preset('recommended', asEslintPlugin, recommendedRules(ruleNames));
plugin.configs.strict = preset('strict', asEslintPlugin, strictRules(ruleNames));

export default plugin;
