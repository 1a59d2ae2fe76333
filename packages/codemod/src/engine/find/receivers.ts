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

export function isServerReceiver(expr: Node | undefined, ctx: FindContext, depth = 0): boolean {
  const node = unwrapExpression(expr);
  if (!node || depth > 5) return false;
  if (ctx.typeChecked) {
    const type = safeType(node);
    if (type) {
      const verdict = classifyType(type, SERVER_CLASSES);
      if (verdict === 'mcp') return true;
      if (verdict === 'other') return false;
    }
  }
  return isServerSyntactically(node, ctx, depth);
}

function isServerSyntactically(node: Node, ctx: FindContext, depth: number): boolean {
  if (Node.isThisExpression(node)) {
    const cls = node.getFirstAncestor((a) => Node.isClassDeclaration(a) || Node.isClassExpression(a));
    const heritage = cls && (Node.isClassDeclaration(cls) || Node.isClassExpression(cls)) ? cls.getExtends()?.getExpression().getText() : undefined;
    return heritage !== undefined && SERVER_ANNOTATION.test(heritage);
  }
  if (Node.isNewExpression(node)) {
    const cls = node.getExpression().getText();
    return (SERVER_CLASSES as readonly string[]).includes(cls.split('.').pop() ?? cls);
  }
  if (Node.isPropertyAccessExpression(node)) {
    const name = node.getName();
    return name === MCP_SERVER_INNER_PROPERTY || SERVER_LIKE_NAME_PATTERN.test(name);
  }
  if (Node.isIdentifier(node)) {
    const name = node.getText();
    const decl = declarationOf(node);
    if (decl) {
      if (Node.isVariableDeclaration(decl)) {
        const init = decl.getInitializer();
        if (init && isServerReceiver(init, ctx, depth + 1)) return true;
        const annotation = decl.getTypeNode()?.getText();
        if (annotation && SERVER_ANNOTATION.test(annotation)) return true;
      } else if (Node.isBindingElement(decl)) {
        const property = decl.getPropertyNameNode()?.getText() ?? decl.getName();
        if (property === MCP_SERVER_INNER_PROPERTY) return true;
      } else if (Node.isParameterDeclaration(decl)) {
        const annotation = decl.getTypeNode()?.getText();
        if (annotation && SERVER_ANNOTATION.test(annotation)) return true;
      } else if (Node.isClassDeclaration(decl) || Node.isFunctionDeclaration(decl)) {
        return false;
      }
    }
    return SERVER_LIKE_NAME_PATTERN.test(name);
  }
  return false;
}

/** `ctx.mcpReq` (v2 per-request helpers). */
export function isMcpReqReceiver(expr: Node | undefined, ctx: FindContext): boolean {
  const node = unwrapExpression(expr);
  if (!node || !Node.isPropertyAccessExpression(node) || node.getName() !== CTX_MCPREQ_PROPERTY) return false;
  return typeAllows(node, ctx);
}

/** A handler's `extra` (v1) / `ctx` (v2) or anything whose type is not known to be foreign. */
export function isRequestContextReceiver(expr: Node | undefined, ctx: FindContext): boolean {
  const node = unwrapExpression(expr);
  if (!node) return false;
  return typeAllows(node, ctx);
}

/** False only when the type checker positively says the value is not from an MCP package. */
function typeAllows(node: Node, ctx: FindContext): boolean {
  if (!ctx.typeChecked) return true;
  const type = safeType(node);
  if (!type) return true;
  return classifyType(type) !== 'other';
}
