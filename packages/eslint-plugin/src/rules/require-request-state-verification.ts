import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import {
  CTX_MCPREQ_READS,
  RAW_STATE_DECODERS,
  TARGET,
  UNSEALED_BUFFER_ENCODINGS,
  UNSEALED_STATE_ENCODERS,
} from '@mcp-mrtr/surface';
import {
  findProperty,
  getCalleeName,
  getPropertyName,
  getQualifiedCalleeName,
  getStaticString,
  hasSpread,
  resolveConstInit,
  textHasAny,
  unwrap,
} from '../utils/ast.js';
import { createRule } from '../utils/create-rule.js';
import { isMcpReqLike } from '../utils/legacy-sites.js';
import { isServerConstruction } from '../utils/mcp-imports.js';
import { isInputRequiredCall, isRawInputRequiredObject, localNamesOf, resultSpecOf } from '../utils/mrtr-results.js';

type MessageId = 'unsealedMint' | 'rawStateParsed' | 'noVerifyHook' | 'addVerifyHook';

const ENCODERS = new Set<string>(UNSEALED_STATE_ENCODERS);
const BUFFER_ENCODINGS = new Set<string>(UNSEALED_BUFFER_ENCODINGS);
const DECODERS = new Set<string>(RAW_STATE_DECODERS);

type Source = Readonly<TSESLint.SourceCode>;

