/**
 * Reads of a property that only some members of a closed v2 SDK union declare
 * (`result.content.text`, where a sampling result's `content` is a text, image or audio block).
 * Older v1 SDKs gave each member an open index signature, so the read typed as `unknown` and
 * compiled; v2's members are closed, and the read fails with TS2339.
 *
 * The repair: `E.text` becomes `('text' in E ? E.text : undefined)`, only when `E` is a reference
 * without side effects (an identifier or `this`, and property accesses on it: no call, no element
 * access, no optional chain), so that reading it twice reads the same value. `in` narrows the union
 * to the members that declare the property, so the read types as that property's type or
 * `undefined` (`string | undefined`), which every use that accepted v1's `unknown` still accepts.
 * At run time the expression yields what `E.text` yielded: the property's value on a member that
 * has it, and `undefined` on the others (an object without the property; an array). The type says
 * `E` is an object: on a value that is not one (a string where the types were wrong), `in` throws
 * where the read gave `undefined`. Each read's repair is kept only where its file then has fewer
 * errors and no new one; verify applies it to the upgrade's own errors (`repairUnionReads` in
 * run/verify.ts), after every file is upgraded and rewritten: the error is often another file's
 * doing (a helper's result now typed by v2), so it cannot be seen when the reading file is upgraded.
 */
import { Node, SyntaxKind, type PropertyAccessExpression, type SourceFile, type Type } from 'ts-morph';
import { newErrors } from './new-errors.js';
import { moduleQuote } from './source-text.js';
import { V2_PACKAGE_PATH } from './v1-declared-types.js';

/** A read `E.name` the compiler rejects because only some members of E's closed v2 union declare `name`. */
export interface ClosedUnionRead {
  access: PropertyAccessExpression;
  name: string;
  /** The `type` literal of each member that declares the property, where the member has one. */
  kinds: string[];
  /** How many members declare it. */
  having: number;
}

/** The read whose property name is `node`, when it is of this family (on a v2 SDK union). */
export function closedUnionRead(node: Node): ClosedUnionRead | undefined {
  const access = node.getParent();
  if (!access || !Node.isPropertyAccessExpression(access) || access.getNameNode() !== node) return undefined;
  const members = access.getExpression().getType().getNonNullableType().getUnionTypes();
  const name = access.getName();
  const having = members.filter((m) => m.getProperty(name));
  if (members.length < 2 || having.length === 0 || having.length === members.length) return undefined;
  const fromV2 = members.every((m) => m.getProperties().length > 0 && m.getProperties().every((p) => p.getDeclarations().every((d) => V2_PACKAGE_PATH.test(d.getSourceFile().getFilePath()))));
  if (!fromV2) return undefined;
  const label = (m: Type) => m.getProperty('type')?.getTypeAtLocation(access).getLiteralValue();
  const kinds = having.map(label).filter((k): k is string => typeof k === 'string');
  return { access, name, kinds, having: having.length };
}

/** `TS2339: Property 'x' does not exist on type ...`, the only error of this family. */
const MISSING_PROPERTY = 'TS2339:';

interface KeyedError {
  key: string;
  start: number;
}

/** A repaired read: its line in the text it was repaired in, and what was done. */
export interface UnionReadNote {
  line: number;
  text: string;
}

/**
 * Repairs each read of this family that one of `errors` (the file's errors that its baseline does
 * not have, in its current text) starts at, one read at a time from the last: the file is
 * typechecked again (`errorsAfter`: its errors against the same baseline) and a read's repair is
 * kept only when it removes errors and adds none, else its text is put back. Undefined when no read
 * was repaired; otherwise the errors left and a note per repaired read. The repair adds no line:
 * the lines of the text before it are the lines after it.
 */
export function repairClosedUnionReads<E extends KeyedError>(sourceFile: SourceFile, errors: readonly E[], errorsAfter: () => E[]): { errors: E[]; notes: UnionReadNote[] } | undefined {
  const candidates = errors.filter((e) => e.key.startsWith(MISSING_PROPERTY)).sort((a, b) => b.start - a.start);
  let left = [...errors];
  const notes: UnionReadNote[] = [];
  for (const error of candidates) {
    const text = sourceFile.getFullText();
    const note = narrowClosedUnionRead(sourceFile, error.start);
    if (!note) continue;
    const after = errorsAfter();
    const added = newErrors(left.map((e) => e.key), after.map((e) => e.key)).length;
    if (after.length < left.length && added === 0) {
      left = after;
      notes.push(note);
    } else {
      sourceFile.replaceWithText(text);
    }
  }
  return notes.length > 0 ? { errors: left, notes: notes.reverse() } : undefined;
}

