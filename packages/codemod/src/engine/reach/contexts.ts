/**
 * Where a function runs when it is not an MRTR handler: lifecycle hooks, notification handlers,
 * non-MRTR request handlers, timers, event emitters, HTTP routes. Names come from
 * `@mcp-mrtr/surface`.
 */
import { Node, SyntaxKind, type CallExpression } from 'ts-morph';
import {
  COMPLETABLE_FUNCTION,
  EVENT_EMITTER_METHODS,
  HTTP_ROUTE_METHODS,
  NON_HANDLER_HOOK_PROPERTIES,
  NON_MRTR_TEMPLATE_CALLBACKS,
  RESOURCE_TEMPLATE_CLASS,
  TIMER_FUNCTIONS,
  type NonHandlerContext,
} from '@mcp-mrtr/surface';
import { nameText, unwrapExpression, valueParent } from '../find/resolve.js';

export interface EntryContext {
  context: NonHandlerContext;
  /** The node that registers/hosts the function (hook assignment, timer call, route call). */
  node: Node;
  description: string;
  /**
   * `test-code` only: the test's own call of the function that makes the request
   * (`await askColour(fakeServer, ...)` in the test file), when the test calls it directly.
   */
  testCall?: CallExpression;
}

/** The non-handler context a function is registered in, judged from where the function value goes. */
export function entryContextOf(fn: Node): EntryContext | undefined {
  if (Node.isMethodDeclaration(fn)) {
    const name = fn.getName();
    if ((NON_HANDLER_HOOK_PROPERTIES as readonly string[]).includes(name)) {
      return { context: 'lifecycle-hook', node: fn, description: `${name} method` };
    }
  }
  const { parent, child } = valueParent(fn);
  if (!parent) return undefined;

  if (Node.isBinaryExpression(parent) && parent.getOperatorToken().getKind() === SyntaxKind.EqualsToken && parent.getRight() === child) {
    const left = unwrapExpression(parent.getLeft());
    const name = left && Node.isPropertyAccessExpression(left) ? left.getName() : undefined;
    if (name && (NON_HANDLER_HOOK_PROPERTIES as readonly string[]).includes(name)) {
      return { context: 'lifecycle-hook', node: parent, description: `${left!.getText()} hook` };
    }
    return undefined;
  }

  if (Node.isPropertyAssignment(parent)) {
    const name = nameText(parent.getNameNode());
    if (name && (NON_HANDLER_HOOK_PROPERTIES as readonly string[]).includes(name)) {
      return { context: 'lifecycle-hook', node: parent, description: `${name} hook` };
    }
    if (name && (NON_MRTR_TEMPLATE_CALLBACKS as readonly string[]).includes(name)) {
      const owner = parent.getFirstAncestorByKind(SyntaxKind.NewExpression);
      if (owner && owner.getExpression().getText().endsWith(RESOURCE_TEMPLATE_CLASS)) {
        return { context: 'non-mrtr-request-handler', node: parent, description: `ResourceTemplate ${name} callback` };
      }
    }
    return undefined;
  }

  if (Node.isCallExpression(parent) && parent.getArguments().includes(child)) {
    const callee = unwrapExpression(parent.getExpression());
    if (!callee) return undefined;
    const calleeName = Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
    if ((TIMER_FUNCTIONS as readonly string[]).includes(calleeName) || callee.getText() === 'process.nextTick') {
      return { context: 'timer', node: parent, description: `${calleeName} callback` };
    }
    if (calleeName === COMPLETABLE_FUNCTION) {
      return { context: 'non-mrtr-request-handler', node: parent, description: 'completable callback' };
    }
    if (Node.isPropertyAccessExpression(callee)) {
      const first = unwrapExpression(parent.getArguments()[0]);
      const firstText = first ? nameText(first) : undefined;
      if ((HTTP_ROUTE_METHODS as readonly string[]).includes(calleeName) && firstText !== undefined && /^[/*]/.test(firstText)) {
        return { context: 'http-route', node: parent, description: `HTTP route ${calleeName.toUpperCase()} ${firstText}` };
      }
      if ((EVENT_EMITTER_METHODS as readonly string[]).includes(calleeName)) {
        const event = firstText !== undefined ? ` '${firstText}'` : '';
        return { context: 'event-emitter', node: parent, description: `${callee.getExpression().getText()}.${calleeName}${event} listener` };
      }
    }
  }
  return undefined;
}

/**
 * A call whose promise nobody waits for: a statement of its own (also through `.then/.catch/.finally`
 * chains and `void`). Only meaningful for calls that start async work.
 */
export function isDetachedCall(call: Node): boolean {
  let { parent, child, awaited } = valueParent(call);
  if (awaited) return false;
  while (parent && Node.isPropertyAccessExpression(parent) && ['then', 'catch', 'finally'].includes(parent.getName())) {
    const chained = parent.getParent();
    if (!chained || !Node.isCallExpression(chained)) return false;
    ({ parent, child, awaited } = valueParent(chained));
    if (awaited) return false;
  }
  void child;
  if (!parent) return false;
  return Node.isExpressionStatement(parent) || Node.isVoidExpression(parent);
}