/** How a requestState value was built by hand, or undefined when it may be sealed. */
function unsealedHow(sourceCode: Source, node: TSESTree.Node, depth = 0): string | undefined {
  if (depth > 4) return undefined;
  const n = unwrap(node);
  switch (n.type) {
    case AST_NODE_TYPES.Literal:
      return typeof n.value === 'string' ? 'a string literal' : undefined;
    case AST_NODE_TYPES.TemplateLiteral:
      return 'a template literal';
    case AST_NODE_TYPES.Identifier: {
      const init = resolveConstInit(sourceCode, n);
      return init && init !== n ? unsealedHow(sourceCode, init, depth + 1) : undefined;
    }
    case AST_NODE_TYPES.AwaitExpression:
      return unsealedHow(sourceCode, n.argument, depth + 1);
    case AST_NODE_TYPES.ConditionalExpression:
      return unsealedHow(sourceCode, n.consequent, depth + 1) ?? unsealedHow(sourceCode, n.alternate, depth + 1);
    case AST_NODE_TYPES.LogicalExpression:
      return unsealedHow(sourceCode, n.left, depth + 1) ?? unsealedHow(sourceCode, n.right, depth + 1);
    case AST_NODE_TYPES.CallExpression: {
      const qualified = getQualifiedCalleeName(n);
      if (qualified && ENCODERS.has(qualified)) return `${qualified}()`;
      // Buffer.from(JSON.stringify(x)).toString('base64')
      if (getCalleeName(n) === 'toString' && BUFFER_ENCODINGS.has(getStaticString(n.arguments[0]) ?? '')) {
        return `.toString('${getStaticString(n.arguments[0])}')`;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** Does the expression carry the raw requestState (`params.requestState`, `ctx.mcpReq.requestState()`)? */
function carriesRawState(sourceCode: Source, node: TSESTree.Node, depth = 0): boolean {
  if (depth > 4) return false;
  const n = unwrap(node);
  switch (n.type) {
    case AST_NODE_TYPES.MemberExpression:
      return getPropertyName(n) === CTX_MCPREQ_READS.requestState;
    case AST_NODE_TYPES.Identifier: {
      if (n.name === CTX_MCPREQ_READS.requestState) return true;
      const init = resolveConstInit(sourceCode, n);
      return !!init && init !== n && carriesRawState(sourceCode, init, depth + 1);
    }
    case AST_NODE_TYPES.CallExpression: {
      const callee = unwrap(n.callee);
      if (callee.type === AST_NODE_TYPES.MemberExpression && getPropertyName(callee) === CTX_MCPREQ_READS.requestState) return true;
      // nested decoders and `.toString()` of a decoded buffer
      const qualified = getQualifiedCalleeName(n);
      if (qualified && DECODERS.has(qualified)) return !!n.arguments[0] && carriesRawState(sourceCode, n.arguments[0], depth + 1);
      if (callee.type === AST_NODE_TYPES.MemberExpression && getPropertyName(callee) === 'toString') return carriesRawState(sourceCode, callee.object, depth + 1);
      return false;
    }
    default:
      return false;
  }
}

/** A decoder call reading the raw state (`JSON.parse(ctx.mcpReq.requestState())`): the decoder's name. */
function rawStateDecoder(sourceCode: Source, call: TSESTree.CallExpression): string | undefined {
  const qualified = getQualifiedCalleeName(call);
  if (!qualified || !DECODERS.has(qualified) || !call.arguments[0]) return undefined;
  return carriesRawState(sourceCode, call.arguments[0]) ? qualified : undefined;
}

/** The `requestState` value of an input_required result built by hand, with how it was built. */
function unsealedMint(sourceCode: Source, result: TSESTree.CallExpression | TSESTree.ObjectExpression): { value: TSESTree.Node; how: string } | undefined {
  const spec = resultSpecOf(sourceCode, result);
  const prop = spec ? findProperty(spec, TARGET.requestStateField) : undefined;
  const how = prop ? unsealedHow(sourceCode, prop.value) : undefined;
  return prop && how ? { value: prop.value, how } : undefined;
}

/** The verify hook's status in `new McpServer(info, options)`. */
function verifyHookStatus(sourceCode: Source, node: TSESTree.NewExpression): 'present' | 'missing' | 'unknown' {
  const options = node.arguments[1];
  if (!options) return 'missing';
  const obj = resolveConstInit(sourceCode, options);
  if (obj?.type !== AST_NODE_TYPES.ObjectExpression) return 'unknown';
  const state = findProperty(obj, TARGET.requestStateField);
  if (!state) return hasSpread(obj) ? 'unknown' : 'missing';
  const stateObj = resolveConstInit(sourceCode, state.value);
  if (stateObj?.type !== AST_NODE_TYPES.ObjectExpression) return 'unknown';
  if (findProperty(stateObj, TARGET.requestStateVerifyOption)) return 'present';
  return hasSpread(stateObj) ? 'unknown' : 'missing';
}

/** The one codec in scope a suggestion can name (created or imported in this module). */
function codecInScope(sourceCode: Source): string | undefined {
  const names = new Set<string>();
  const creators = localNamesOf(sourceCode, TARGET.createRequestStateCodec);
  for (const statement of sourceCode.ast.body) {
    const decl = statement.type === AST_NODE_TYPES.ExportNamedDeclaration && statement.declaration ? statement.declaration : statement;
    if (decl.type === AST_NODE_TYPES.VariableDeclaration) {
      for (const d of decl.declarations) {
        const init = d.init ? unwrap(d.init) : undefined;
        if (d.id.type === AST_NODE_TYPES.Identifier && init?.type === AST_NODE_TYPES.CallExpression && creators.has(getCalleeName(init) ?? '')) names.add(d.id.name);
      }
    }
    if (decl.type === AST_NODE_TYPES.ImportDeclaration) {
      for (const spec of decl.specifiers) if (/codec$/i.test(spec.local.name) && !creators.has(spec.local.name)) names.add(spec.local.name);
    }
  }
  return names.size === 1 ? [...names][0] : undefined;
}

/** Adding `requestState: { verify: <codec>.verify }` to the server's options, when one codec is in scope and the options are written inline. */
function verifyHookSuggestion(sourceCode: Source, node: TSESTree.NewExpression): TSESLint.ReportSuggestionArray<MessageId> {
  const codec = codecInScope(sourceCode);
  if (!codec) return [];
  const hook = `requestState: { verify: ${codec}.verify }`;
  const suggest = (fix: TSESLint.ReportFixFunction): TSESLint.ReportSuggestionArray<MessageId> => [{ messageId: 'addVerifyHook', data: { codec }, fix }];
  const options = node.arguments[1];
  if (!options && node.arguments.length === 1) return suggest((fixer) => fixer.insertTextAfter(node.arguments[0], `, { ${hook} }`));
  const obj = options ? unwrap(options) : undefined;
  if (obj?.type !== AST_NODE_TYPES.ObjectExpression || findProperty(obj, TARGET.requestStateField)) return [];
  if (obj.properties.length === 0) return suggest((fixer) => fixer.replaceText(obj, `{ ${hook} }`));
  const last = obj.properties[obj.properties.length - 1];
  return suggest((fixer) => fixer.insertTextAfter(last, `, ${hook}`));
}

export default createRule<[], MessageId>({
  name: 'require-request-state-verification',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Require requestState to be minted by a sealing codec and verified by the server (requestState.verify), never parsed raw',
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      unsealedMint:
        'requestState built with {{how}} is not sealed: the client can forge or alter it. Mint it with a codec from createRequestStateCodec (await codec.mint(payload, ctx)) and verify it with requestState: { verify: codec.verify } on the server.',
      rawStateParsed:
        'requestState comes back from the client: {{how}} on the raw value trusts attacker-controlled data. Verify it with the server option requestState: { verify: codec.verify } and read the decoded payload with ctx.mcpReq.requestState().',
      noVerifyHook:
        'requestState is read in this file (line {{line}}), but this server is constructed without a requestState.verify hook: a tampered or expired state reaches the handler. Pass { requestState: { verify: codec.verify } }.',
      addVerifyHook: 'Add requestState: { verify: {{codec}}.verify }.',
    },
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    if (!textHasAny(sourceCode.text, [TARGET.requestStateField])) return {};
    const stateReads: TSESTree.Node[] = [];
    const constructions: TSESTree.NewExpression[] = [];
    const reportedDecoders: TSESTree.Node[] = [];

    function checkMint(result: TSESTree.CallExpression | TSESTree.ObjectExpression): void {
      const mint = unsealedMint(sourceCode, result);
      if (mint) context.report({ node: mint.value, messageId: 'unsealedMint', data: { how: mint.how } });
    }

    return {
      CallExpression(node) {
        if (isInputRequiredCall(sourceCode, node)) {
          checkMint(node);
          return;
        }
        const decoder = rawStateDecoder(sourceCode, node);
        // report the outermost decoder only (calls are visited outside-in)
        if (!decoder || reportedDecoders.some((outer) => outer.range[0] <= node.range[0] && node.range[1] <= outer.range[1])) return;
        reportedDecoders.push(node);
        context.report({ node, messageId: 'rawStateParsed', data: { how: `${decoder}()` } });
      },
      ObjectExpression(node) {
        if (isRawInputRequiredObject(node)) checkMint(node);
      },
      MemberExpression(node) {
        // ctx.mcpReq.requestState(...) / mcpReq.requestState
        if (getPropertyName(node) === CTX_MCPREQ_READS.requestState && isMcpReqLike(sourceCode, node.object)) stateReads.push(node);
      },
      NewExpression(node) {
        if (isServerConstruction(sourceCode, node)) constructions.push(node);
      },
      'Program:exit'() {
        if (stateReads.length === 0) return;
        const line = String(stateReads[0].loc.start.line);
        for (const construction of constructions) {
          if (verifyHookStatus(sourceCode, construction) !== 'missing') continue;
          context.report({ node: construction, messageId: 'noVerifyHook', data: { line }, suggest: verifyHookSuggestion(sourceCode, construction) });
        }
      },
    };
  },
});
