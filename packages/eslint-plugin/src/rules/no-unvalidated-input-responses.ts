import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { TARGET } from '@mcp-mrtr/surface';
import {
  enclosingFunction,
  findProperty,
  getPropertyName,
  getStaticString,
  importedLocalName,
  outerParent,
  resolveConstInit,
  textHasAny,
  unwrap,
  walk,
} from '../utils/ast.js';
import { createRule } from '../utils/create-rule.js';
import { getMcpContextResolver } from '../utils/mcp-context.js';
import { answerReaderOf, builderNameOf, isInputResponseEntry, isInputResponsesMember } from '../utils/mrtr-results.js';

type MessageId = 'rawCast' | 'rawRead' | 'missingSchema' | 'passSchema';

/** `z.object(...)`, `z.string().min(1)`: a Standard Schema built with zod. */
function isZodExpression(node: TSESTree.Node): boolean {
  let n = unwrap(node);
  while (n.type === AST_NODE_TYPES.CallExpression) {
    const callee = unwrap(n.callee);
    if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
    const object = unwrap(callee.object);
    if (object.type === AST_NODE_TYPES.Identifier) return object.name === 'z';
    n = object;
  }
  return false;
}

export default createRule<[], MessageId>({
  name: 'no-unvalidated-input-responses',
  meta: {
    type: 'suggestion',
    docs: {
      description:
        'Disallow trusting raw inputResponses entries (casts, direct property reads) and acceptedContent without a schema: retried answers are client-controlled and unvalidated',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      rawCast:
        'Casting an inputResponses entry trusts client-controlled data without validation. Read it with acceptedContent(responses, key, schema) (elicitation) or inputResponse(responses, key) and check its kind.',
      rawRead:
        'Reading .{{prop}} of a raw inputResponses entry trusts client-controlled data. Use acceptedContent(responses, key, schema) (elicitation) or inputResponse(responses, key) and check its kind.',
      missingSchema:
        'acceptedContent without a schema returns the client\'s content unvalidated (MRTR does not validate it against requestedSchema). Pass the schema: acceptedContent(responses, key, schema).',
      passSchema: 'Validate with {{schema}}.',
    },
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    if (!textHasAny(sourceCode.text, [TARGET.inputResponsesField, TARGET.acceptedContent])) return {};
    const resolver = getMcpContextResolver(sourceCode);

    /** requestedSchema of `inputRequired.elicit({ requestedSchema })` for `key`, in the same handler. */
    function requestedSchemaFor(at: TSESTree.Node, key: string): TSESTree.Node | undefined {
      const scope = resolver.lexicalHandlerOf(at)?.fn ?? enclosingFunction(at);
      if (!scope) return undefined;
      let found: TSESTree.Node | undefined;
      walk(scope, sourceCode.visitorKeys, (node) => {
        if (found) return false;
        if (node.type !== AST_NODE_TYPES.Property || getPropertyName(node) !== key) return;
        if (builderNameOf(sourceCode, node.value) !== 'elicit') return;
        const call = unwrap(node.value) as TSESTree.CallExpression;
        const params = call.arguments[0] ? resolveConstInit(sourceCode, call.arguments[0]) : undefined;
        if (params?.type !== AST_NODE_TYPES.ObjectExpression) return;
        found = findProperty(params, 'requestedSchema')?.value;
      });
      return found;
    }

    function schemaSuggestions(call: TSESTree.CallExpression, key: string | undefined): TSESLint.ReportSuggestionArray<MessageId> {
      if (key === undefined) return [];
      const schema = requestedSchemaFor(call, key);
      if (!schema) return [];
      const definition = resolveConstInit(sourceCode, schema) ?? schema;
      const text = sourceCode.getText(schema);
      let argument: string | undefined;
      if (isZodExpression(definition)) argument = text;
      else if (definition.type === AST_NODE_TYPES.ObjectExpression && unwrap(schema).type === AST_NODE_TYPES.Identifier) {
        const fromJson = importedLocalName(sourceCode, TARGET.fromJsonSchema);
        if (fromJson) argument = `${fromJson}(${text})`;
      }
      if (!argument) return [];
      const last = call.arguments[1];
      return [{ messageId: 'passSchema', data: { schema: argument }, fix: (fixer) => fixer.insertTextAfter(last, `, ${argument}`) }];
    }

    return {
      'TSAsExpression, TSTypeAssertion'(node: TSESTree.TSAsExpression | TSESTree.TSTypeAssertion) {
        if (node.typeAnnotation.type === AST_NODE_TYPES.TSUnknownKeyword) return;
        const inner = unwrap(node.expression);
        if (isInputResponseEntry(inner) || isInputResponsesMember(inner)) context.report({ node, messageId: 'rawCast' });
      },
      MemberExpression(node) {
        // responses.confirm.content / responses['confirm'].action
        // a cast in between is reported as rawCast already
        if (node.object.type === AST_NODE_TYPES.TSAsExpression || node.object.type === AST_NODE_TYPES.TSTypeAssertion) return;
        const object = unwrap(node.object);
        if (!isInputResponseEntry(object)) return;
        if (outerParent(object) !== node) return;
        const prop = getPropertyName(node) ?? '[…]';
        context.report({ node, messageId: 'rawRead', data: { prop } });
      },
      CallExpression(node) {
        if (answerReaderOf(sourceCode, node) !== 'acceptedContent' || node.arguments.length !== 2) return;
        if (node.arguments.some((a) => a.type === AST_NODE_TYPES.SpreadElement)) return;
        context.report({
          node,
          messageId: 'missingSchema',
          suggest: schemaSuggestions(node, getStaticString(node.arguments[1])),
        });
      },
    };
  },
});
