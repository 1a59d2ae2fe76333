/**
 * A request raced against a timer: `await Promise.race([request, rejectAfter(ms)])`, or a project
 * helper doing the same (`await withTimeout(request, 30_000)`). The race is awaited, so the request
 * is part of the handler's flow, not detached. Under MRTR the question goes out with the handler's
 * result and the answer arrives on the client's retry: nothing waits, so a timer that can only
 * reject has nothing left to cut short, and the race is replaced by the request alone. A racer that
 * may resolve with a value of its own (`sleep(ms).then(() => DEFAULT)`) is behaviour the handler
 * relies on when the client is slow; MRTR has no trigger for it, so that shape is flagged.
 */
import { Node, SyntaxKind, type CallExpression } from 'ts-morph';
import type { Site } from '../model.js';
import { declarationOf, resolveCallee, unwrapExpression, valueParent } from '../find/index.js';
import { abbreviate, firstEffect } from './purity.js';
import { Obstacle, enclosingFunction, line, siteLabel } from './points.js';

export interface TimeoutWrapper {
  /** The expression the handler awaits, which the request's answer replaces. */
  expr: CallExpression;
  /** For the report: what happened to the timeout. */
  note: string;
}

/** What the handler awaits for the site's answer: the site itself, or the timeout race around it. */
export function awaitedRequest(site: Site): Node {
  return timeoutWrapperOf(site)?.expr ?? site.node;
}

/** The timeout race the site's request is the subject of, or undefined; throws when the race carries behaviour. */
export function timeoutWrapperOf(site: Site): TimeoutWrapper | undefined {
  if (!Node.isCallExpression(site.node)) return undefined;
  const { parent, child } = valueParent(site.node);
  if (!parent) return undefined;
  if (Node.isArrayLiteralExpression(parent)) {
    const race = raceCallOf(parent);
    if (!race) return undefined;
    for (const other of parent.getElements()) {
      if (other === child) continue;
      const held = unwrapExpression(other);
      if (held && Node.isIdentifier(held)) {
        throw new Obstacle(`${siteLabel(site)} races against \`${held.getText()}\`, a promise created before the race (line ${line(parent)}): without the race nothing would handle its rejection`);
      }
      if (!neverResolves(other, 0)) throw racerObstacle(site, other);
    }
    return { expr: race, note: `; the \`Promise.race\` with a timer around it (line ${line(race)}) is dropped: the answer arrives on the client's retry, so nothing waits for it to time out` };
  }
  if (Node.isCallExpression(parent) && parent.getArguments().includes(child)) {
    const index = parent.getArguments().indexOf(child);
    const fn = resolveCallee(parent.getExpression());
    if (!fn || !racesParameter(fn, index)) return undefined;
    const rest = parent.getArguments().filter((a) => a !== child);
    const effect = firstEffect(rest, enclosingFunction(parent) ?? parent.getSourceFile());
    if (effect) throw new Obstacle(`${siteLabel(site)} is raced against a timer by \`${abbreviate(parent.getExpression().getText(), 30)}\`, whose other argument \`${effect.description}\` has an effect that dropping the race would lose`);
    const name = abbreviate(parent.getExpression().getText(), 30);
    return { expr: parent, note: `; the \`${name}(...)\` timeout around it (line ${line(parent)}) is dropped: the answer arrives on the client's retry, so nothing waits for it to time out` };
  }
  return undefined;
}

function racerObstacle(site: Site, racer: Node): Obstacle {
  return new Obstacle(
    `${siteLabel(site)} races against \`${abbreviate(racer.getText(), 50)}\` (line ${line(racer)}), which may resolve with a value of its own when the client is slow: under MRTR the answer arrives on a retry and nothing waits, so that outcome would have no trigger`,
  );
}

/** `Promise.race([...])` whose first argument is `array`. */
function raceCallOf(array: Node): CallExpression | undefined {
  const { parent, child } = valueParent(array);
  if (!parent || !Node.isCallExpression(parent) || parent.getArguments()[0] !== child) return undefined;
  const callee = unwrapExpression(parent.getExpression());
  return callee && callee.getText() === 'Promise.race' ? parent : undefined;
}

