/**
 * What the answering helper (`answer-rounds.ts`) cannot make pass in a test whose fake context it
 * plays the client with, said at the line that causes it:
 *
 * - a fake sampling answer without `role`, or with its content as a list of blocks: a sampling
 *   result requires the role and takes one block unless the request offered tools, and the migrated
 *   handler reads answers as `createMessage` / `sendRequest(..., CreateMessageResultSchema)` validated
 *   a client's result (those rejected it too; only the fake bypassed them), so it asks again and the
 *   helper ends at its input_required result (also for the driver of test-called helpers,
 *   `drivenAnswerNotes`);
 * - an assertion on more than the request the fake's send got (the result schema or options the
 *   legacy call passed as its second argument): the helper answers an inputRequest with
 *   `send(request)` alone, since the migrated handler no longer makes that call.
 */
import { Node, SyntaxKind, type Expression, type ObjectLiteralExpression } from 'ts-morph';
import { ANSWER_HELPER } from './answer-rounds.js';
import { unwrapExpression } from '../find/resolve.js';
import { HELPER_DRIVER } from '../rewrite/test-calls.js';

/** The legacy sampling method the fakes answer with. */
const SAMPLING_METHOD = 'createMessage';

const ANSWER_METHODS = new Set(['mockResolvedValue', 'mockResolvedValueOnce', 'mockReturnValue', 'mockReturnValueOnce', 'mockImplementation', 'mockImplementationOnce']);
const FAKE_FACTORIES = new Set(['fn']);
/** Matchers and the argument count from which they assert more than the request. */
const CALL_MATCHERS: Record<string, number> = { toHaveBeenCalledWith: 2, toBeCalledWith: 2, toHaveBeenLastCalledWith: 2, lastCalledWith: 2, toHaveBeenNthCalledWith: 3, nthCalledWith: 3 };

/** Notes (`line: what`) on the fake `send` of a reshaped context literal routed through the helper. */
export function answerShapeNotes(literal: ObjectLiteralExpression): string[] {
  const property = literal.getProperty('sendRequest');
  if (!property) return [];
  const answers: ObjectLiteralExpression[] = [];
  let name: string | undefined;
  if (Node.isPropertyAssignment(property)) {
    const value = property.getInitializer();
    if (value && Node.isIdentifier(value)) name = value.getText();
    else if (value) answers.push(...answersOf(value));
  } else if (Node.isShorthandPropertyAssignment(property)) name = property.getName();
  else if (Node.isMethodDeclaration(property)) answers.push(...returnedLiterals(property));
  const sourceFile = literal.getSourceFile();
  if (name) {
    for (const declaration of sourceFile.getDescendantsOfKind(SyntaxKind.VariableDeclaration)) {
      const init = declaration.getInitializer();
      if (declaration.getName() === name && init) answers.push(...answersOf(init));
    }
    for (const access of sourceFile.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression)) {
      const call = access.getParent();
      if (access.getExpression().getText() === name && ANSWER_METHODS.has(access.getName()) && call && Node.isCallExpression(call)) answers.push(...answersOf(call));
    }
  }
  const notes: string[] = [];
  for (const answer of new Set(answers)) {
    const obstacle = samplingAnswerObstacle(answer);
    if (obstacle) {
      notes.push(
        `${answer.getStartLineNumber()}: the fake's sampling answer ${obstacle}: the migrated handler reads answers as createMessage / sendRequest(..., CreateMessageResultSchema) validated a client's result (they rejected this one too; only the fake bypassed them), so it asks again and ${ANSWER_HELPER} returns its input_required result`,
      );
    }
  }
  if (name) notes.push(...extraArgumentAssertions(sourceFile, name));
  return notes;
}

/**
 * Notes on the fakes a test file's driven helper calls answer sampling with
 * (`callHelperAnsweringInputRequests(helper, [server, ...], (args) => args[0], 'createMessage')`,
 * rewrite/test-calls.ts), for each answer the migrated helper's reader rejects.
 */
