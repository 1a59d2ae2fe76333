import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { HOSTING_ADVICE, HTTP_TRANSPORTS, MCP_PACKAGE_PREFIX, SERVER_CONNECT_METHOD, SSE_TRANSPORTS, STDIO_TRANSPORT, TARGET } from '@mcp-mrtr/surface';
import { getPropertyName, importedNameOf, unwrap } from '../utils/ast.js';
import { createRule } from '../utils/create-rule.js';
import { fileTokenFilter } from '../utils/file-tokens.js';

type Kind = 'stdio' | 'http' | 'sse';
type MessageId = 'stdioHosting' | 'httpHosting' | 'sseHosting';

const KIND_OF = new Map<string, Kind>([[STDIO_TRANSPORT, 'stdio'], ...HTTP_TRANSPORTS.map((t): [string, Kind] => [t, 'http']), ...SSE_TRANSPORTS.map((t): [string, Kind] => [t, 'sse'])]);
const MESSAGE_OF: Record<Kind, MessageId> = { stdio: 'stdioHosting', http: 'httpHosting', sse: 'sseHosting' };
const isRelevant = fileTokenFilter([...KIND_OF.keys()]);

/** `@modelcontextprotocol/...` transport classes in scope: local name → kind (ES imports and `require` destructuring). */
function transportImports(program: TSESTree.Program): Map<string, Kind> {
  const names = new Map<string, Kind>();
  const fromMcp = (source: unknown) => typeof source === 'string' && source.startsWith(MCP_PACKAGE_PREFIX);
  for (const statement of program.body) {
    if (statement.type === AST_NODE_TYPES.ImportDeclaration && fromMcp(statement.source.value) && statement.importKind !== 'type') {
      for (const spec of statement.specifiers) {
        if (spec.type !== AST_NODE_TYPES.ImportSpecifier || spec.importKind === 'type') continue;
        const kind = KIND_OF.get(importedNameOf(spec));
        if (kind) names.set(spec.local.name, kind);
      }
    } else if (statement.type === AST_NODE_TYPES.VariableDeclaration) {
      for (const decl of statement.declarations) {
        const init = decl.init && unwrap(decl.init);
        const required =
          init?.type === AST_NODE_TYPES.CallExpression &&
          init.callee.type === AST_NODE_TYPES.Identifier &&
          init.callee.name === 'require' &&
          init.arguments[0]?.type === AST_NODE_TYPES.Literal &&
          fromMcp(init.arguments[0].value);
        if (!required || decl.id.type !== AST_NODE_TYPES.ObjectPattern) continue;
        for (const prop of decl.id.properties) {
          if (prop.type !== AST_NODE_TYPES.Property || prop.key.type !== AST_NODE_TYPES.Identifier || prop.value.type !== AST_NODE_TYPES.Identifier) continue;
          const kind = KIND_OF.get(prop.key.name);
          if (kind) names.set(prop.value.name, kind);
        }
      }
    }
  }
  return names;
}

export default createRule<[], MessageId>({
  name: 'no-legacy-only-hosting',
  meta: {
    type: 'suggestion',
    docs: {
      description: 'Report MCP servers connected to a transport the 2025 way, which serves 2025-era clients only, instead of serveStdio / createMcpHandler',
    },
    schema: [],
    messages: {
      stdioHosting: `server.connect(new ${STDIO_TRANSPORT}()) serves 2025-era clients only: ${HOSTING_ADVICE.stdio.split(';')[0]}.`,
      httpHosting: `{{transport}} hosting serves 2025-era clients only: ${HOSTING_ADVICE.http}.`,
      sseHosting: `{{transport}} hosting serves 2024/2025-era clients only: ${HOSTING_ADVICE.sse}.`,
    },
  },
  defaultOptions: [],
  create(context) {
    const sourceCode = context.sourceCode;
    if (!isRelevant(sourceCode)) return {};
    const transports = transportImports(sourceCode.ast);
    if (transports.size === 0) return {};
    // the documented composition keeps a 2025 session wiring behind `isLegacyRequest`: that leg is meant to stay
    const legacyLegKept = sourceCode.text.includes(TARGET.isLegacyRequest);

    /** The transport class a `new` expression builds, if it is one of the imported MCP transports. */
    function constructed(node: TSESTree.Node | null | undefined): { kind: Kind; name: string } | undefined {
      const expr = node && unwrap(node as TSESTree.Expression);
      if (expr?.type !== AST_NODE_TYPES.NewExpression || expr.callee.type !== AST_NODE_TYPES.Identifier) return undefined;
      const kind = transports.get(expr.callee.name);
      return kind ? { kind, name: expr.callee.name } : undefined;
    }

    /** `new X()` inline, or a variable initialised / assigned with one. */
    function transportOf(arg: TSESTree.Node, scope: TSESLint.Scope.Scope): { kind: Kind; name: string } | undefined {
      const direct = constructed(arg);
      if (direct) return direct;
      const expr = unwrap(arg as TSESTree.Expression);
      if (expr.type !== AST_NODE_TYPES.Identifier) return undefined;
      const variable = ASTUtils.findVariable(scope, expr);
      if (!variable) return undefined;
      for (const def of variable.defs) {
        if (def.node.type === AST_NODE_TYPES.VariableDeclarator) {
          const found = constructed(def.node.init);
          if (found) return found;
        }
      }
      for (const ref of variable.references) {
        const found = ref.isWrite() ? constructed(ref.writeExpr) : undefined;
        if (found) return found;
      }
      return undefined;
    }

    return {
      CallExpression(call) {
        const callee = unwrap(call.callee);
        if (callee.type !== AST_NODE_TYPES.MemberExpression || getPropertyName(callee) !== SERVER_CONNECT_METHOD || !call.arguments[0]) return;
        const transport = transportOf(call.arguments[0], sourceCode.getScope(call));
        if (!transport || (legacyLegKept && transport.kind !== 'stdio')) return;
        context.report({ node: call, messageId: MESSAGE_OF[transport.kind], data: { transport: transport.name } });
      },
    };
  },
});