/**
 * A function that only sets up the race: declarations (the timer handle, the rejecting promise)
 * and returns of `Promise.race([param, <never resolves>...])`, optionally awaited or followed by
 * `.finally(...)` (clearing the timer).
 */
function racesParameter(fn: Node, index: number): boolean {
  const params = (fn as Node & { getParameters?: () => Node[] }).getParameters?.() ?? [];
  const param = params[index];
  if (!param || !Node.isParameterDeclaration(param) || !Node.isIdentifier(param.getNameNode())) return false;
  const body = (fn as Node & { getBody?: () => Node | undefined }).getBody?.();
  if (!body) return false;
  const returned: Node[] = [];
  if (Node.isBlock(body)) {
    for (const statement of body.getStatements()) {
      if (Node.isReturnStatement(statement)) {
        const value = statement.getExpression();
        if (!value) return false;
        returned.push(value);
      } else if (!Node.isVariableStatement(statement)) return false;
    }
  } else returned.push(body);
  if (returned.length === 0) return false;
  return returned.every((value) => {
    let expr = unwrapExpression(value);
    if (expr && Node.isAwaitExpression(expr)) expr = unwrapExpression(expr.getExpression());
    // `.finally(() => clearTimeout(timer))` settles with the race's own outcome.
    while (expr && Node.isCallExpression(expr)) {
      const callee = unwrapExpression(expr.getExpression());
      if (!callee || !Node.isPropertyAccessExpression(callee) || callee.getName() !== 'finally') break;
      expr = unwrapExpression(callee.getExpression());
    }
    if (!expr || !Node.isCallExpression(expr) || unwrapExpression(expr.getExpression())?.getText() !== 'Promise.race') return false;
    const array = unwrapExpression(expr.getArguments()[0]);
    if (!array || !Node.isArrayLiteralExpression(array)) return false;
    const elements = array.getElements();
    const own = elements.filter((e) => {
      const u = unwrapExpression(e);
      return u !== undefined && Node.isIdentifier(u) && declarationOf(u) === param;
    });
    return own.length === 1 && elements.every((e) => own.includes(e) || neverResolves(e, 0));
  });
}

/**
 * A promise that can only reject (or stay pending): `new Promise((_, reject) => ...)` whose executor
 * never touches its resolve parameter, a `Promise<never>`, a local holding one, or a project function
 * returning one.
 */
function neverResolves(node: Node, depth: number): boolean {
  if (depth > 3) return false;
  const expr = unwrapExpression(node);
  if (!expr) return false;
  if (Node.isIdentifier(expr)) {
    const decl = declarationOf(expr);
    if (!decl || !Node.isVariableDeclaration(decl)) return false;
    const init = decl.getInitializer();
    return init !== undefined && neverResolves(init, depth + 1);
  }
  if (Node.isNewExpression(expr)) {
    if (unwrapExpression(expr.getExpression())?.getText() !== 'Promise') return false;
    const executor = unwrapExpression(expr.getArguments()[0]);
    if (!executor || !(Node.isArrowFunction(executor) || Node.isFunctionExpression(executor))) return false;
    const resolve = executor.getParameters()[0];
    if (!resolve) return true;
    const nameNode = resolve.getNameNode();
    if (!Node.isIdentifier(nameNode)) return false;
    return !executor.getDescendantsOfKind(SyntaxKind.Identifier).some((id) => id !== nameNode && id.getText() === nameNode.getText() && declarationOf(id) === resolve);
  }
  if (Node.isCallExpression(expr)) {
    const fn = resolveCallee(expr.getExpression());
    const body = fn?.getBody?.();
    if (!fn || !body) return false;
    if (!Node.isBlock(body)) return neverResolves(body, depth + 1);
    const returns = body.getDescendantsOfKind(SyntaxKind.ReturnStatement).filter((r) => enclosingFunction(r) === fn);
    return returns.length > 0 && returns.every((r) => r.getExpression() !== undefined && neverResolves(r.getExpression()!, depth + 1));
  }
  return false;
}
