import { ESLintUtils } from '@typescript-eslint/utils';
import { PROJECT_DOCS_BASE } from '@mcp-mrtr/surface';

export interface McpMrtrRuleDocs {
  description: string;
  /** Part of `configs.recommended` (no type information needed). */
  recommended?: boolean;
  /** Uses type information when parser services are present. */
  requiresTypeChecking?: boolean;
}

export const createRule = ESLintUtils.RuleCreator<McpMrtrRuleDocs>(
  (name) => `${PROJECT_DOCS_BASE}/packages/eslint-plugin/docs/rules/${name}.md`,
);
