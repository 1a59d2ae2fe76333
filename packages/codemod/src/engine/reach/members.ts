/**
 * Functions stored in a member of a typed object: `defineTool({ name, handler: async (a) => ... })`,
 * `registerTools(server, { resolveScope: () => ask(server) })`, `export const tools: ToolDefinitions =
 * { x: { handler } }`. The type checker gives the member declaration the object literal is checked
 * against (its contextual type: a parameter's interface, an annotated variable, an index signature's
 * value type); code that later calls `options.handler(...)` or hands `def.handler` to a registration
 * goes through that same declaration. This is how a function travels through a project's own
 * factories and registries without a literal path from the table to the call.
 */
import { Node, type CallExpression, type ObjectLiteralExpression } from 'ts-morph';
import type { FunctionLike } from '../find/resolve.js';
import { declarationOf, functionOfDeclaration, isFunctionNode, isInNodeModules, nameText, referencesOf, resolveCallee, shorthandValueDeclaration, unwrapExpression, valueParent } from '../find/resolve.js';

/** The project-declared member (property or method signature) a function is stored in, or undefined. */
export function storedMemberDeclaration(fn: Node): { declaration: Node; name: string } | undefined {
  let object: Node | undefined;
  let name: string | undefined;
  if (Node.isMethodDeclaration(fn) && Node.isObjectLiteralExpression(fn.getParent())) {
    object = fn.getParent();
    name = nameText(fn.getNameNode());
  } else {
    const { parent, child } = valueParent(fn);
    if (parent && Node.isPropertyAssignment(parent) && parent.getInitializer() === child) {
      object = parent.getParent();
      name = nameText(parent.getNameNode());
    }
  }
  if (!object || !name || !Node.isObjectLiteralExpression(object)) return undefined;
  const declaration = memberCheckedAgainst(object, name);
  return declaration ? { declaration, name } : undefined;
}

/**
 * The project-declared member a property that names a function stores it in: `{ handleCall }` or
 * `{ run: handleCall }` in `export const alerts: DomainHandler = { ... }`, where `handleCall` is a
 * function declared elsewhere. Undefined when the property names something else.
 */
export function memberStoringByName(property: Node, fn: Node): Node | undefined {
  let value: Node | undefined;
  if (Node.isShorthandPropertyAssignment(property)) {
    const decl = shorthandValueDeclaration(property);
    value = decl && functionOfDeclaration(decl);
  } else if (Node.isPropertyAssignment(property)) {
    const init = storedFunctionExpression(property.getInitializer());
    value = init ? resolveCallee(init) : undefined;
  }
  const object = property.getParent();
  const name = (Node.isShorthandPropertyAssignment(property) || Node.isPropertyAssignment(property)) ? nameText(property.getNameNode()) : undefined;
  if (value !== fn || !name || !object || !Node.isObjectLiteralExpression(object)) return undefined;
  return memberCheckedAgainst(object, name);
}

/**
 * The expression naming the function a property stores: `handleCall`, `this.elicitApiKey`, or the
 * function a `.bind(...)` makes from one (`this.elicitApiKey.bind(this)`, an object of bound methods
 * handed to helpers). Undefined for any other value.
 */
export function storedFunctionExpression(initializer: Node | undefined): Node | undefined {
  let value = unwrapExpression(initializer);
  if (value && Node.isCallExpression(value)) {
    const callee = unwrapExpression(value.getExpression());
    value = callee && Node.isPropertyAccessExpression(callee) && callee.getName() === 'bind' ? unwrapExpression(callee.getExpression()) : undefined;
  }
  return value && (Node.isIdentifier(value) || Node.isPropertyAccessExpression(value)) ? value : undefined;
}

/** The member declaration, in project code, that `object`'s property `name` is checked against (its contextual type's property). */
function memberCheckedAgainst(object: ObjectLiteralExpression, name: string): Node | undefined {
  let declarations: Node[] = [];
  try {
    declarations = object.getContextualType()?.getProperty(name)?.getDeclarations() ?? [];
  } catch {
    return undefined;
  }
  return declarations.find((d) => !isInNodeModules(d) && isMemberSignature(d));
}

function isMemberSignature(node: Node): boolean {
  return Node.isPropertySignature(node) || Node.isMethodSignature(node) || Node.isPropertyDeclaration(node);
}

/** The member declaration a `x.member` (or `x['member']`) expression reads, when it is project code. */
export function memberDeclarationOf(expression: Node): Node | undefined {
  const node = unwrapExpression(expression);
  if (!node || !Node.isPropertyAccessExpression(node)) return undefined;
  const decl = declarationOf(node.getNameNode());
  return decl && !isInNodeModules(decl) && isMemberSignature(decl) ? decl : undefined;
}

/** The calls through the member `declaration` (`options.handler(parsed)`) in project code, found by the type checker's references. */
export function callsThroughMember(declaration: Node): CallExpression[] {
  const out: CallExpression[] = [];
  for (const ref of memberReferences(declaration)) {
    const access = ref.getParent();
    if (!access || !Node.isPropertyAccessExpression(access) || access.getNameNode() !== ref || isInNodeModules(access)) continue;
    let callee: Node = access;
    let parent = callee.getParent();
    while (parent && (Node.isParenthesizedExpression(parent) || Node.isNonNullExpression(parent) || Node.isAsExpression(parent))) {
      callee = parent;
      parent = parent.getParent();
    }
    if (parent && Node.isCallExpression(parent) && parent.getExpression() === callee) out.push(parent);
  }
  return out;
}

/** The references of a member declaration's name; none when they cannot be listed. */
function memberReferences(declaration: Node): Node[] {
  const nameNode = (declaration as Node & { getNameNode?: () => Node }).getNameNode?.();
  return (nameNode && Node.isReferenceFindable(nameNode) ? referencesOf(nameNode) : undefined) ?? [];
}

/**
 * The functions object literals store in a member declaration (`handler: async (...) => ...`,
 * `handler() { ... }`): the references the type checker finds to the declaration, written as a
 * property of an object literal whose value is a function.
 */
export function functionsStoredIn(declaration: Node): FunctionLike[] {
  const out: FunctionLike[] = [];
  for (const ref of memberReferences(declaration)) {
    const property = ref.getParent();
    if (!property || isInNodeModules(property)) continue;
    let fn: Node | undefined;
    if (Node.isPropertyAssignment(property) && property.getNameNode() === ref) fn = unwrapExpression(property.getInitializer());
    else if (Node.isMethodDeclaration(property) && property.getNameNode() === ref && Node.isObjectLiteralExpression(property.getParent())) fn = property;
    if (fn && isFunctionNode(fn) && !out.includes(fn as FunctionLike)) out.push(fn as FunctionLike);
  }
  return out;
}
