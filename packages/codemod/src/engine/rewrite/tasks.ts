/**
 * Task-augmented requests (`params.task`, or `{ task }` in the request options): the client answers
 * with a task handle, and the server polls `tasks/get` / `tasks/result` for the outcome. An MRTR input
 * request is answered inline on the retry and has no task form, so rewriting one as a plain request
 * would leave the polling code waiting on a task that never exists. Such sites are flagged, never
 * rewritten.
 */
import { TASK_REQUEST_METHODS } from '@mcp-mrtr/surface';
import { Node, SyntaxKind } from 'ts-morph';
import type { Site } from '../model.js';
import { nameText, unwrapExpression } from '../find/resolve.js';
import { enclosingFunction, line, siteLine } from './points.js';

const TASK_METHODS = new Set(TASK_REQUEST_METHODS);

export const TASK_ADVICE =
  'task-augmented requests have no MRTR form, and the v2 SDK has no runtime for tasks/get / tasks/result: drop `task` and the polling, ask with inputRequired(...) and read the answer from ctx.mcpReq.inputResponses on the retry';

/** Why `site` is task-augmented (naming the `task` property and the polling it feeds), or undefined. */
export function taskAugmentation(site: Site): string | undefined {
  if (!Node.isCallExpression(site.node)) return undefined;
  const task = taskProperty(site.params) ?? site.node.getArguments().slice(1).map(taskProperty).find((p) => p !== undefined);
  if (!task) return undefined;
  const polling = pollingCall(site.node);
  return (
    `the request at line ${siteLine(site)} is task-augmented (\`task\` at line ${line(task)}): the client answers with a task handle` +
    (polling ? ` that \`${polling.method}\` at line ${polling.line} polls` : ' to poll through tasks/get / tasks/result') +
    '; an MRTR input request is answered inline and has no task form'
  );
}

function taskProperty(node: Node | undefined): Node | undefined {
  const object = unwrapExpression(node);
  if (!object || !Node.isObjectLiteralExpression(object)) return undefined;
  return object.getProperty('task');
}

/** A `tasks/*` request in the function around the site (the polling loop), if any. */
function pollingCall(near: Node): { method: string; line: number | string } | undefined {
  const scope = enclosingFunction(near) ?? near.getSourceFile();
  for (const literal of scope.getDescendants()) {
    if (!Node.isStringLiteral(literal) && !Node.isNoSubstitutionTemplateLiteral(literal)) continue;
    const method = nameText(literal);
    if (method && TASK_METHODS.has(method)) return { method, line: line(literal) };
  }
  for (const access of scope.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression)) {
    if (/^(getTask|getTaskResult)$/.test(access.getName())) return { method: access.getName(), line: line(access) };
  }
  return undefined;
}
