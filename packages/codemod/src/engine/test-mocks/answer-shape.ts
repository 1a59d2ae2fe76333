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

/** A fake sampling answer the migrated reader rejects, where it is and what keeps it from passing. */
export interface RejectedAnswer {
  line: number;
  column: number;
  snippet: string;
  obstacle: string;
  /** The title of the test (`it(...)`, `test(...)`) the answer is written in, when it is written in one. */
  test?: { title: string; line: number };
}

/**
 * The fakes a test file's driven helper calls answer sampling with
 * (`callHelperAnsweringInputRequests(helper, [server, ...], (args) => args[0], 'createMessage')`,
 * rewrite/test-calls.ts) that the migrated helper's reader rejects. `driven` false: the same
 * answers in a text without the driver calls (the test as written, for its lines).
 */
export function drivenRejectedAnswers(sourceFile: Node, driven = true): RejectedAnswer[] {
  const drivesSampling = sourceFile
    .getDescendantsOfKind(SyntaxKind.CallExpression)
    .some((call) => call.getExpression().getText() === HELPER_DRIVER && call.getArguments()[3]?.getText().slice(1, -1) === SAMPLING_METHOD);
  if (driven && !drivesSampling) return [];
  const out: RejectedAnswer[] = [];
  for (const property of sourceFile.getDescendantsOfKind(SyntaxKind.PropertyAssignment)) {
    const value = property.getInitializer();
    if (property.getName() !== SAMPLING_METHOD || !value) continue;
    for (const answer of answersOf(value)) {
      const obstacle = samplingAnswerObstacle(answer);
      if (!obstacle) continue;
      const test = enclosingTest(answer);
      out.push({ line: answer.getStartLineNumber(), column: answer.getStart() - answer.getStartLinePos() + 1, snippet: property.getText().split('\n')[0]!.slice(0, 80), obstacle, ...(test ? { test } : {}) });
    }
  }
  return out;
}

/**
 * Why a test whose fake answer the reader rejects exercises behaviour the migration removes: its
 * answer is one no real client's can be (createMessage rejected it from a client too; only the
 * fake, standing in for createMessage itself, bypassed that check).
 */
export function rejectedAnswerReason(answer: RejectedAnswer): string {
  const which = answer.test ? `test "${answer.test.title}" (line ${answer.test.line})` : 'a test using this fake';
  return `${which} exercises behaviour no real client can produce, which the migration does not keep: the fake's sampling answer ${answer.obstacle}; createMessage rejected such an answer from a client too (only the fake, standing in for createMessage, bypassed that check), and the migrated helper reads answers as createMessage validated them, so it asks again and ${HELPER_DRIVER} returns its input_required result: the test fails`;
}

export const REJECTED_ANSWER_ADVICE =
  "give the fake an answer a client can send (role: 'assistant', one content block unless the request offers tools), or remove the test if it only covered what a fake could return";

/** Notes on the fakes a test file's driven helper calls answer sampling with, for each answer the migrated helper's reader rejects. */
export function drivenAnswerNotes(sourceFile: Node): string[] {
  return drivenRejectedAnswers(sourceFile).map(
    (a) => `${a.line}: the fake's sampling answer ${a.obstacle}: the migrated helper reads answers as ${SAMPLING_METHOD} validated a client's result (it rejected this one too; only the fake bypassed it), so it asks again and ${HELPER_DRIVER} returns its input_required result`,
  );
}

const TEST_CALLS = new Set(['it', 'test']);

/** The test call (`it('title', ...)`, `test.only(...)`) around `node`, with a literal title. */
function enclosingTest(node: Node): { title: string; line: number } | undefined {
  for (const call of node.getAncestors()) {
    if (!Node.isCallExpression(call)) continue;
    let callee: Node = call.getExpression();
    while (Node.isPropertyAccessExpression(callee) || Node.isCallExpression(callee)) callee = callee.getExpression();
    const [title] = call.getArguments();
    if (Node.isIdentifier(callee) && TEST_CALLS.has(callee.getText()) && title && (Node.isStringLiteral(title) || Node.isNoSubstitutionTemplateLiteral(title))) return { title: title.getLiteralText(), line: call.getStartLineNumber() };
  }
  return undefined;
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

/**
 * Object literals a function returns (an arrow's expression body, its return statements), through
 * resolve.ts's wrappers (parentheses, as, !, satisfies, type assertions) and `await`: an async fake
 * returning `await x` returns what `x` holds.
 */
function returnedLiterals(fn: Node): ObjectLiteralExpression[] {
  const unwrap = (n: Node | undefined): Node | undefined => {
    let current = unwrapExpression(n);
    while (current && Node.isAwaitExpression(current)) current = unwrapExpression(current.getExpression());
    return current;
  };
  const out: ObjectLiteralExpression[] = [];
  if (Node.isArrowFunction(fn)) {
    const body = unwrap(fn.getBody());
    if (body && Node.isObjectLiteralExpression(body)) out.push(body);
  }
  for (const ret of fn.getDescendantsOfKind(SyntaxKind.ReturnStatement)) {
    // ts-morph's function-like declarations leave out function expressions: without them a fake
    // written `vi.fn(async function () { return ... })` had no answers, and one nested in an arrow gave it its own
    if (ret.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a) || Node.isFunctionExpression(a)) !== fn) continue;
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
