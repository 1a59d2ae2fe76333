import {
  COMPLETION_NOTIFIER_ADVICE,
  MRTR_HANDLER_DESCRIPTION,
  NON_HANDLER_ADVICE,
  URL_ELICITATION_REPLACEMENT,
  SUPPRESSION_DIRECTIVE,
  mayContainLegacySite,
  replacementFor,
} from '@mcp-mrtr/surface';
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { getPropertyName, outerParent } from '../utils/ast.js';
import { createRule } from '../utils/create-rule.js';
import { findLegacySites, type LegacySite } from '../utils/legacy-sites.js';
import { getMcpContextResolver } from '../utils/mcp-context.js';
import { suppressionComments, suppressionOf } from '../utils/suppressions.js';

type MessageId = 'legacyRequest' | 'legacyRequestOutsideHandler' | 'detachedRequest' | 'suppressionWithoutReason';

const SHAPE_LABEL: Record<LegacySite['shape'], string> = {
  'server-method': 'server method call',
  'ctx-method': 'ctx.mcpReq push request',
  'method-reference': 'reference to a server-to-client request method',
  'alias-call': 'call through an alias of a server-to-client request method',
  'send-request': 'sendRequest',
  'server-request': 'server.request',
  'ctx-send': 'ctx.mcpReq.send',
  'raw-jsonrpc': 'hand-built JSON-RPC request',
  'url-elicitation-error': 'UrlElicitationRequiredError',
  'completion-notifier': 'elicitation completion notifier',
};

const PROMISE_CHAIN = new Set(['then', 'catch', 'finally']);
/** Shapes whose call returns the client's answer as a promise. */
const AWAITABLE_SHAPES = new Set<LegacySite['shape']>(['server-method', 'ctx-method', 'alias-call', 'send-request', 'server-request', 'ctx-send']);

/** A request whose promise is dropped: `server.listRoots().then(cb);`, `void ctx.mcpReq.elicitInput(p);`. */
function isDetached(node: TSESTree.Node): boolean {
  if (node.type !== AST_NODE_TYPES.CallExpression) return false;
  let current: TSESTree.Node = node;
  for (;;) {
    const parent = outerParent(current);
    if (!parent) return false;
    if (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === current && PROMISE_CHAIN.has(getPropertyName(parent) ?? '')) {
      const call = outerParent(parent);
      if (call?.type !== AST_NODE_TYPES.CallExpression || call.callee !== parent) return false;
      current = call;
      continue;
    }
    if (parent.type === AST_NODE_TYPES.ExpressionStatement) return true;
    return parent.type === AST_NODE_TYPES.UnaryExpression && parent.operator === 'void';
  }
}

function replacement(site: LegacySite): string {
  if (site.shape === 'url-elicitation-error') return URL_ELICITATION_REPLACEMENT;
  if (site.shape === 'completion-notifier') return COMPLETION_NOTIFIER_ADVICE;
  return replacementFor(site.method);
}

export default createRule<[], MessageId>({
  name: 'no-server-initiated-requests',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow server-to-client requests (elicitation/create, sampling/createMessage, roots/list) that MCP 2026-07-28 removed; use Multi Round-Trip Requests',
    },
    schema: [],
    messages: {
      legacyRequest:
        'Server-initiated {{method}} ({{shape}}) is not sent on MCP 2026-07-28 connections. MRTR form: {{replacement}}.',
      legacyRequestOutsideHandler:
        'Server-initiated {{method}} ({{shape}}) is not sent on MCP 2026-07-28 connections, and this code runs outside ' +
        MRTR_HANDLER_DESCRIPTION +
        ', so it has no MRTR form: {{advice}}.',
      suppressionWithoutReason:
        `${SUPPRESSION_DIRECTIVE} needs a reason: write \`// ${SUPPRESSION_DIRECTIVE}: <why this request stays>\`. Without one it suppresses nothing.`,
      detachedRequest:
        'Server-initiated {{method}} ({{shape}}) is not sent on MCP 2026-07-28 connections, and its answer is never awaited, so it has no MRTR form: {{advice}}.',
    },
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    if (!mayContainLegacySite(sourceCode.text) && !sourceCode.text.includes(SUPPRESSION_DIRECTIVE)) return {};
    return {
      Program() {
        for (const s of suppressionComments(sourceCode)) {
          if (s.reason === undefined) context.report({ loc: s.comment.loc, messageId: 'suppressionWithoutReason' });
        }
        const sites = findLegacySites(sourceCode).filter((site) => !suppressionOf(sourceCode, site.node));
        if (sites.length === 0) return;
        const resolver = getMcpContextResolver(sourceCode);
        for (const site of sites) {
          const where = resolver.contextOf(site.node);
          if (where.kind === 'client') continue;
          const data = { method: site.method, shape: SHAPE_LABEL[site.shape] };
          // a module-level reference or request object is only a definition: where it runs is unknown
          const definitionOnly = site.shape === 'method-reference' || site.shape === 'raw-jsonrpc';
          if (where.kind === 'handler' && AWAITABLE_SHAPES.has(site.shape) && isDetached(site.node)) {
            context.report({ node: site.node, messageId: 'detachedRequest', data: { ...data, advice: NON_HANDLER_ADVICE['detached-promise'] } });
          } else if (where.kind === 'non-handler' && !(definitionOnly && where.context === 'module-scope')) {
            context.report({
              node: site.node,
              messageId: 'legacyRequestOutsideHandler',
              data: { ...data, advice: NON_HANDLER_ADVICE[where.context] },
            });
          } else {
            context.report({ node: site.node, messageId: 'legacyRequest', data: { ...data, replacement: replacement(site) } });
          }
        }
      },
    };
  },
});
