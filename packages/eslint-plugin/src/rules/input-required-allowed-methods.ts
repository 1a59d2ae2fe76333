import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { MRTR_HANDLER_DESCRIPTION, NON_HANDLER_ADVICE, TARGET } from '@mcp-mrtr/surface';
import { textHasAny } from '../utils/ast.js';
import { createRule } from '../utils/create-rule.js';
import { getMcpContextResolver } from '../utils/mcp-context.js';
import { isInputRequiredCall, isRawInputRequiredObject } from '../utils/mrtr-results.js';

type MessageId = 'notMrtrHandler';

export default createRule<[], MessageId>({
  name: 'input-required-allowed-methods',
  meta: {
    type: 'problem',
    docs: {
      description: 'Allow input_required results only in tools/call, prompts/get and resources/read handlers',
    },
    schema: [],
    messages: {
      notMrtrHandler:
        'input_required can only be returned by ' + MRTR_HANDLER_DESCRIPTION + '; this code runs elsewhere ({{where}}): {{advice}}.',
    },
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    if (!textHasAny(sourceCode.text, [TARGET.inputRequired, TARGET.inputRequiredValue])) return {};
    const resolver = getMcpContextResolver(sourceCode);

    function check(node: TSESTree.Node): void {
      const where = resolver.contextOf(node);
      if (where.kind === 'client') {
        context.report({ node, messageId: 'notMrtrHandler', data: { where: 'a client-side request handler', advice: NON_HANDLER_ADVICE['non-mrtr-request-handler'] } });
        return;
      }
      // module-level constants are definitions, not results; unknown places are not claimed
      if (where.kind !== 'non-handler' || where.context === 'module-scope') return;
      context.report({ node, messageId: 'notMrtrHandler', data: { where: where.context, advice: NON_HANDLER_ADVICE[where.context] } });
    }

    return {
      CallExpression(node) {
        if (isInputRequiredCall(sourceCode, node)) check(node);
      },
      ObjectExpression(node) {
        if (node.parent.type === AST_NODE_TYPES.CallExpression && isInputRequiredCall(sourceCode, node.parent)) return;
        if (isRawInputRequiredObject(node)) check(node);
      },
    };
  },
});
