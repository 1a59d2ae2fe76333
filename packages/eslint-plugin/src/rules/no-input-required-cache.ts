import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import {
  CACHE_HINT_FIELDS,
  LOW_LEVEL_REGISTRATION,
  META_FIELD,
  MRTR_ROUND_FIELDS,
  NO_CACHE_DIRECTIVES,
  REGISTRATION_APIS,
  RESOURCE_CACHE_HINT_OPTION,
  RESULT_CACHE_FIELDS,
  SERVER_CACHE_HINTS_OPTION,
  TARGET,
  type MrtrMethod,
} from '@mcp-mrtr/surface';
import { findProperty, getCalleeName, getPropertyName, isFunctionNode, literalString, resolveFunction, resolveValue, unwrap, unwrapAwait, walk } from '../utils/ast.js';
import { callsMcpExport } from '../utils/mcp-imports.js';
import { removeObjectElement } from '../utils/fixes.js';
import { createRule } from '../utils/create-rule.js';
import { fileTokenFilter } from '../utils/file-tokens.js';
import { classifyRequestHandlerTarget } from '../utils/mcp-context.js';

type MessageId = 'cacheOnInputRequired' | 'cacheOnMrtrResource' | 'cacheOnRetriedResult' | 'serverCacheHints' | 'removeHint';

const CACHE_FIELDS = new Set<string>([...CACHE_HINT_FIELDS, ...RESULT_CACHE_FIELDS, RESOURCE_CACHE_HINT_OPTION]);
const RESOURCE_REGISTRATIONS = new Set(Object.entries(REGISTRATION_APIS).filter(([, api]) => api.method === 'resources/read').map(([name]) => name));
const RESOURCES_READ: MrtrMethod = 'resources/read';
const TRIGGER_TOKENS = [TARGET.inputRequired, TARGET.inputRequiredValue, ...MRTR_ROUND_FIELDS];

function isCacheField(name: string | undefined): boolean {
  return name !== undefined && (CACHE_FIELDS.has(name) || /cache/i.test(name));
}

const isRelevant = fileTokenFilter(TRIGGER_TOKENS);

