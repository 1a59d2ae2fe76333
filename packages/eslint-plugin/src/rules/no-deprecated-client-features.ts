import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import {
  CANDIDATE_TOKENS,
  DEPRECATED_INCLUDE_CONTEXT,
  ELICITATION_COMPLETE_NOTIFICATION,
  ELICITATION_ID_FIELD,
  ELICITATION_MODE_FIELD,
  ELICITATION_URL_MODE,
  INCLUDE_CONTEXT_FIELD,
  INCLUDE_CONTEXT_NONE,
  LEGACY_REQUESTS,
  NOTIFICATION_REGISTRATION,
  NOTIFICATION_SENDERS,
  ROOTS_LIST_CHANGED_NOTIFICATION,
  ROOTS_LIST_CHANGED_SCHEMA,
  SERVER_METHOD_TO_LEGACY,
  TARGET,
  isLegacyMethod,
  type LegacyMethod,
} from '@mcp-mrtr/surface';
import { findProperty, getPropertyName, literalString, unwrap } from '../utils/ast.js';
import { callsMcpExport } from '../utils/mcp-imports.js';
import { removeObjectElement } from '../utils/fixes.js';
import { createRule } from '../utils/create-rule.js';
import { fileTokenFilter } from '../utils/file-tokens.js';
import { findLegacySites } from '../utils/legacy-sites.js';
import { suppressionOf } from '../utils/suppressions.js';

type MessageId =
  | 'deprecatedSampling'
  | 'deprecatedRoots'
  | 'deprecatedIncludeContext'
  | 'elicitationId'
  | 'elicitationComplete'
  | 'rootsListChanged'
  | 'useIncludeContextNone'
  | 'removeElicitationId';

/** Builders of `inputRequired` that embed a deprecated request: `createMessage`, `listRoots`. */
const DEPRECATED_BUILDERS = new Map<string, LegacyMethod>(
  Object.entries(TARGET.builders).filter(([, method]) => LEGACY_REQUESTS[method].deprecated),
);
const TRIGGER_TOKENS = [
  ...CANDIDATE_TOKENS,
  ...DEPRECATED_BUILDERS.keys(),
  INCLUDE_CONTEXT_FIELD,
  ELICITATION_ID_FIELD,
  ELICITATION_COMPLETE_NOTIFICATION,
  ROOTS_LIST_CHANGED_NOTIFICATION,
  ROOTS_LIST_CHANGED_SCHEMA,
];

const ELICIT_METHOD = LEGACY_REQUESTS['elicitation/create'].method;
/** Calls whose first argument is elicitation params: `server.elicitInput(...)`, `inputRequired.elicitUrl(...)`. */
const ELICITATION_PARAM_TAKERS = new Set<string>([
  ...Object.entries(SERVER_METHOD_TO_LEGACY).filter(([, m]) => m === ELICIT_METHOD).map(([name]) => name),
  ...Object.entries(TARGET.builders).filter(([, m]) => m === ELICIT_METHOD).map(([name]) => name),
]);

function messageFor(method: LegacyMethod): MessageId {
  return LEGACY_REQUESTS[method].kind === 'sampling' ? 'deprecatedSampling' : 'deprecatedRoots';
}

const isRelevant = fileTokenFilter(TRIGGER_TOKENS);

