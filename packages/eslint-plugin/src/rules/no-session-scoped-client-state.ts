import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import {
  CTX_MCPREQ_PROPERTY,
  GET_CLIENT_CAPABILITIES,
  SERVER_CLASSES,
  SESSION_ID_PROPERTY,
  TARGET,
} from '@mcp-mrtr/surface';
import { getCalleeName, getPropertyName, isFunctionNode, isValueReference, resolveValue, unwrap, walk } from '../utils/ast.js';
import { createRule } from '../utils/create-rule.js';
import { fileTokenFilter } from '../utils/file-tokens.js';
import { findLegacySites } from '../utils/legacy-sites.js';
import { getMcpContextResolver } from '../utils/mcp-context.js';
import { getTypeNames } from '../utils/types.js';

type MessageId = 'capabilitiesInHandler' | 'sessionKeyedAnswer';

/** Calls whose result is something the client answered (besides legacy requests). */
const ANSWER_READERS = new Set<string>([TARGET.inputResponse, TARGET.acceptedContent, GET_CLIENT_CAPABILITIES]);
const SERVER_CLASS_NAMES = new Set<string>(SERVER_CLASSES);
const ENVELOPE_READ = `ctx.${CTX_MCPREQ_PROPERTY}.${TARGET.envelopeProperty}?.[${TARGET.clientCapabilitiesMetaKey}]`;

const mentionsCapabilities = fileTokenFilter([GET_CLIENT_CAPABILITIES]);
const mentionsSessionId = fileTokenFilter([SESSION_ID_PROPERTY]);
const mentionsAnswers = fileTokenFilter([...ANSWER_READERS, TARGET.inputResponsesField]);