/**
 * Rewrites the read of this family whose property name starts at `start`, when the repair applies.
 * The read keeps its text (comments and line breaks included); the object in the `in` test is
 * spelled on one line (`a.b.c`), so the file gains no line.
 */
function narrowClosedUnionRead(sourceFile: SourceFile, start: number): UnionReadNote | undefined {
  const node = sourceFile.getDescendantAtPos(start);
  const read = node ? closedUnionRead(node) : undefined;
  if (!read || !repairable(read.access)) return undefined;
  const { access, name, kinds } = read;
  const quote = moduleQuote(sourceFile.getFullText());
  const object = spelled(access.getExpression());
  const members = kinds.length > 0 ? kinds.map((k) => `'${k}'`).join(', ') : 'some';
  const line = access.getStartLineNumber();
  const text = `'${abbreviated(access.getText())}' reads '${name}', which only the ${members} member${kinds.length === 1 ? '' : 's'} of this v2 union declare${kinds.length === 1 ? 's' : ''} (older v1 SDKs typed the read as unknown): read as (${quote}${name}${quote} in ${abbreviated(object)} ? ... : undefined), the same value at run time`;
  access.replaceWithText(`(${quote}${name}${quote} in ${object} ? ${access.getText()} : undefined)`);
  return { line, text };
}

/** An effect-free reference (`sideEffectFree`) on one line, without the comments its text may hold. */
function spelled(node: Node): string {
  if (Node.isPropertyAccessExpression(node)) return `${spelled(node.getExpression())}.${node.getName()}`;
  return node.getText();
}

/**
 * The read can be rewritten: its object is read twice, so it must have no effects (an identifier or
 * `this` with property accesses on it); no optional chain (`E?.x`, `a?.b.x`), whose short-circuit
 * the conditional would cut; the value is only read: not assigned, incremented or deleted, and not
 * called (`E.x()` passes `E` as `this`, the conditional's value would not).
 */
function repairable(access: PropertyAccessExpression): boolean {
  if (access.hasQuestionDotToken() || !Node.isIdentifier(access.getNameNode()) || !sideEffectFree(access.getExpression())) return false;
  let outer: Node = access;
  while (Node.isParenthesizedExpression(outer.getParent())) outer = outer.getParent()!;
  const parent = outer.getParent();
  if (!parent) return false;
  if ((Node.isCallExpression(parent) || Node.isNewExpression(parent)) && parent.getExpression() === outer) return false;
  if (Node.isTaggedTemplateExpression(parent) && parent.getTag() === outer) return false;
  if ((Node.isPrefixUnaryExpression(parent) || Node.isPostfixUnaryExpression(parent)) && (parent.getOperatorToken() === SyntaxKind.PlusPlusToken || parent.getOperatorToken() === SyntaxKind.MinusMinusToken)) return false;
  if (Node.isDeleteExpression(parent)) return false;
  return !assignedTo(outer);
}

function sideEffectFree(node: Node): boolean {
  if (Node.isIdentifier(node) || node.getKind() === SyntaxKind.ThisKeyword) return true;
  return Node.isPropertyAccessExpression(node) && !node.hasQuestionDotToken() && sideEffectFree(node.getExpression());
}

/**
 * Whether the read is written to: the left side of an assignment (`E.x = v`, `E.x += v`), or part of
 * a destructuring target (`[E.x] = v`, `({ k: E.x } = v)`) or of a for-of/in's (`for (E.x of xs)`).
 */
function assignedTo(read: Node): boolean {
  let current = read;
  for (let parent = current.getParent(); parent; current = parent, parent = parent.getParent()) {
    if (Node.isBinaryExpression(parent)) return parent.getLeft() === current && ASSIGNMENT.test(parent.getOperatorToken().getText());
    if (Node.isForOfStatement(parent) || Node.isForInStatement(parent)) return parent.getInitializer() === current;
    const targetPart =
      Node.isArrayLiteralExpression(parent) || Node.isObjectLiteralExpression(parent) || Node.isPropertyAssignment(parent) || Node.isShorthandPropertyAssignment(parent) || Node.isSpreadElement(parent) || Node.isSpreadAssignment(parent) || Node.isParenthesizedExpression(parent);
    if (!targetPart) return false;
  }
  return false;
}

const ASSIGNMENT = /^(?:[-+*/%&|^]|\*\*|<<|>>>?|&&|\|\||\?\?)?=$/;

function abbreviated(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}