export function drivenAnswerNotes(sourceFile: Node): string[] {
  const drivesSampling = sourceFile
    .getDescendantsOfKind(SyntaxKind.CallExpression)
    .some((call) => call.getExpression().getText() === HELPER_DRIVER && call.getArguments()[3]?.getText().slice(1, -1) === SAMPLING_METHOD);
  if (!drivesSampling) return [];
  const notes: string[] = [];
  for (const property of sourceFile.getDescendantsOfKind(SyntaxKind.PropertyAssignment)) {
    const value = property.getInitializer();
    if (property.getName() !== SAMPLING_METHOD || !value) continue;
    for (const answer of answersOf(value)) {
      const obstacle = samplingAnswerObstacle(answer);
      if (obstacle) notes.push(`${answer.getStartLineNumber()}: the fake's sampling answer ${obstacle}: the migrated helper reads answers as ${SAMPLING_METHOD} validated a client's result (it rejected this one too; only the fake bypassed it), so it asks again and ${HELPER_DRIVER} returns its input_required result`);
    }
  }
  return notes;
}

/**
 * What keeps a fake sampling answer from passing a sampling result's check, or undefined: no
 * \`role\`, or content as a list of blocks (a result takes one block unless the request offered tools).
 */
function samplingAnswerObstacle(answer: ObjectLiteralExpression): string | undefined {
  const keys = new Set(answer.getProperties().map((p) => (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p) ? p.getName() : '...')));
  if (!keys.has('content') || !keys.has('model') || keys.has('...')) return undefined;
  if (!keys.has('role')) return "has no `role`, which a sampling result requires (a client's answer carries role: 'assistant')";
  const content = answer.getProperty('content');
  if (content && Node.isPropertyAssignment(content) && Node.isArrayLiteralExpression(content.getInitializer())) {
    return 'gives its content as a list of blocks, which a sampling result takes only when the request offered tools (otherwise one block)';
  }
  return undefined;
}

/** The answers an expression holds: `vi.fn().mockResolvedValue({ ... })`, `vi.fn(async () => ({ ... }))`, chains of them. */
function answersOf(expression: Expression | Node): ObjectLiteralExpression[] {
  const out: ObjectLiteralExpression[] = [];
  for (let node: Node | undefined = expression; node && Node.isCallExpression(node); ) {
    const callee = node.getExpression();
    const method = Node.isPropertyAccessExpression(callee) ? callee.getName() : Node.isIdentifier(callee) ? callee.getText() : '';
    const [first] = node.getArguments();
    if (first && (ANSWER_METHODS.has(method) || FAKE_FACTORIES.has(method))) {
      const value = unwrapExpression(first);
      if (Node.isObjectLiteralExpression(value)) out.push(value);
      else if (Node.isArrowFunction(value) || Node.isFunctionExpression(value)) out.push(...returnedLiterals(value));
    }
    node = Node.isPropertyAccessExpression(callee) ? callee.getExpression() : undefined;
  }
  return out;
}

/** Object literals a function returns (an arrow's expression body, its return statements). */
function returnedLiterals(fn: Node): ObjectLiteralExpression[] {
  const unwrap = (n: Node | undefined): Node | undefined => {
    while (n && (Node.isParenthesizedExpression(n) || Node.isAsExpression(n) || Node.isAwaitExpression(n))) n = n.getExpression();
    return n;
  };
  const out: ObjectLiteralExpression[] = [];
  if (Node.isArrowFunction(fn)) {
    const body = unwrap(fn.getBody());
    if (body && Node.isObjectLiteralExpression(body)) out.push(body);
  }
  for (const ret of fn.getDescendantsOfKind(SyntaxKind.ReturnStatement)) {
    if (ret.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a)) !== fn) continue;
    const value = unwrap(ret.getExpression());
    if (value && Node.isObjectLiteralExpression(value)) out.push(value);
  }
  return out;
}

/** `expect(fake).toHaveBeenCalledWith(request, schema)`: an assertion on more than the request. */
function extraArgumentAssertions(sourceFile: Node, name: string): string[] {
  const notes: string[] = [];
  for (const call of sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee)) continue;
    const from = CALL_MATCHERS[callee.getName()];
    if (from === undefined || call.getArguments().length < from) continue;
    const target = callee.getExpression();
    if (!Node.isCallExpression(target) || target.getExpression().getText() !== 'expect' || target.getArguments()[0]?.getText() !== name) continue;
    notes.push(
      `${call.getStartLineNumber()}: asserts more than the request the fake's send got (the result schema or options the legacy call passed after it); ${ANSWER_HELPER} answers an inputRequest with send(request) alone, as the migrated handler no longer makes that call, so this assertion fails`,
    );
  }
  return notes;
}
