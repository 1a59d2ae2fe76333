import {
  COMPLETION_NOTIFIER_ADVICE,
  MRTR_HANDLER_DESCRIPTION,
  NON_HANDLER_ADVICE,
  URL_ELICITATION_REPLACEMENT,
  SUPPRESSION_DIRECTIVE,
  mayContainLegacySite,
  replacementFor,
} from '@mcp-mrtr/surface';
import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { getPropertyName, outerParent } from '../utils/ast.js';
import { createRule } from '../utils/create-rule.js';
import { migrateOneHandler } from '../utils/handler-migration.js';
import { findLegacySites, type LegacySite } from '../utils/legacy-sites.js';
import { getMcpContextResolver } from '../utils/mcp-context.js';
import { suppressionComments, suppressionOf } from '../utils/suppressions.js';

type MessageId = 'legacyRequest' | 'legacyRequestOutsideHandler' | 'detachedRequest' | 'suppressionWithoutReason' | 'migrateHandler';

export interface Options {
  /**
   * Offer the codemod's rewrite of the request's handler as a suggestion (an editor quick-fix).
   * Off by default: it runs the migration engine of `@mcp-mrtr/codemod` (an optional peer) once per
   * handler with a request, which costs far more than the lint itself.
   */
  suggestMigration?: boolean;
}

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

export default createRule<[Options?], MessageId>({
  name: 'no-server-initiated-requests',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow server-to-client requests (elicitation/create, sampling/createMessage, roots/list) that MCP 2026-07-28 removed; use Multi Round-Trip Requests',
    },
    hasSuggestions: true,
    schema: [
      {
        type: 'object',
        properties: {
          suggestMigration: {
            type: 'boolean',
            description: "Suggest the codemod's migration of the request's handler (needs @mcp-mrtr/codemod installed).",
          },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      migrateHandler: "Migrate this handler to MRTR (mcp-mrtr's rewrite of its {{count}} request(s)).",
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
  // no default options: RuleCreator would deep-clone them into every file's context (see create-rule.ts)
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    const suggestMigration = context.options[0]?.suggestMigration === true;
    if (!mayContainLegacySite(sourceCode.text) && !sourceCode.text.includes(SUPPRESSION_DIRECTIVE)) return {};
    return {
      Program() {
        for (const s of suppressionComments(sourceCode)) {
          if (s.reason === undefined) context.report({ loc: s.comment.loc, messageId: 'suppressionWithoutReason' });
        }
        const sites = findLegacySites(sourceCode).filter((site) => !suppressionOf(sourceCode, site.node));
        if (sites.length === 0) return;
        const resolver = getMcpContextResolver(sourceCode);
        const contexts = sites.map((site) => resolver.contextOf(site.node));
        /** The suggestion for the requests directly in one handler's body (helpers: `mcp-mrtr migrate`). */
        const suggestionFor = (handler: TSESTree.Node): TSESLint.ReportSuggestionArray<MessageId> => {
          const inHandler = sites.flatMap((site, i) => {
            const c = contexts[i]!;
            return c.kind === 'handler' && c.handler === handler ? [{ site, viaHelper: c.viaHelper }] : [];
          });
          if (inHandler.some((s) => s.viaHelper !== undefined)) return [];
          const own = inHandler.map((s) => s.site);
          const others = findLegacySites(sourceCode).filter((site) => !own.includes(site));
          const migration = migrateOneHandler({ sourceCode, fileName: context.filename, handler, own: own.map((s) => s.node), others: others.map((s) => s.node) });
          if (!migration) return [];
          return [{ messageId: 'migrateHandler', data: { count: own.length }, fix: (fixer) => fixer.replaceTextRange(migration.range, migration.text) }];
        };
        for (const [index, site] of sites.entries()) {
          const where = contexts[index]!;
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
            const suggest = suggestMigration && where.kind === 'handler' ? suggestionFor(where.handler) : [];
            context.report({ node: site.node, messageId: 'legacyRequest', data: { ...data, replacement: replacement(site) }, ...(suggest.length > 0 ? { suggest } : {}) });
          }
        }
      },
    };
  },
});