export default createRule<[], MessageId>({
  name: 'no-input-required-cache',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow cache hints on input_required results and on resources whose read handler uses MRTR',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      cacheOnInputRequired:
        "An input_required result carries no cache hints ('{{name}}'): it answers one round of one request and must never be cached.",
      cacheOnMrtrResource:
        "Cache hint '{{name}}' on a resource whose read handler returns input_required: results of a retried request must not be cached, so a cache could serve one user's answers to another. Drop the hint (or set it to 0 / 'no-store').",
      cacheOnRetriedResult:
        "The read handler returns input_required on other rounds, so this result may answer a retried request, which must not be cached: remove '{{name}}' (or set it to 0).",
      serverCacheHints:
        "Server-wide cacheHints for resources/read apply to the MRTR resources in this file too, whose retried results must not be cached: set the hint on the resources that are safe to cache instead.",
      removeHint: "Remove '{{name}}'.",
    },
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    if (!isRelevant(sourceCode)) return {};
    let mrtrResourceCount = 0;
    const serverHints: TSESTree.Property[] = [];

    function isInputRequiredCall(node: TSESTree.Node): boolean {
      return node.type === AST_NODE_TYPES.CallExpression && callsMcpExport(sourceCode, node, [TARGET.inputRequired]);
    }

    /** True for a value that caches nothing: 0, false, 'no-store', `{ ttlMs: 0, cacheScope: 'private' }`. */
    function cachesNothing(node: TSESTree.Node): boolean {
      const value = resolveValue(node, sourceCode);
      const text = literalString(value);
      if (text !== undefined) return text === 'private' || NO_CACHE_DIRECTIVES.includes(text);
      if (value.type === AST_NODE_TYPES.Literal) return value.value === 0 || value.value === false || value.value === null;
      if (value.type === AST_NODE_TYPES.ObjectExpression) {
        return value.properties.every((p) => p.type === AST_NODE_TYPES.Property && cachesNothing(p.value));
      }
      return false;
    }

    function suggestRemoval(element: TSESTree.Property, name: string) {
      return [{ messageId: 'removeHint' as const, data: { name }, fix: (fixer: TSESLint.RuleFixer) => removeObjectElement(fixer, sourceCode, element) }];
    }

    /** Cache fields of a result object, including `_meta` entries; `onlyCaching` skips 0/'no-store'. */
    function reportCacheFields(obj: TSESTree.ObjectExpression, messageId: MessageId, onlyCaching: boolean): void {
      for (const prop of obj.properties) {
        if (prop.type !== AST_NODE_TYPES.Property) continue;
        const name = getPropertyName(prop);
        if (name === META_FIELD) {
          const meta = resolveValue(prop.value, sourceCode);
          if (meta.type === AST_NODE_TYPES.ObjectExpression) reportCacheFields(meta, messageId, onlyCaching);
          continue;
        }
        if (!isCacheField(name) || (onlyCaching && cachesNothing(prop.value))) continue;
        context.report({ node: prop, messageId, data: { name: name! }, suggest: suggestRemoval(prop, name!) });
      }
    }

    /** Does the read handler use MRTR (returns inputRequired, reads inputResponses / requestState)? */
    function usesMrtr(fn: TSESTree.Node): boolean {
      return walk(fn, sourceCode.visitorKeys, (n) => {
        if (isInputRequiredCall(n)) return 'stop';
        if (n.type === AST_NODE_TYPES.MemberExpression && MRTR_ROUND_FIELDS.includes(getPropertyName(n) ?? '')) return 'stop';
        if (n.type === AST_NODE_TYPES.Property && getPropertyName(n) === TARGET.resultTypeField && literalString(n.value) === TARGET.inputRequiredValue) return 'stop';
        if (n.type === AST_NODE_TYPES.CallExpression && (getCalleeName(n) === TARGET.inputResponse || getCalleeName(n) === TARGET.acceptedContent)) return 'stop';
        return undefined;
      });
    }

    /** Object literals the handler itself returns (not nested callbacks), minus input_required ones. */
    function returnedResults(fn: TSESTree.FunctionLike): TSESTree.ObjectExpression[] {
      const results: TSESTree.ObjectExpression[] = [];
      const add = (node: TSESTree.Node | null | undefined) => {
        if (!node) return;
        const value = resolveValue(unwrapAwait(node), sourceCode);
        if (value.type === AST_NODE_TYPES.ObjectExpression && literalString(findProperty(value, TARGET.resultTypeField)?.value) !== TARGET.inputRequiredValue) {
          results.push(value);
        }
      };
      if (fn.body && fn.body.type !== AST_NODE_TYPES.BlockStatement) add(fn.body);
      else if (fn.body) {
        walk(fn.body, sourceCode.visitorKeys, (n) => {
          if (isFunctionNode(n)) return false;
          if (n.type === AST_NODE_TYPES.ReturnStatement) add(n.argument);
          return undefined;
        });
      }
      return results;
    }

    function checkResourceRegistration(call: TSESTree.CallExpression, handler: TSESTree.Node): void {
      const fn = resolveFunction(handler, sourceCode);
      if (!fn || !usesMrtr(fn)) return;
      mrtrResourceCount++;
      for (const arg of call.arguments) {
        if (arg === handler) continue;
        const config = resolveValue(arg, sourceCode);
        if (config.type === AST_NODE_TYPES.ObjectExpression) reportCacheFields(config, 'cacheOnMrtrResource', true);
      }
      for (const result of returnedResults(fn)) reportCacheFields(result, 'cacheOnRetriedResult', true);
    }

    return {
      CallExpression(call) {
        if (isInputRequiredCall(call)) {
          const arg = call.arguments[0] && resolveValue(call.arguments[0], sourceCode);
          if (arg?.type === AST_NODE_TYPES.ObjectExpression) reportCacheFields(arg, 'cacheOnInputRequired', false);
          return;
        }
        const callee = unwrap(call.callee);
        if (callee.type !== AST_NODE_TYPES.MemberExpression || call.arguments.length < 2) return;
        const name = getPropertyName(callee);
        const handler = call.arguments[call.arguments.length - 1]!;
        if (name !== undefined && RESOURCE_REGISTRATIONS.has(name)) checkResourceRegistration(call, handler);
        else if (name === LOW_LEVEL_REGISTRATION) {
          const target = classifyRequestHandlerTarget(call.arguments[0]);
          if (target?.kind === 'handler' && target.method === RESOURCES_READ) checkResourceRegistration(call, handler);
        }
      },
      ObjectExpression(obj) {
        const isInputRequired =
          literalString(findProperty(obj, TARGET.resultTypeField)?.value) === TARGET.inputRequiredValue ||
          obj.properties.some((p) => p.type === AST_NODE_TYPES.SpreadElement && isInputRequiredCall(unwrapAwait(p.argument)));
        if (isInputRequired) reportCacheFields(obj, 'cacheOnInputRequired', false);
      },
      Property(prop) {
        if (prop.parent.type !== AST_NODE_TYPES.ObjectExpression || getPropertyName(prop) !== SERVER_CACHE_HINTS_OPTION) return;
        const hints = resolveValue(prop.value, sourceCode);
        if (hints.type !== AST_NODE_TYPES.ObjectExpression) return;
        const read = findProperty(hints, RESOURCES_READ);
        if (read && !cachesNothing(read.value)) serverHints.push(read);
      },
      'Program:exit'() {
        if (mrtrResourceCount === 0) return;
        for (const hint of serverHints) context.report({ node: hint, messageId: 'serverCacheHints' });
      },
    };
  },
});
