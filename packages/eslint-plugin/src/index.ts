/**
 * @mcp-mrtr/eslint-plugin: finds leftover MCP server-to-client requests and unsafe MRTR code.
 *
 *   import mcpMrtr from '@mcp-mrtr/eslint-plugin';
 *   export default [mcpMrtr.configs.recommended];
 */
import type { TSESLint } from '@typescript-eslint/utils';
import packageJson from '../package.json' with { type: 'json' };
import { NAMESPACE, recommendedRules, strictRules } from './configs/index.js';
import { rules } from './rules/index.js';

export interface McpMrtrPlugin {
  meta: { name: string; version: string; namespace: string };
  rules: typeof rules;
  configs: { recommended: TSESLint.FlatConfig.Config; strict: TSESLint.FlatConfig.Config };
}

const plugin: McpMrtrPlugin = {
  meta: { name: packageJson.name, version: packageJson.version, namespace: NAMESPACE },
  rules,
  configs: {} as McpMrtrPlugin['configs'],
};

plugin.configs.recommended = {
  name: `${NAMESPACE}/recommended`,
  plugins: { [NAMESPACE]: plugin as unknown as TSESLint.FlatConfig.Plugin },
  rules: recommendedRules(rules),
};
plugin.configs.strict = {
  name: `${NAMESPACE}/strict`,
  plugins: { [NAMESPACE]: plugin as unknown as TSESLint.FlatConfig.Plugin },
  rules: strictRules(rules),
};

export default plugin;
