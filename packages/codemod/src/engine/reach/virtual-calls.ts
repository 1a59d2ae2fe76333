/**
 * Calls that reach a class method through another declaration of it: the type checker resolves
 * a call to the member of the receiver's declared type, never to the method a given instance runs.
 *
 * - An interface the class satisfies: a tool base class holds its services by interface
 *   (`confirmer: IConfirmer`) and calls `this.confirmer.confirm(...)`, which resolves to the
 *   interface's signature even when the class implements it structurally, without `implements`.
 * - A base-class method the class overrides: a tool base's `invoke` calls `this.execute(...)`,
 *   which resolves to the base's (often abstract) `execute`, while each subclass's override runs.
 *
 * Such a call reaches the method for the instances of its class (the class is assignable to the
 * receiver's declared type) and runs another implementation for other instances, which the report
 * says and the rewrite does not take on.
 */
import { Node, type CallExpression, type ClassDeclaration, type ClassExpression } from 'ts-morph';
import { declarationOf, unwrapExpression } from '../find/resolve.js';

/** How a call reaches a method through another declaration of it. */
export interface VirtualCall {
  /** The member the call resolves to: `IConfirmer.confirm`, `ToolBase.execute`. */
  member: string;
  /** `interface member` or `base-class method`. */
  kind: 'interface member' | 'base-class method';
  /** The declaration the call resolves to. */
  declaration: Node;
}

/** The other declaration `call` resolves to when it runs `method` (a class method) for some receivers. */
export function virtualCallReaching(call: CallExpression, method: Node): VirtualCall | undefined {
  if (!Node.isMethodDeclaration(method)) return undefined;
  const cls = method.getParent();
  if (!Node.isClassDeclaration(cls) && !Node.isClassExpression(cls)) return undefined;
  const callee = unwrapExpression(call.getExpression());
  if (!callee || !Node.isPropertyAccessExpression(callee) || callee.getName() !== method.getName()) return undefined;
  const declaration = declarationOf(callee.getNameNode());
  if (!declaration || declaration === method) return undefined;
  const owner = declaration.getParent();
  if ((Node.isMethodSignature(declaration) || Node.isPropertySignature(declaration)) && (Node.isInterfaceDeclaration(owner) || Node.isTypeLiteral(owner))) {
    if (!assignable(cls, owner)) return undefined;
    const name = Node.isInterfaceDeclaration(owner) ? owner.getName() : typeAliasName(owner);
    return { member: `${name}.${method.getName()}`, kind: 'interface member', declaration };
  }
  if ((Node.isMethodDeclaration(declaration) || Node.isPropertyDeclaration(declaration)) && (Node.isClassDeclaration(owner) || Node.isClassExpression(owner))) {
    if (!derivesFrom(cls, owner) || !receiverMayBe(callee.getExpression(), cls)) return undefined;
    return { member: `${owner.getName() ?? 'a base class'}.${method.getName()}`, kind: 'base-class method', declaration };
  }
  return undefined;
}

function assignable(cls: Node, owner: Node): boolean {
  try {
    return cls.getType().isAssignableTo(owner.getType());
  } catch {
    return false;
  }
}

/** Whether the receiver's declared type admits instances of `cls` (`this` of the base, a base-typed variable). */
function receiverMayBe(receiver: Node, cls: ClassDeclaration | ClassExpression): boolean {
  const unwrapped = unwrapExpression(receiver);
  if (unwrapped && Node.isThisExpression(unwrapped)) {
    // `this` in the code of `cls` or of a class it extends (not of a sibling subclass)
    const enclosing = unwrapped.getFirstAncestor((a) => Node.isClassDeclaration(a) || Node.isClassExpression(a));
    return enclosing !== undefined && (enclosing === cls || derivesFrom(cls, enclosing as ClassDeclaration | ClassExpression));
  }
  try {
    return cls.getType().isAssignableTo(receiver.getType());
  } catch {
    return false;
  }
}

/** Whether `cls` extends `base`, directly or through other classes. */
function derivesFrom(cls: ClassDeclaration | ClassExpression, base: ClassDeclaration | ClassExpression): boolean {
  let current: ClassDeclaration | undefined;
  try {
    current = cls.getBaseClass();
    for (let depth = 0; current && depth < 20; depth++) {
      if (current === base) return true;
      current = current.getBaseClass();
    }
  } catch {
    return false;
  }
  return false;
}

function typeAliasName(owner: Node): string {
  const alias = owner.getParent();
  return alias && Node.isTypeAliasDeclaration(alias) ? alias.getName() : 'an object type';
}
