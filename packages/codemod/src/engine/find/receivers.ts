/**
 * Is this receiver an MCP server (v1 `Server`, `McpServer['server']`, v2 instance server) or a
 * handler's per-request context? Type checker first where types exist; syntactic evidence
 * (construction, `.server` access, aliases, parameter names/annotations) for plain JS and
 * unresolved types.
 */
import { Node } from 'ts-morph';
import { CTX_MCPREQ_PROPERTY, MCP_SERVER_INNER_PROPERTY, SERVER_CLASSES, SERVER_LIKE_NAME_PATTERN } from '@mcp-mrtr/surface';
import { classifyType, declarationOf, safeType, unwrapExpression } from './resolve.js';

export interface FindContext {
  /** Types can be trusted (project loaded with a tsconfig). */
  typeChecked: boolean;
}

const SERVER_ANNOTATION = new RegExp(`\\b(${SERVER_CLASSES.join('|')})\\b`);

/**
 * How sure the syntax alone is that an expression holds an MCP server: `strong` (construction,
 * `.server`, a `Server`/`McpServer` annotation, an alias of one of those), `weak` (only the name
 * looks like a server), `none`. Types are consulted only to veto weak evidence: type queries inside
 * registration callbacks cost an overload resolution each, and strong evidence needs none.
 */
type Evidence = 'strong' | 'weak' | 'none';

export function isServerReceiver(expr: Node | undefined, ctx: FindContext): boolean {
  const node = unwrapExpression(expr);
  if (!node) return false;
  const evidence = serverEvidence(node, 0);
  if (evidence === 'none') return false;
  if (evidence === 'strong' || !ctx.typeChecked) return true;
  const type = safeType(node);
  return !type || classifyType(type, SERVER_CLASSES) !== 'other';
}

function serverEvidence(node: Node, depth: number): Evidence {
  if (depth > 5) return 'none';
  if (Node.isThisExpression(node)) {
    const cls = node.getFirstAncestor((a) => Node.isClassDeclaration(a) || Node.isClassExpression(a));
    const heritage = cls && (Node.isClassDeclaration(cls) || Node.isClassExpression(cls)) ? cls.getExtends()?.getExpression().getText() : undefined;
    return heritage !== undefined && SERVER_ANNOTATION.test(heritage) ? 'strong' : 'none';
  }
  if (Node.isNewExpression(node)) {
    const cls = node.getExpression().getText();
    return (SERVER_CLASSES as readonly string[]).includes(cls.split('.').pop() ?? cls) ? 'strong' : 'none';
  }
  if (Node.isAwaitExpression(node) || Node.isParenthesizedExpression(node) || Node.isAsExpression(node) || Node.isNonNullExpression(node)) {
    const inner = unwrapExpression(Node.isAwaitExpression(node) ? node.getExpression() : node);
    return inner && inner !== node ? serverEvidence(inner, depth + 1) : 'none';
  }
  // `(server as any).server ?? server`, `a || b`, `c ? a : b`: the strongest of the candidates
  if (Node.isBinaryExpression(node) && ['??', '||'].includes(node.getOperatorToken().getText())) {
    return strongest(serverEvidence(unwrapExpression(node.getLeft())!, depth + 1), serverEvidence(unwrapExpression(node.getRight())!, depth + 1));
  }
  if (Node.isConditionalExpression(node)) {
    return strongest(serverEvidence(unwrapExpression(node.getWhenTrue())!, depth + 1), serverEvidence(unwrapExpression(node.getWhenFalse())!, depth + 1));
  }
  if (Node.isPropertyAccessExpression(node)) {
    // a private field `this.#server` is named like any other property
    const name = node.getName().replace(/^#/, '');
    if (name === MCP_SERVER_INNER_PROPERTY) return 'strong';
    return SERVER_LIKE_NAME_PATTERN.test(name) ? 'weak' : 'none';
  }
  if (Node.isIdentifier(node)) {
    const name = node.getText();
    const byName: Evidence = SERVER_LIKE_NAME_PATTERN.test(name) ? 'weak' : 'none';
    const decl = declarationOf(node);
    if (!decl) return byName;
    if (Node.isVariableDeclaration(decl)) {
      const annotation = decl.getTypeNode()?.getText();
      if (annotation && SERVER_ANNOTATION.test(annotation)) return 'strong';
      const init = unwrapExpression(decl.getInitializer());
      const fromInit = init ? serverEvidence(init, depth + 1) : 'none';
      return fromInit !== 'none' ? fromInit : byName;
    }
    if (Node.isBindingElement(decl)) {
      const property = decl.getPropertyNameNode()?.getText() ?? decl.getName();
      return property === MCP_SERVER_INNER_PROPERTY ? 'weak' : byName;
    }
    if (Node.isParameterDeclaration(decl)) {
      const annotation = decl.getTypeNode()?.getText();
      if (annotation && SERVER_ANNOTATION.test(annotation)) return 'strong';
      return byName;
    }
    if (Node.isClassDeclaration(decl) || Node.isFunctionDeclaration(decl)) return 'none';
    return byName;
  }
  return 'none';
}

function strongest(a: Evidence, b: Evidence): Evidence {
  if (a === 'strong' || b === 'strong') return 'strong';
  return a === 'weak' || b === 'weak' ? 'weak' : 'none';
}

/** `ctx.mcpReq` (v2 per-request helpers). */
export function isMcpReqReceiver(expr: Node | undefined, ctx: FindContext): boolean {
  const node = unwrapExpression(expr);
  void ctx;
  return node !== undefined && Node.isPropertyAccessExpression(node) && node.getName() === CTX_MCPREQ_PROPERTY;
}

/**
 * A handler's `extra` (v1) / `ctx` (v2). `sendRequest` with one of the three legacy methods (or
 * result schemas) in its arguments is evidence enough; the receiver is not type-queried (its type
 * comes from the registration call's overload resolution, the most expensive query there is).
 */
export function isRequestContextReceiver(expr: Node | undefined, ctx: FindContext): boolean {
  void ctx;
  return unwrapExpression(expr) !== undefined;
}
