import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import {
  DEFAULT_STATE_KEY_ENV,
  PER_PROCESS_RANDOM_FUNCTIONS,
  REQUEST_STATE_CODEC_OPTIONS,
  TARGET,
} from '@mcp-mrtr/surface';
import { findProperty, getCalleeName, isValueReference, literalString, resolveValue, unwrap, walk } from '../utils/ast.js';
import { callsMcpExport } from '../utils/mcp-imports.js';
import { typeServices } from '../utils/types.js';
import { createRule } from '../utils/create-rule.js';
import { fileTokenFilter } from '../utils/file-tokens.js';

type MessageId = 'missingBind' | 'literalKey' | 'literalFallbackKey' | 'randomKey' | 'addBind';

const SUGGESTED_BIND = 'bind: (ctx) => ctx.mcpReq.method';
/** Builders that turn literal text/bytes into a key (`Buffer.from('...')`, `new TextEncoder().encode('...')`). */
const KEY_BYTE_BUILDERS = new Set(['from', 'encode', 'Uint8Array', 'Buffer', 'alloc']);

const isRelevant = fileTokenFilter([TARGET.createRequestStateCodec]);

export default createRule<[], MessageId>({
  name: 'require-request-state-binding',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Require createRequestStateCodec to bind state to its request and to use a key shared by every server instance (not hard-coded, not random per process)',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      missingBind:
        'createRequestStateCodec without `bind`: a requestState minted for one request or principal is accepted on any other tools/call, prompts/get or resources/read. Bind it to the originating method and principal, e.g. `bind: (ctx) => `${ctx.mcpReq.method}\\0${ctx.http?.authInfo?.clientId ?? ""}``.',
      literalKey:
        'The requestState HMAC key is hard-coded: anyone who reads the source can forge state. Load it from configuration shared by all instances (e.g. process.env.{{env}}).',
      literalFallbackKey:
        'The requestState HMAC key falls back to a hard-coded value: a deployment that forgets the variable runs with a public key. Fail at start instead (e.g. throw when process.env.{{env}} is missing or shorter than 32 bytes).',
      randomKey:
        'The requestState key is random per process ({{fn}}()): a retry that lands on another instance, or arrives after a restart, fails verification. Multi-instance deployments are the reason MRTR exists: load one key shared by every instance (e.g. process.env.{{env}}).',
      addBind: `Add \`${SUGGESTED_BIND}\` (then pass ctx to every mint call).`,
    },
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    if (!isRelevant(sourceCode)) return {};
    const types = typeServices(context);
    const env = DEFAULT_STATE_KEY_ENV;

    function isHardCoded(node: TSESTree.Node, depth = 0): boolean {
      if (depth > 4) return false;
      const n = resolveValue(node, sourceCode);
      if (literalString(n) !== undefined) return true;
      switch (n.type) {
        case AST_NODE_TYPES.Literal:
          return typeof n.value === 'number';
        case AST_NODE_TYPES.ArrayExpression:
          return n.elements.length > 0 && n.elements.every((e) => e !== null && isHardCoded(e, depth + 1));
        case AST_NODE_TYPES.TemplateLiteral:
          return n.expressions.every((e) => isHardCoded(e, depth + 1));
        case AST_NODE_TYPES.BinaryExpression:
          return n.operator === '+' && isHardCoded(n.left, depth + 1) && isHardCoded(n.right, depth + 1);
        case AST_NODE_TYPES.CallExpression:
        case AST_NODE_TYPES.NewExpression: {
          // 'k'.repeat(32), 'a'.concat('b'): string methods on a literal stay literal
          const callee = unwrap(n.callee);
          if (
            callee.type === AST_NODE_TYPES.MemberExpression &&
            isHardCoded(callee.object, depth + 1) &&
            n.arguments.every((a) => isHardCoded(a, depth + 1))
          ) {
            return true;
          }
          const name = getCalleeName(n);
          return (
            name !== undefined &&
            KEY_BYTE_BUILDERS.has(name) &&
            n.arguments.length > 0 &&
            isHardCoded(n.arguments[0]!, depth + 1)
          );
        }
        default:
          break;
      }
      if (types && (n.type === AST_NODE_TYPES.Identifier || n.type === AST_NODE_TYPES.MemberExpression)) {
        const tsNode = types.tsNode(n);
        if (tsNode) return types.checker.getTypeAtLocation(tsNode).isStringLiteral();
      }
      return false;
    }

    /** Name of the first per-process random generator the key expression calls, through consts. */
    function randomSource(node: TSESTree.Node): string | undefined {
      let found: string | undefined;
      const seen = new Set<TSESTree.Node>();
      const visit = (root: TSESTree.Node, depth: number): void => {
        walk(root, sourceCode.visitorKeys, (n) => {
          if (found) return 'stop';
          if (n.type === AST_NODE_TYPES.CallExpression || n.type === AST_NODE_TYPES.NewExpression) {
            const name = getCalleeName(n);
            if (name && PER_PROCESS_RANDOM_FUNCTIONS.includes(name)) {
              found = name;
              return 'stop';
            }
          }
          if (n.type === AST_NODE_TYPES.Identifier && depth < 3 && isValueReference(n)) {
            const resolved = resolveValue(n, sourceCode, 1);
            if (resolved !== n && !seen.has(resolved)) {
              seen.add(resolved);
              visit(resolved, depth + 1);
            }
          }
          if (n.type === AST_NODE_TYPES.ArrowFunctionExpression || n.type === AST_NODE_TYPES.FunctionExpression) return false;
          return undefined;
        });
      };
      visit(node, 0);
      return found;
    }

    function checkKey(value: TSESTree.Node): void {
      const key = unwrap(value);
      if (key.type === AST_NODE_TYPES.LogicalExpression && (key.operator === '??' || key.operator === '||')) {
        if (isHardCoded(key.right)) {
          context.report({ node: key.right, messageId: 'literalFallbackKey', data: { env } });
          return;
        }
      } else if (isHardCoded(key)) {
        context.report({ node: value, messageId: 'literalKey', data: { env } });
        return;
      }
      const fn = randomSource(key);
      if (fn) context.report({ node: value, messageId: 'randomKey', data: { fn, env } });
    }

    return {
      CallExpression(call) {
        const callee = unwrap(call.callee);
        const isCodecCall =
          (callee.type === AST_NODE_TYPES.Identifier && callsMcpExport(sourceCode, call, [TARGET.createRequestStateCodec])) ||
          (callee.type === AST_NODE_TYPES.MemberExpression && getCalleeName(call) === TARGET.createRequestStateCodec);
        if (!isCodecCall || call.arguments.length === 0) return;
        const options = resolveValue(call.arguments[0]!, sourceCode);
        if (options.type !== AST_NODE_TYPES.ObjectExpression) return;

        const key = findProperty(options, REQUEST_STATE_CODEC_OPTIONS.key);
        if (key) checkKey(key.value);

        const hasSpread = options.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement);
        if (!findProperty(options, REQUEST_STATE_CODEC_OPTIONS.bind) && !hasSpread) {
          const last = options.properties[options.properties.length - 1];
          context.report({
            node: call.callee,
            messageId: 'missingBind',
            suggest: [
              {
                messageId: 'addBind',
                fix: (fixer) =>
                  last
                    ? fixer.insertTextAfter(last, `, ${SUGGESTED_BIND}`)
                    : fixer.replaceText(options, `{ ${SUGGESTED_BIND} }`),
              },
            ],
          });
        }
      },
    };
  },
});
