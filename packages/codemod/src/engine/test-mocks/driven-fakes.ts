/**
 * Fakes that answer a helper call the rewrite routed through its driver (rewrite/test-calls.ts):
 * `callHelperAnsweringInputRequests(askColour, [server, ...], (args) => args[0].server, 'elicitInput')`
 * answers the migrated helper's input requests with `args[0].server.elicitInput` (a method's call,
 * `() => prompts['server'].server`, with its instance's field's), so a fake
 * `{ server: { elicitInput: vi.fn() } }` in that file keeps answering what it answered: it is not a
 * mock the migration left behind.
 */
import { ts } from 'ts-morph';
import { HELPER_DRIVER } from '../rewrite/test-calls.js';
import type { MockMatch } from './find.js';

/** What the file's driver calls answer with: the method and the property path of the object it is called on. */
interface DrivenAnswer {
  method: string;
  path: string[];
}

function drivenAnswers(sourceFile: ts.SourceFile): DrivenAnswer[] {
  const out: DrivenAnswer[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === HELPER_DRIVER && node.arguments.length === 4) {
      const [, , receiver, method] = node.arguments;
      const body = receiver && ts.isArrowFunction(receiver) ? receiver.body.getText(sourceFile) : '';
      const path = /^(?:args\[\d+\]|[\w$.]+\['[A-Za-z_$][\w$]*'\])((?:\.[A-Za-z_$][\w$]*)*)$/.exec(body);
      if (path && method && ts.isStringLiteral(method)) out.push({ method: method.text, path: path[1]!.split('.').filter(Boolean) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return out;
}

/** The names of the properties whose values hold `object`, innermost last (`{ server: { ... } }` → ['server']). */
function holdingPath(object: ts.Node): string[] {
  const path: string[] = [];
  let node: ts.Node = object;
  for (;;) {
    let parent = node.parent;
    while (parent && (ts.isAsExpression(parent) || ts.isParenthesizedExpression(parent) || ts.isSatisfiesExpression(parent))) parent = parent.parent;
    if (!parent || !ts.isPropertyAssignment(parent) || !ts.isObjectLiteralExpression(parent.parent)) return path;
    const name = parent.name;
    if (!ts.isIdentifier(name) && !ts.isStringLiteral(name)) return path;
    path.unshift(name.text);
    node = parent.parent;
  }
}

/**
 * The matches minus the fake members that answer a driven helper call of the file. `driven`: the
 * same file after the rewrite, when `matches` are of the text before it (the rewrite routes calls and
 * leaves mocks as they are: the same mocks in the same order, so they are dropped by position).
 */
export function withoutDrivenFakes(sourceFile: ts.SourceFile, matches: MockMatch[], driven?: { sourceFile: ts.SourceFile; matches: MockMatch[] }): MockMatch[] {
  const after = driven ?? { sourceFile, matches };
  if (!after.sourceFile.text.includes(HELPER_DRIVER)) return matches;
  const answers = drivenAnswers(after.sourceFile);
  if (answers.length === 0 || after.matches.length !== matches.length) return matches;
  const answered = after.matches.map((match) => {
    if (match.shape !== 'fake-member' || !ts.isObjectLiteralExpression(match.node.parent)) return false;
    const held = holdingPath(match.node.parent);
    // the fake object sits at the answer's path (its outer holders may be anything: a wrapper object, a variable)
    return answers.some((a) => a.method === match.name && held.length >= a.path.length && a.path.every((p, i) => held[held.length - a.path.length + i] === p));
  });
  return matches.filter((_, i) => !answered[i]);
}
