import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { REQUEST_STATE_CODEC_MINT, TARGET, looksSecret } from '@mcp-mrtr/surface';
import { findProperty, getCalleeName, getCalleeObject, getPropertyName, literalString, qualifiedName, resolveValue, unwrap, unwrapAwait } from '../utils/ast.js';
import { callsMcpExport } from '../utils/mcp-imports.js';
import { typeServices } from '../utils/types.js';
import { createRule } from '../utils/create-rule.js';
import { fileTokenFilter } from '../utils/file-tokens.js';

type MessageId = 'secretField' | 'secretSpread' | 'secretValue' | 'secretTypeField';

/** A receiver of `.mint(...)` that is a requestState codec by name when its origin is not visible. */
const CODEC_RECEIVER_NAME = /codec|requeststate|statecodec/i;

const isRelevant = fileTokenFilter([TARGET.requestStateField, `.${REQUEST_STATE_CODEC_MINT}(`, TARGET.inputRequiredValue]);

export default createRule<[], MessageId>({
  name: 'no-secrets-in-request-state',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow secret-looking fields in requestState, which the client holds (and can read when the codec only signs)',
    },
    schema: [],
    messages: {
      secretField:
        "'{{name}}' looks like a secret and goes into requestState, which the client holds: under a signing codec such as createRequestStateCodec it (and anything that logs the traffic) can read it, and even encrypted state can be replayed until it expires. Keep the secret server-side and carry only a reference (e.g. an id) in the state.",
      secretSpread:
        "Spreading '{{name}}' into requestState copies what looks like secrets into a value the client holds (readable under a signing codec, replayable under any): pick the non-secret fields explicitly.",
      secretValue:
        "'{{name}}' looks like a secret and goes into requestState, which the client holds (readable under a signing codec, replayable under any): carry a reference instead of the secret itself.",
      secretTypeField:
        "The requestState payload's type has a field '{{name}}' that looks like a secret; requestState is held by the client (readable under a signing codec, replayable under any): keep secrets out of it.",
    },
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    if (!isRelevant(sourceCode)) return {};
    const types = typeServices(context);
    const reported = new Set<TSESTree.Node>();

    function report(node: TSESTree.Node, messageId: MessageId, name: string): void {
      if (reported.has(node)) return;
      reported.add(node);
      context.report({ node, messageId, data: { name } });
    }

    /** Last name of `a.b.apiKey` / `apiKey`, or undefined for anything else. */
    function valueName(node: TSESTree.Node): string | undefined {
      const n = unwrapAwait(node);
      if (n.type === AST_NODE_TYPES.Identifier) return n.name;
      if (n.type === AST_NODE_TYPES.MemberExpression) return getPropertyName(n);
      return undefined;
    }

    function checkPayloadType(node: TSESTree.Node): void {
      if (!types) return;
      const tsNode = types.tsNode(node);
      if (!tsNode) return;
      const type = types.checker.getTypeAtLocation(tsNode);
      const members = type.isUnion() ? type.types : [type];
      for (const member of members) {
        for (const symbol of types.checker.getPropertiesOfType(member)) {
          if (looksSecret(symbol.name)) {
            report(node, 'secretTypeField', symbol.name);
            return;
          }
        }
      }
    }

    function checkPayload(node: TSESTree.Node, depth = 0): void {
      if (depth > 4) return;
      const n = resolveValue(unwrapAwait(node), sourceCode);
      if (n.type === AST_NODE_TYPES.ObjectExpression) {
        for (const prop of n.properties) {
          if (prop.type === AST_NODE_TYPES.SpreadElement) {
            const name = valueName(prop.argument);
            if (name !== undefined && looksSecret(name)) report(prop, 'secretSpread', name);
            else checkPayload(prop.argument, depth + 1);
            continue;
          }
          const name = getPropertyName(prop);
          if (name !== undefined && looksSecret(name)) {
            report(prop.key, 'secretField', name);
            continue;
          }
          const value = unwrapAwait(prop.value);
          const valueText = valueName(value);
          if (valueText !== undefined && looksSecret(valueText)) report(value, 'secretValue', qualifiedName(value) ?? valueText);
          else if (value.type === AST_NODE_TYPES.ObjectExpression || value.type === AST_NODE_TYPES.ArrayExpression) {
            checkPayload(value, depth + 1);
          }
        }
        return;
      }
      if (n.type === AST_NODE_TYPES.ArrayExpression) {
        for (const element of n.elements) if (element) checkPayload(element, depth + 1);
        return;
      }
      const name = valueName(n);
      if (name !== undefined && looksSecret(name)) report(n, 'secretValue', qualifiedName(n) ?? name);
      else checkPayloadType(unwrapAwait(node));
    }

    /** What a `requestState:` value carries: objects inside JSON.stringify / btoa / Buffer chains, template parts. */
    function checkStateExpression(node: TSESTree.Node, depth = 0): void {
      if (depth > 6) return;
      const n = resolveValue(unwrapAwait(node), sourceCode);
      switch (n.type) {
        case AST_NODE_TYPES.ObjectExpression:
        case AST_NODE_TYPES.ArrayExpression:
          checkPayload(n, depth);
          return;
        case AST_NODE_TYPES.CallExpression: {
          if (isMint(n)) return; // reported from the mint call itself
          for (const arg of n.arguments) checkStateExpression(arg, depth + 1);
          const object = getCalleeObject(n);
          if (object) checkStateExpression(object, depth + 1);
          return;
        }
        case AST_NODE_TYPES.NewExpression:
          for (const arg of n.arguments) checkStateExpression(arg, depth + 1);
          return;
        case AST_NODE_TYPES.TemplateLiteral:
          for (const expr of n.expressions) checkStateExpression(expr, depth + 1);
          return;
        case AST_NODE_TYPES.BinaryExpression:
          checkStateExpression(n.left, depth + 1);
          checkStateExpression(n.right, depth + 1);
          return;
        case AST_NODE_TYPES.ConditionalExpression:
          checkStateExpression(n.consequent, depth + 1);
          checkStateExpression(n.alternate, depth + 1);
          return;
        case AST_NODE_TYPES.Identifier:
        case AST_NODE_TYPES.MemberExpression: {
          const name = valueName(n);
          if (name !== undefined && looksSecret(name)) report(n, 'secretValue', qualifiedName(n) ?? name);
          return;
        }
        default:
          return;
      }
    }

    function isMint(call: TSESTree.CallExpression): boolean {
      if (getCalleeName(call) !== REQUEST_STATE_CODEC_MINT) return false;
      const receiver = getCalleeObject(call);
      if (!receiver) return false;
      const origin = resolveValue(receiver, sourceCode);
      if (origin.type === AST_NODE_TYPES.CallExpression) {
        const factory = unwrap(origin.callee);
        if (factory.type === AST_NODE_TYPES.Identifier ? callsMcpExport(sourceCode, origin, [TARGET.createRequestStateCodec]) : getCalleeName(origin) === TARGET.createRequestStateCodec) return true;
      }
      const text = qualifiedName(receiver);
      return text !== undefined && CODEC_RECEIVER_NAME.test(text);
    }

    function isInputRequiredResult(obj: TSESTree.ObjectExpression): boolean {
      if (literalString(findProperty(obj, TARGET.resultTypeField)?.value) === TARGET.inputRequiredValue) return true;
      const parent = obj.parent;
      return parent?.type === AST_NODE_TYPES.CallExpression && parent.arguments[0] === obj && callsMcpExport(sourceCode, parent, [TARGET.inputRequired]);
    }

    return {
      CallExpression(call) {
        if (call.arguments[0] && isMint(call)) checkPayload(call.arguments[0]);
      },
      Property(prop) {
        if (prop.parent.type !== AST_NODE_TYPES.ObjectExpression || getPropertyName(prop) !== TARGET.requestStateField) return;
        if (!isInputRequiredResult(prop.parent)) return;
        checkStateExpression(prop.value);
      },
    };
  },
});
