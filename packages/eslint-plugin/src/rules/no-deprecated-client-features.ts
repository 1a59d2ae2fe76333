import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import {
  CANDIDATE_TOKENS,
  DEPRECATED_INCLUDE_CONTEXT,
  ELICITATION_COMPLETE_NOTIFICATION,
  ELICITATION_ID_FIELD,
  INCLUDE_CONTEXT_FIELD,
  LEGACY_REQUESTS,
  NOTIFICATION_REGISTRATION,
  ROOTS_LIST_CHANGED_NOTIFICATION,
  ROOTS_LIST_CHANGED_SCHEMA,
  TARGET,
  isLegacyMethod,
  type LegacyMethod,
} from '@mcp-mrtr/surface';
import { createRule } from '../utils/create-rule.js';
import { findLegacySites } from '../utils/legacy-sites.js';
import {
  findProperty,
  localNamesOf,
  memberName,
  propertyName,
  removeObjectElement,
  staticString,
  textHasAny,
  unwrap,
} from '../utils/static-shapes.js';

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

function messageFor(method: LegacyMethod): MessageId {
  return LEGACY_REQUESTS[method].kind === 'sampling' ? 'deprecatedSampling' : 'deprecatedRoots';
}

export default createRule<[], MessageId>({
  name: 'no-deprecated-client-features',
  meta: {
    type: 'suggestion',
    docs: {
      description:
        'Warn on sampling and roots requests, includeContext, elicitationId and roots list-changed handlers, deprecated by SEP-2577',
      recommended: true,
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
      useIncludeContextNone: "Use includeContext: 'none'.",
      removeElicitationId: 'Remove elicitationId.',
    },
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    if (!textHasAny(sourceCode.text, TRIGGER_TOKENS)) return {};
    const inputRequiredNames = localNamesOf(sourceCode, TARGET.inputRequired);
    const legacySites = findLegacySites(sourceCode).filter((s) => LEGACY_REQUESTS[s.method].deprecated);

    function insideLegacySite(node: TSESTree.Node): boolean {
      return legacySites.some((s) => s.node.range[0] <= node.range[0] && s.node.range[1] >= node.range[1]);
    }

    return {
      Program() {
        for (const site of legacySites) context.report({ node: site.node, messageId: messageFor(site.method) });
      },
      CallExpression(call) {
        const callee = unwrap(call.callee);
        if (callee.type !== AST_NODE_TYPES.MemberExpression) return;
        const name = memberName(callee);
        if (name === undefined) return;
        // inputRequired.createMessage(...) / inputRequired.listRoots()
        const object = unwrap(callee.object);
        const builderMethod = DEPRECATED_BUILDERS.get(name);
        if (builderMethod && object.type === AST_NODE_TYPES.Identifier && inputRequiredNames.has(object.name)) {
          context.report({ node: call, messageId: messageFor(builderMethod) });
          return;
        }
        if (name === NOTIFICATION_REGISTRATION && call.arguments[0]) {
          const target = unwrap(call.arguments[0]);
          const isRootsChanged =
            staticString(target) === ROOTS_LIST_CHANGED_NOTIFICATION ||
            (target.type === AST_NODE_TYPES.Identifier && target.name === ROOTS_LIST_CHANGED_SCHEMA) ||
            (target.type === AST_NODE_TYPES.MemberExpression && memberName(target) === ROOTS_LIST_CHANGED_SCHEMA);
          if (isRootsChanged) context.report({ node: call, messageId: 'rootsListChanged' });
        }
      },
      ObjectExpression(obj) {
        const method = staticString(findProperty(obj, 'method')?.value);
        if (method === ELICITATION_COMPLETE_NOTIFICATION) {
          context.report({ node: obj, messageId: 'elicitationComplete' });
        } else if (isLegacyMethod(method) && LEGACY_REQUESTS[method].deprecated && !insideLegacySite(obj)) {
          // hand-built inputRequests entries and requests not sent through a recognised sender
          context.report({ node: findProperty(obj, 'method')!, messageId: messageFor(method) });
        }
      },
      Property(prop) {
        if (prop.parent.type !== AST_NODE_TYPES.ObjectExpression) return;
        const name = propertyName(prop);
        if (name === INCLUDE_CONTEXT_FIELD) {
          const value = staticString(prop.value);
          if (value === undefined || !(DEPRECATED_INCLUDE_CONTEXT as readonly string[]).includes(value)) return;
          context.report({
            node: prop,
            messageId: 'deprecatedIncludeContext',
            data: { value },
            suggest: [{ messageId: 'useIncludeContextNone', fix: (fixer) => fixer.replaceText(prop.value, `'none'`) }],
          });
        } else if (name === ELICITATION_ID_FIELD) {
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
