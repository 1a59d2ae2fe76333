import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { LEGACY_METHODS, TARGET, isLegacyMethod } from '@mcp-mrtr/surface';
import { findProperty, findVariable, getStaticString, hasSpread, outerParent, resolveConstInit, textHasAny, unwrap } from '../utils/ast.js';
import { createRule } from '../utils/create-rule.js';
import {
  builderNameOf,
  isInputRequiredCall,
  isKnownBuilder,
  isRawInputRequiredObject,
  resultSpecOf,
} from '../utils/mrtr-results.js';

type MessageId = 'empty' | 'emptyInputRequests' | 'notAnInputRequest' | 'unknownBuilder';

const BUILDERS = Object.keys(TARGET.builders)
  .map((b) => `inputRequired.${b}(...)`)
  .join(', ');

/** `undefined`, `void 0`, `null`: the same as leaving the field out. */
function isAbsent(node: TSESTree.Node): boolean {
  const n = unwrap(node);
  if (n.type === AST_NODE_TYPES.Identifier) return n.name === 'undefined';
  if (n.type === AST_NODE_TYPES.Literal) return n.value === null;
  return n.type === AST_NODE_TYPES.UnaryExpression && n.operator === 'void';
}

/**
 * `const missing = {}; if (!a) missing.a = inputRequired.elicit(…); … inputRequired({ inputRequests: missing })`:
 * an object that starts empty and is filled under conditions before the return (the SDK's own
 * multi-question pattern). Any write to one of its properties, or handing it to a function
 * (`Object.assign(missing, …)`, `add(missing)`), means the literal no longer tells what is sent.
 */
function filledLater(sourceCode: Readonly<TSESLint.SourceCode>, value: TSESTree.Node): boolean {
  const id = unwrap(value);
  if (id.type !== AST_NODE_TYPES.Identifier) return false;
  const variable = findVariable(sourceCode, id);
  return !!variable?.references.some((ref) => {
    if (ref.identifier === id) return false;
    const use = outerParent(ref.identifier);
    if (use?.type === AST_NODE_TYPES.CallExpression || use?.type === AST_NODE_TYPES.NewExpression) return use.arguments.some((a) => unwrap(a) === ref.identifier);
    if (use?.type !== AST_NODE_TYPES.MemberExpression || unwrap(use.object) !== ref.identifier) return false;
    const target = outerParent(use);
    if (target?.type === AST_NODE_TYPES.AssignmentExpression) return unwrap(target.left) === use;
    return target?.type === AST_NODE_TYPES.UpdateExpression;
  });
}

export default createRule<[], MessageId>({
  name: 'no-empty-input-required',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Require every input_required result to carry inputRequests or requestState, and every inputRequests entry to be an elicitation, sampling or roots request',
    },
    schema: [],
    messages: {
      empty:
        'An input_required result needs at least one of inputRequests and requestState (inputRequired() throws a TypeError without both).',
      emptyInputRequests:
        'inputRequests is empty: the client has nothing to answer. Add at least one request, or drop the field and return only requestState.',
      notAnInputRequest:
        'inputRequests["{{key}}"] is not an embedded request: only {{methods}} may be embedded. Build entries with {{builders}}.',
      unknownBuilder: 'inputRequired.{{name}}(...) is not an input request builder; use one of {{builders}}.',
    },
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    if (!textHasAny(sourceCode.text, [TARGET.inputRequired, TARGET.inputRequiredValue])) return {};
    const methods = LEGACY_METHODS.join(', ');

    function checkEntry(prop: TSESTree.Property): void {
      const key = getStaticString(prop.key) ?? (prop.key.type === AST_NODE_TYPES.Identifier && !prop.computed ? prop.key.name : '?');
      const value = unwrap(prop.value);
      const builder = builderNameOf(sourceCode, value);
      if (builder !== undefined) {
        if (!isKnownBuilder(builder)) context.report({ node: value, messageId: 'unknownBuilder', data: { name: builder, builders: BUILDERS } });
        return;
      }
      const resolved = resolveConstInit(sourceCode, value) ?? value;
      let bad = false;
      switch (resolved.type) {
        case AST_NODE_TYPES.ObjectExpression: {
          const method = findProperty(resolved, 'method');
          if (method) bad = getStaticString(method.value) !== undefined && !isLegacyMethod(getStaticString(method.value));
          else bad = !hasSpread(resolved);
          break;
        }
        case AST_NODE_TYPES.Literal:
        case AST_NODE_TYPES.TemplateLiteral:
        case AST_NODE_TYPES.ArrayExpression:
        case AST_NODE_TYPES.ArrowFunctionExpression:
        case AST_NODE_TYPES.FunctionExpression:
          bad = true;
          break;
        default:
          bad = isAbsent(resolved);
      }
      if (bad) context.report({ node: prop.value, messageId: 'notAnInputRequest', data: { key, methods, builders: BUILDERS } });
    }

    function check(node: TSESTree.CallExpression | TSESTree.ObjectExpression): void {
      if (node.type === AST_NODE_TYPES.CallExpression && node.arguments.length === 0) {
        context.report({ node, messageId: 'empty' });
        return;
      }
      const spec = resultSpecOf(sourceCode, node);
      if (!spec) return;
      const requests = findProperty(spec, TARGET.inputRequestsField);
      const state = findProperty(spec, TARGET.requestStateField);
      const hasRequests = !!requests && !isAbsent(requests.value);
      const hasState = !!state && !isAbsent(state.value);
      if (!hasRequests && !hasState) {
        if (!hasSpread(spec)) context.report({ node, messageId: 'empty' });
        return;
      }
      if (!requests || !hasRequests) return;
      const entries = resolveConstInit(sourceCode, requests.value);
      if (entries?.type !== AST_NODE_TYPES.ObjectExpression) return;
      if (entries.properties.length === 0 && !filledLater(sourceCode, requests.value)) {
        context.report({ node: requests.value, messageId: 'emptyInputRequests' });
        return;
      }
      for (const prop of entries.properties) if (prop.type === AST_NODE_TYPES.Property) checkEntry(prop);
    }

    return {
      CallExpression(node) {
        if (isInputRequiredCall(sourceCode, node)) check(node);
      },
      ObjectExpression(node) {
        if (isRawInputRequiredObject(node)) check(node);
      },
    };
  },
});