export default createRule<[], MessageId>({
  name: 'no-session-scoped-client-state',
  meta: {
    type: 'suggestion',
    docs: {
      description:
        'Warn on client state read from or stored per session (getClientCapabilities in handlers, maps keyed by session id holding client answers)',
    },
    schema: [],
    messages: {
      capabilitiesInHandler:
        `getClientCapabilities() is initialize-scoped: a 2026-07-28 request has no session, and the retry of an MRTR round may reach another instance. Read the capabilities this request declares: ${ENVELOPE_READ} (import ${TARGET.clientCapabilitiesMetaKey} from '@modelcontextprotocol/server').`,
      sessionKeyedAnswer:
        "Client answers stored per session ('{{key}}'): on 2026-07-28 there is no session, and an MRTR retry may land on another instance, which would not see this entry. Carry what later rounds need in the sealed requestState, and read capabilities from the request envelope.",
    },
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    const hasCapabilities = mentionsCapabilities(sourceCode);
    if (!hasCapabilities && !mentionsSessionId(sourceCode)) return {};
    const hasAnswerSources = mentionsAnswers(sourceCode) || findLegacySites(sourceCode).length > 0;
    let legacyCalls: Set<TSESTree.Node> | undefined;

    function isLegacyCall(node: TSESTree.Node): boolean {
      legacyCalls ??= new Set(findLegacySites(sourceCode).map((s) => s.node));
      return legacyCalls.has(node);
    }

    /** `extra.sessionId`, `ctx.sessionId`, `transport.sessionId`, a `sessionId` variable, `${sessionId}:x`. */
    function sessionKey(node: TSESTree.Node): TSESTree.Node | undefined {
      let found: TSESTree.Node | undefined;
      const seen = new Set<TSESTree.Node>();
      const visit = (root: TSESTree.Node, depth: number): void => {
        walk(root, sourceCode.visitorKeys, (n) => {
          if (found) return 'stop';
          if (isFunctionNode(n)) return false;
          if (
            (n.type === AST_NODE_TYPES.MemberExpression && getPropertyName(n) === SESSION_ID_PROPERTY) ||
            (n.type === AST_NODE_TYPES.Identifier && n.name === SESSION_ID_PROPERTY && isValueReference(n))
          ) {
            found = n;
            return 'stop';
          }
          if (n.type === AST_NODE_TYPES.Identifier && depth < 2 && isValueReference(n)) {
            const resolved = resolveValue(n, sourceCode, 1);
            if (resolved !== n && !seen.has(resolved)) {
              seen.add(resolved);
              visit(resolved, depth + 1);
            }
          }
          return undefined;
        });
      };
      visit(node, 0);
      return found;
    }

    /** Does the value hold something the client answered (through consts, up to a few hops)? */
    function holdsClientAnswer(node: TSESTree.Node): boolean {
      const seen = new Set<TSESTree.Node>();
      const visit = (root: TSESTree.Node, depth: number): boolean =>
        walk(root, sourceCode.visitorKeys, (n) => {
          if (isFunctionNode(n)) return false;
          if (n.type === AST_NODE_TYPES.CallExpression) {
            const name = getCalleeName(n);
            if ((name !== undefined && ANSWER_READERS.has(name)) || isLegacyCall(n)) return 'stop';
          }
          if (n.type === AST_NODE_TYPES.MemberExpression && getPropertyName(n) === TARGET.inputResponsesField) return 'stop';
          if (n.type === AST_NODE_TYPES.Identifier && depth < 3 && isValueReference(n)) {
            const resolved = resolveValue(n, sourceCode, 1);
            if (resolved !== n && !seen.has(resolved)) {
              seen.add(resolved);
              if (visit(resolved, depth + 1)) return 'stop';
            }
          }
          return undefined;
        });
      return visit(node, 0);
    }

    /**
     * `envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? server.getClientCapabilities()`: the per-request
     * capabilities come first; the session-scoped read only serves 2025-era clients, which have no
     * envelope (the codemod emits exactly this).
     */
    function isEnvelopeFallback(call: TSESTree.CallExpression): boolean {
      let child: TSESTree.Node = call;
      let parent = call.parent;
      while (parent && (parent.type === AST_NODE_TYPES.TSAsExpression || parent.type === AST_NODE_TYPES.TSNonNullExpression || parent.type === AST_NODE_TYPES.ChainExpression)) {
        child = parent;
        parent = parent.parent;
      }
      if (parent?.type !== AST_NODE_TYPES.LogicalExpression || parent.right !== child) return false;
      if (parent.operator !== '??' && parent.operator !== '||') return false;
      const left = sourceCode.getText(parent.left);
      return left.includes(`.${TARGET.envelopeProperty}`) && left.includes(TARGET.clientCapabilitiesMetaKey);
    }

    function reportStore(node: TSESTree.Node, key: TSESTree.Node): void {
      context.report({ node, messageId: 'sessionKeyedAnswer', data: { key: sourceCode.getText(key) } });
    }

    return {
      CallExpression(call) {
        const name = getCalleeName(call);
        if (name === GET_CLIENT_CAPABILITIES && hasCapabilities) {
          const callee = unwrap(call.callee);
          if (callee.type !== AST_NODE_TYPES.MemberExpression) return;
          // with type information, a receiver that is not an MCP server is someone else's API
          const receiverTypes = getTypeNames(sourceCode, callee.object);
          if (receiverTypes && !receiverTypes.some((n) => SERVER_CLASS_NAMES.has(n))) return;
          if (isEnvelopeFallback(call)) return;
          if (getMcpContextResolver(sourceCode).contextOf(call).kind === 'handler') {
            context.report({ node: call, messageId: 'capabilitiesInHandler' });
          }
          return;
        }
        // sessions.set(extra.sessionId, answer)
        if (name !== 'set' || !hasAnswerSources || call.arguments.length < 2) return;
        if (unwrap(call.callee).type !== AST_NODE_TYPES.MemberExpression) return;
        const key = sessionKey(call.arguments[0]!);
        if (key && holdsClientAnswer(call.arguments[1]!)) reportStore(call, key);
      },
      // answers[extra.sessionId] = answer; sessions.get(sessionId).roots = roots
      AssignmentExpression(assignment) {
        if (!hasAnswerSources || assignment.left.type !== AST_NODE_TYPES.MemberExpression) return;
        const key = sessionKey(assignment.left);
        if (key && holdsClientAnswer(assignment.right)) reportStore(assignment, key);
      },
    };
  },
});
