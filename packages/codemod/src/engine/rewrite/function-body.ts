/**
 * The function a rewrite edits (a handler or a helper making the request): its block body and
 * parameters, and the name its callers use. Its own module because planning (analyse.ts), the
 * helper form (helper.ts) and inlining (inline.ts) all start from it.
 */
import { Node, type Block, type ParameterDeclaration } from 'ts-morph';
import { Obstacle } from './points.js';

export type FunctionWithBody = Node & { getBody(): Node | undefined; getParameters(): ParameterDeclaration[] };

export function functionWithBody(fn: Node, what: string): { fn: FunctionWithBody; body: Block } {
  const f = fn as FunctionWithBody;
  if (typeof f.getBody !== 'function' || typeof f.getParameters !== 'function') throw new Obstacle(`${what} is not a function the rewrite can edit`);
  const body = f.getBody();
  if (!body || !Node.isBlock(body)) throw new Obstacle(`${what} is an expression-bodied arrow function; it has no statements to restructure`);
  return { fn: f, body };
}

export function helperName(fn: Node): string {
  if (Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn)) return fn.getName() ?? 'helper';
  const parent = fn.getParent();
  if (parent && (Node.isVariableDeclaration(parent) || Node.isPropertyAssignment(parent) || Node.isPropertyDeclaration(parent))) return parent.getName();
  return 'helper';
}
