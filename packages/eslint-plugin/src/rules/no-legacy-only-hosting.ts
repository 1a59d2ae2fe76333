import { AST_NODE_TYPES, ASTUtils, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { HOSTING_ADVICE, HTTP_TRANSPORTS, SERVER_CONNECT_METHOD, SSE_TRANSPORTS, STDIO_TRANSPORT, TARGET } from '@mcp-mrtr/surface';
import { getPropertyName, unwrap } from '../utils/ast.js';
import { createRule } from '../utils/create-rule.js';
import { fileTokenFilter } from '../utils/file-tokens.js';
import { mcpExportReferences } from '../utils/mcp-imports.js';

type Kind = 'stdio' | 'http' | 'sse';
type MessageId = 'stdioHosting' | 'httpHosting' | 'sseHosting';

const KIND_OF = new Map<string, Kind>([[STDIO_TRANSPORT, 'stdio'], ...HTTP_TRANSPORTS.map((t): [string, Kind] => [t, 'http']), ...SSE_TRANSPORTS.map((t): [string, Kind] => [t, 'sse'])]);
const MESSAGE_OF: Record<Kind, MessageId> = { stdio: 'stdioHosting', http: 'httpHosting', sse: 'sseHosting' };
const isRelevant = fileTokenFilter([...KIND_OF.keys()]);

/** The MCP transports the file constructs (`new StdioServerTransport()` under any import alias, namespace or `require`), by kind. */
function transportConstructions(sourceCode: Readonly<TSESLint.SourceCode>): Map<TSESTree.Node, Kind> {
  const exports = Object.fromEntries([...KIND_OF].map(([name, kind]) => [name, { [ASTUtils.ReferenceTracker.CONSTRUCT]: kind }]));
  return new Map(mcpExportReferences<Kind>(sourceCode, exports).map((ref) => [ref.node, ref.info]));
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
    const transports = transportConstructions(sourceCode);
    if (transports.size === 0) return {};
    // the documented composition keeps a 2025 session wiring behind `isLegacyRequest`: that leg is meant to stay
    const legacyLegKept = sourceCode.text.includes(TARGET.isLegacyRequest);

    /** The transport class a `new` expression builds, if it is one of the imported MCP transports. */
    function constructed(node: TSESTree.Node | null | undefined): { kind: Kind; name: string } | undefined {
      const expr = node && unwrap(node as TSESTree.Expression);
      const kind = expr && transports.get(expr);
      return expr?.type === AST_NODE_TYPES.NewExpression && kind ? { kind, name: sourceCode.getText(expr.callee) } : undefined;
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
