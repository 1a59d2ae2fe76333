import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import {
  CTX_MCPREQ_METHOD_TO_LEGACY,
  ELICITATION_MODE_FIELD,
  ELICITATION_URL_MODE,
  FORM_ELICIT_BUILDER,
  LEGACY_REQUESTS,
  REQUESTED_SCHEMA_FIELD,
  SECRET_SCHEMA_FORMATS,
  SERVER_METHOD_TO_LEGACY,
  TARGET,
  URL_ELICIT_BUILDER,
  ZOD_DESCRIBE_METHOD,
  ZOD_OBJECT_BUILDERS,
  looksSecret,
} from '@mcp-mrtr/surface';
import { findProperty, getCalleeName, getCalleeObject, getPropertyName, literalString, resolveValue, unwrap } from '../utils/ast.js';
import { callsMcpExport } from '../utils/mcp-imports.js';
import { createRule } from '../utils/create-rule.js';
import { fileTokenFilter } from '../utils/file-tokens.js';

const ELICIT_METHOD = LEGACY_REQUESTS['elicitation/create'].method;
const ELICITATION_MESSAGE_FIELD = 'message';
/** Method names that send a form elicitation: `server.elicitInput`, `ctx.mcpReq.elicitInput`. */
const ELICIT_CALLS = new Set(
  [...Object.entries(SERVER_METHOD_TO_LEGACY), ...Object.entries(CTX_MCPREQ_METHOD_TO_LEGACY)]
    .filter(([, method]) => method === ELICIT_METHOD)
    .map(([name]) => name),
);
const TRIGGER_TOKENS = [...ELICIT_CALLS, ELICIT_METHOD, `.${FORM_ELICIT_BUILDER}(`];

const isRelevant = fileTokenFilter(TRIGGER_TOKENS);

export default createRule<[], 'sensitiveField'>({
  name: 'no-sensitive-elicitation',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow form-mode elicitation that asks for passwords, API keys, tokens or card data (use URL-mode elicitation)',
    },
    schema: [],
    messages: {
      sensitiveField:
        `Form-mode elicitation asks for '{{field}}' ({{why}}), which looks like a secret: form answers travel through the client in clear and may reach the model's context. Ask in URL mode instead (inputRequired.${URL_ELICIT_BUILDER}({ message, url }) to a page you control) and keep the secret server-side.`,
    },
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    if (!isRelevant(sourceCode)) return {};
    const checked = new Set<TSESTree.Node>();

    function report(node: TSESTree.Node, field: string, why: string): void {
      context.report({ node, messageId: 'sensitiveField', data: { field, why } });
    }

    /** `describe('...')` texts along a zod chain: `z.string().min(8).describe('Your password')`. */
    function zodDescriptions(node: TSESTree.Node): string[] {
      const texts: string[] = [];
      let n = unwrap(node);
      while (n.type === AST_NODE_TYPES.CallExpression) {
        if (getCalleeName(n) === ZOD_DESCRIBE_METHOD) {
          const text = literalString(n.arguments[0]);
          if (text) texts.push(text);
        }
        const object = getCalleeObject(n);
        if (!object) break;
        n = object;
      }
      return texts;
    }

    function checkZodShape(shape: TSESTree.ObjectExpression): void {
      for (const prop of shape.properties) {
        if (prop.type !== AST_NODE_TYPES.Property) continue;
        const name = getPropertyName(prop);
        if (name !== undefined && looksSecret(name)) {
          report(prop.key, name, 'field name');
          continue;
        }
        const text = zodDescriptions(prop.value).find(looksSecret);
        if (text !== undefined) report(prop.value, name ?? text, `described as "${text}"`);
      }
    }

    function checkJsonSchema(schema: TSESTree.ObjectExpression): void {
      const properties = findProperty(schema, 'properties');
      const fields = properties && resolveValue(properties.value, sourceCode);
      if (!fields || fields.type !== AST_NODE_TYPES.ObjectExpression) return;
      for (const prop of fields.properties) {
        if (prop.type !== AST_NODE_TYPES.Property) continue;
        const name = getPropertyName(prop);
        if (name !== undefined && looksSecret(name)) {
          report(prop.key, name, 'field name');
          continue;
        }
        const field = resolveValue(prop.value, sourceCode);
        if (field.type !== AST_NODE_TYPES.ObjectExpression) continue;
        const format = literalString(findProperty(field, 'format')?.value);
        if (format !== undefined && SECRET_SCHEMA_FORMATS.includes(format)) {
          report(prop.key, name ?? format, `format: '${format}'`);
          continue;
        }
        for (const attr of ['title', 'description']) {
          const text = literalString(findProperty(field, attr)?.value);
          if (text !== undefined && looksSecret(text)) {
            report(prop.key, name ?? text, `${attr} "${text}"`);
            break;
          }
        }
      }
    }

    function checkSchema(node: TSESTree.Node): void {
      const schema = resolveValue(node, sourceCode);
      if (checked.has(schema)) return;
      checked.add(schema);
      if (schema.type === AST_NODE_TYPES.ObjectExpression) {
        checkJsonSchema(schema);
        return;
      }
      if (schema.type !== AST_NODE_TYPES.CallExpression) return;
      const name = getCalleeName(schema);
      const arg = schema.arguments[0] && resolveValue(schema.arguments[0], sourceCode);
      if (name && ZOD_OBJECT_BUILDERS.includes(name) && arg?.type === AST_NODE_TYPES.ObjectExpression) {
        checkZodShape(arg);
      } else if (name === TARGET.fromJsonSchema && arg) {
        checkSchema(arg);
      } else {
        // z.object({...}).strict(), .describe(...), .passthrough(): the shape sits under the chain
        const object = getCalleeObject(schema);
        if (object) checkSchema(object);
      }
    }

    /** Params of a form-mode elicitation: `{ message, requestedSchema }` (URL mode is fine). */
    function checkParams(node: TSESTree.Node | undefined): void {
      if (!node) return;
      const params = resolveValue(node, sourceCode);
      if (params.type !== AST_NODE_TYPES.ObjectExpression) return;
      if (literalString(findProperty(params, ELICITATION_MODE_FIELD)?.value) === ELICITATION_URL_MODE) return;
      const schema = findProperty(params, REQUESTED_SCHEMA_FIELD);
      if (schema) checkSchema(schema.value);
    }

    return {
      CallExpression(call) {
        const callee = unwrap(call.callee);
        if (callee.type !== AST_NODE_TYPES.MemberExpression) return;
        const name = getPropertyName(callee);
        if (name === undefined) return;
        if (ELICIT_CALLS.has(name)) {
          checkParams(call.arguments[0]);
          return;
        }
        if (name === FORM_ELICIT_BUILDER && callsMcpExport(sourceCode, call, [TARGET.inputRequired, name])) {
          checkParams(call.arguments[0]);
        }
      },
      ObjectExpression(obj) {
        // `{ method: 'elicitation/create', params }`: sendRequest / request / send, raw JSON-RPC, hand-built inputRequests
        if (literalString(findProperty(obj, 'method')?.value) === ELICIT_METHOD) {
          const params = findProperty(obj, 'params');
          if (params) checkParams(params.value);
          return;
        }
        // the params object itself wherever it is built: a function returning it for
        // `inputRequired.elicit(setupRequest(ip))` (as mcp-mrtr's migrations write it), a typed constant
        if (findProperty(obj, REQUESTED_SCHEMA_FIELD) && findProperty(obj, ELICITATION_MESSAGE_FIELD)) checkParams(obj);
      },
    };
  },
});