export default createRule<[], MessageId>({
  name: 'no-deprecated-client-features',
  meta: {
    type: 'suggestion',
    docs: {
      description:
        'Warn on sampling and roots requests, includeContext, elicitationId and roots list-changed handlers, deprecated by SEP-2577',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      deprecatedSampling:
        'Sampling (sampling/createMessage) is deprecated by SEP-2577: clients may stop offering it. Call a model from the server yourself, or ask the user with an elicitation.',
      deprecatedRoots:
        'Roots (roots/list) are deprecated by SEP-2577: clients may stop offering them. Take the paths as tool arguments or ask with an elicitation.',
      deprecatedIncludeContext:
        "includeContext: '{{value}}' is deprecated by SEP-2577 (a server cannot rely on context from other requests or servers): pass what the model needs in the messages and use 'none'.",
      elicitationId:
        'elicitationId is gone in MCP 2026-07-28: a URL-mode elicitation is an inputRequired.elicitUrl({ message, url }) entry whose completion is the retried request itself.',
      elicitationComplete:
        'notifications/elicitation/complete is gone in MCP 2026-07-28: the client retries the original request when the URL-mode step is done.',
      rootsListChanged:
        'Roots list-changed notifications are deprecated by SEP-2577 (and a notification handler cannot ask the client anything on 2026-07-28): read roots where you need them, inside the handler.',
      useIncludeContextNone: `Use includeContext: '${INCLUDE_CONTEXT_NONE}'.`,
      removeElicitationId: 'Remove elicitationId.',
    },
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    if (!isRelevant(sourceCode)) return {};
    const legacySites = findLegacySites(sourceCode).filter((s) => LEGACY_REQUESTS[s.method].deprecated);

    function insideLegacySite(node: TSESTree.Node): boolean {
      return legacySites.some((s) => s.node.range[0] <= node.range[0] && s.node.range[1] >= node.range[1]);
    }

    /** `{ method, params }` as the value of an `inputRequests: { key: ... }` entry. */
    function isInputRequestEntry(obj: TSESTree.ObjectExpression): boolean {
      const entry = obj.parent;
      const requests = entry?.type === AST_NODE_TYPES.Property ? entry.parent : undefined;
      const holder = requests?.type === AST_NODE_TYPES.ObjectExpression ? requests.parent : undefined;
      return holder?.type === AST_NODE_TYPES.Property && getPropertyName(holder) === TARGET.inputRequestsField;
    }

    /**
     * A notification object passed to a server's `notification(...)` / `sendNotification(...)` by user
     * code (the SDK's own `this.notification(...)` implementation is not user code).
     */
    function isSentByServer(obj: TSESTree.ObjectExpression): boolean {
      const call = obj.parent;
      if (call?.type !== AST_NODE_TYPES.CallExpression || call.arguments[0] !== obj) return false;
      const callee = unwrap(call.callee);
      if (callee.type === AST_NODE_TYPES.Identifier) return NOTIFICATION_SENDERS.includes(callee.name);
      return (
        callee.type === AST_NODE_TYPES.MemberExpression &&
        NOTIFICATION_SENDERS.includes(getPropertyName(callee) ?? '') &&
        unwrap(callee.object).type !== AST_NODE_TYPES.ThisExpression
      );
    }

    /** The params object of an elicitation (URL mode) sent or built by user code. */
    function isElicitationParams(obj: TSESTree.ObjectExpression): boolean {
      // `{ mode: 'url', message, url, elicitationId }`, e.g. inside `new UrlElicitationRequiredError([...])`
      if (literalString(findProperty(obj, ELICITATION_MODE_FIELD)?.value) === ELICITATION_URL_MODE) return true;
      const parent = obj.parent;
      if (parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments[0] === obj) {
        const callee = unwrap(parent.callee);
        const name = callee.type === AST_NODE_TYPES.MemberExpression ? getPropertyName(callee) : undefined;
        if (name === undefined || unwrap((callee as TSESTree.MemberExpression).object).type === AST_NODE_TYPES.ThisExpression) return false;
        return ELICITATION_PARAM_TAKERS.has(name);
      }
      if (parent?.type === AST_NODE_TYPES.Property && getPropertyName(parent) === 'params' && parent.parent.type === AST_NODE_TYPES.ObjectExpression) {
        const request = parent.parent;
        const method = literalString(findProperty(request, 'method')?.value);
        if (method !== ELICIT_METHOD && method !== ELICITATION_COMPLETE_NOTIFICATION) return false;
        // not the SDK's own `this.request(...)` / `this.notification(...)`
        const sender = request.parent;
        const senderCallee = sender?.type === AST_NODE_TYPES.CallExpression ? unwrap(sender.callee) : undefined;
        return !(senderCallee?.type === AST_NODE_TYPES.MemberExpression && unwrap(senderCallee.object).type === AST_NODE_TYPES.ThisExpression);
      }
      return false;
    }

    return {
      Program() {
        for (const site of legacySites) if (!suppressionOf(sourceCode, site.node)) context.report({ node: site.node, messageId: messageFor(site.method) });
      },
      CallExpression(call) {
        const callee = unwrap(call.callee);
        if (callee.type !== AST_NODE_TYPES.MemberExpression) return;
        const name = getPropertyName(callee);
        if (name === undefined) return;
        // inputRequired.createMessage(...) / inputRequired.listRoots()
        const builderMethod = DEPRECATED_BUILDERS.get(name);
        if (builderMethod && callsMcpExport(sourceCode, call, [TARGET.inputRequired, name])) {
          context.report({ node: call, messageId: messageFor(builderMethod) });
          return;
        }
        if (name === NOTIFICATION_REGISTRATION && call.arguments[0]) {
          const target = unwrap(call.arguments[0]);
          const isRootsChanged =
            literalString(target) === ROOTS_LIST_CHANGED_NOTIFICATION ||
            (target.type === AST_NODE_TYPES.Identifier && target.name === ROOTS_LIST_CHANGED_SCHEMA) ||
            (target.type === AST_NODE_TYPES.MemberExpression && getPropertyName(target) === ROOTS_LIST_CHANGED_SCHEMA);
          if (isRootsChanged) context.report({ node: call, messageId: 'rootsListChanged' });
        }
      },
      ObjectExpression(obj) {
        const methodProp = findProperty(obj, 'method');
        const method = literalString(methodProp?.value);
        if (method === ELICITATION_COMPLETE_NOTIFICATION) {
          if (isSentByServer(obj)) context.report({ node: obj, messageId: 'elicitationComplete' });
        } else if (isLegacyMethod(method) && LEGACY_REQUESTS[method].deprecated && isInputRequestEntry(obj) && !insideLegacySite(obj)) {
          // a hand-built inputRequests entry: { roots: { method: 'roots/list' } }
          context.report({ node: methodProp!, messageId: messageFor(method) });
        }
      },
      Property(prop) {
        if (prop.parent.type !== AST_NODE_TYPES.ObjectExpression) return;
        const name = getPropertyName(prop);
        if (name === INCLUDE_CONTEXT_FIELD) {
          const value = literalString(prop.value);
          if (value === undefined || !(DEPRECATED_INCLUDE_CONTEXT as readonly string[]).includes(value)) return;
          context.report({
            node: prop,
            messageId: 'deprecatedIncludeContext',
            data: { value },
            suggest: [{ messageId: 'useIncludeContextNone', fix: (fixer) => fixer.replaceText(prop.value, `'${INCLUDE_CONTEXT_NONE}'`) }],
          });
        } else if (name === ELICITATION_ID_FIELD && isElicitationParams(prop.parent)) {
          const element = prop;
          context.report({
            node: prop.key,
            messageId: 'elicitationId',
            suggest: [{ messageId: 'removeElicitationId', fix: (fixer) => removeObjectElement(fixer, sourceCode, element) }],
          });
        }
      },
    };
  },
});
