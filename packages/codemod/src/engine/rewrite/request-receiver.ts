/**
 * The object a helper sends its request on, as a test calling the helper can reach it: an object
 * one of the helper's parameters holds (`server.server.elicitInput(...)` in
 * `askColour(server, ...)`), or one a field of the instance a method runs on holds
 * (`this.server.elicitInput(...)` in a method of a class whose constructor or setter stored the
 * server). The test's call passes the first as an argument and calls the second on an instance it
 * holds, so the driver (test-calls.ts) reads the same object the helper would have sent on.
 */
import { Node, SyntaxKind, type ClassDeclaration, type ParameterDeclaration, type PropertyAccessExpression } from 'ts-morph';
import { helperName } from './function-body.js';

export type RequestReceiver =
  /** `args[index]` and the property path after it (`.server` of `server.server.elicitInput`). */
  | { kind: 'parameter'; index: number; path: string[] }
  /** `this[field]` of the method's instance and the property path after it. */
  | { kind: 'field'; field: string; path: string[] };

/** `server.server` of `server.server.elicitInput`: its root expression and the property names after it. */
export function receiverOf(callee: PropertyAccessExpression): { root: Node; path: string[] } {
  const path: string[] = [];
  let receiver: Node = callee.getExpression();
  while (Node.isPropertyAccessExpression(receiver) && !receiver.getQuestionDotTokenNode()) {
    path.unshift(receiver.getName());
    receiver = receiver.getExpression();
  }
  return { root: receiver, path };
}

/** Where `fn` sends the request its call `callee` makes, or why a test's call cannot reach that object. */
export function requestReceiver(fn: Node, callee: PropertyAccessExpression): RequestReceiver | string {
  const name = helperName(fn);
  const { root, path } = receiverOf(callee);
  if (Node.isThisExpression(root)) return fieldReceiver(fn, name, path);
  const params = parametersOf(fn);
  const index = Node.isIdentifier(root) ? params.findIndex((p) => Node.isIdentifier(p.getNameNode()) && p.getName() === root.getText()) : -1;
  if (index < 0) return `\`${name}\` sends the request on \`${callee.getExpression().getText()}\`, not on an object one of its parameters or its instance's fields holds`;
  if (assigns(fn, root.getText())) return `\`${name}\` assigns its parameter \`${root.getText()}\``;
  return { kind: 'parameter', index, path };
}

export function parametersOf(fn: Node): ParameterDeclaration[] {
  return (fn as Node & { getParameters?: () => ParameterDeclaration[] }).getParameters?.() ?? [];
}

/** `this.server.elicitInput(...)`: a field the instance holds, read afresh on every call of the method. */
function fieldReceiver(fn: Node, name: string, path: string[]): RequestReceiver | string {
  const sent = `this${path.map((p) => `.${p}`).join('')}`;
  const cls = instanceClassOf(fn);
  if (!cls) return `\`${name}\` sends the request on \`${sent}\`, and is not a method of a class instance`;
  const [field, ...rest] = path;
  if (field === undefined) return `\`${name}\` sends the request on \`this\` itself, not on an object a field of it holds`;
  if (!declaresField(cls, field)) return `\`${name}\` sends the request on \`${sent}\`, and \`${field}\` is not a field \`${cls.getName() ?? 'its class'}\` declares (an accessor, an inherited or a private # member)`;
  if (assigns(fn, `this.${field}`)) return `\`${name}\` assigns \`this.${field}\`, the field it sends the request on`;
  return { kind: 'field', field, path: rest };
}

/** The class whose instances `fn` runs on: a non-static method, or an arrow function in a non-static property. */
function instanceClassOf(fn: Node): ClassDeclaration | undefined {
  const member = Node.isArrowFunction(fn) ? fn.getParent() : fn;
  if (!member || !(Node.isMethodDeclaration(member) || (Node.isPropertyDeclaration(member) && Node.isArrowFunction(fn))) || member.isStatic()) return undefined;
  const cls = member.getParent();
  return Node.isClassDeclaration(cls) ? cls : undefined;
}

/**
 * A plain field of the class itself, not an accessor: declared (or a constructor's parameter
 * property), or, as JavaScript classes keep them, undeclared and assigned as `this.x = ...` by one
 * of the class's own instance members.
 */
function declaresField(cls: ClassDeclaration, field: string): boolean {
  if (cls.getGetAccessor(field) || cls.getSetAccessor(field)) return false;
  const property = cls.getProperty(field);
  if (property) return !property.isStatic() && Node.isIdentifier(property.getNameNode());
  if (cls.getConstructors().some((c) => c.getParameters().some((p) => p.isParameterProperty() && p.getName() === field))) return true;
  const members = [...cls.getConstructors(), ...cls.getInstanceMethods()];
  return members.some((m) => assigns(m, `this.${field}`));
}

/** Whether `fn` assigns `name` (`x = ...`, `x ??= ...`, `this.x = ...`). */
export function assigns(fn: Node, name: string): boolean {
  return fn.getDescendantsOfKind(SyntaxKind.BinaryExpression).some((e) => e.getOperatorToken().getText().endsWith('=') && !/^[!=<>]==?$/.test(e.getOperatorToken().getText()) && e.getLeft().getText() === name);
}
