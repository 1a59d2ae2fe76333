/**
 * A name for where a site sits that survives edits elsewhere in the file: the chain of enclosing
 * named functions, methods and registration callbacks (`createServer > registerTool(delete_file)`).
 * Used for the baseline's site identity, which must not depend on line numbers.
 */
import { Node } from 'ts-morph';

export function scopeName(node: Node): string {
  const parts: string[] = [];
  for (let current = node.getParent(); current; current = current.getParent()) {
    const name = functionName(current);
    if (name) parts.unshift(name);
  }
  return parts.join(' > ');
}

function functionName(node: Node): string | undefined {
  if (Node.isFunctionDeclaration(node)) return node.getName() ?? 'default';
  if (Node.isMethodDeclaration(node) || Node.isGetAccessorDeclaration(node) || Node.isSetAccessorDeclaration(node)) {
    const owner = node.getParent();
    const cls = Node.isClassDeclaration(owner) || Node.isClassExpression(owner) ? owner.getName() : undefined;
    return `${cls ? `${cls}.` : ''}${node.getName()}`;
  }
  if (Node.isConstructorDeclaration(node)) return `${node.getParent().getName() ?? 'class'}.constructor`;
  if (!Node.isArrowFunction(node) && !Node.isFunctionExpression(node)) return undefined;
  const parent = node.getParent();
  if (Node.isVariableDeclaration(parent) || Node.isPropertyAssignment(parent) || Node.isPropertyDeclaration(parent)) return parent.getName();
  if (Node.isBinaryExpression(parent)) return parent.getLeft().getText().replace(/\s+/g, '');
  if (Node.isCallExpression(parent)) {
    // a callback: named after the call and its first literal argument, `registerTool(delete_file)`
    const callee = parent.getExpression();
    const calleeName = Node.isPropertyAccessExpression(callee) ? callee.getName() : Node.isIdentifier(callee) ? callee.getText() : 'callback';
    const first = parent.getArguments()[0];
    const label = first && (Node.isStringLiteral(first) || Node.isNoSubstitutionTemplateLiteral(first)) ? first.getLiteralText() : undefined;
    return label !== undefined ? `${calleeName}(${label})` : calleeName;
  }
  return undefined;
}
