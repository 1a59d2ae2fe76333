/**
 * A test calling a protocol request handler taken from the server's private handler map with an
 * empty context: `handler({ method: 'tools/call', params }, {})`, the handler read from
 * `server._requestHandlers.get('tools/call')`. v1 handed the handler that `{}` as its `extra`. v2
 * wraps the handlers of the methods that may answer input_required (tools/call, prompts/get,
 * resources/read) in its multi-round-trip seam, which first reads the request's state
 * (`ctx.mcpReq.requestState()`): on `{}` it throws a TypeError before the handler runs, whatever
 * the handler does. When the handler returns input_required on a 2025-era server, the seam's legacy
 * shim sends its requests and, when one fails, reads `ctx.mcpReq.signal.aborted` (whether the
 * call itself was cancelled) before it answers the failure: on a context without a signal that
 * is a TypeError instead of the failure a test of a failing request expects. The empty fake
 * becomes the smallest v2 context the seam and the shim accept, a first round (no requestState, no
 * inputResponses) not cancelled: `{ mcpReq: { requestState: () => undefined, signal: new AbortController().signal } }`.
 *
 * Only in a file that reads `_requestHandlers`, and only an empty literal handed as the second
 * argument of a call whose first is a request literal naming one of those methods.
 */
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';
import type { TextEdit } from '../text-edits.js';

/** The private map of the v1 and v2 protocol classes the handlers are read from. */
const HANDLER_MAP = '_requestHandlers';
/** Methods whose v2 handlers run inside the multi-round-trip seam. */
const SEAM_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);
/** The first round's context of a registered handler called directly (no seam, no shim). */
export const FIRST_ROUND_CONTEXT = '{ mcpReq: { requestState: () => undefined } }';
/** The first round's context of a request handler of the server's map: the seam reads `requestState()`, its legacy shim `signal` (`aborted` when a request it sends fails). */
export const PROTOCOL_FIRST_ROUND_CONTEXT = '{ mcpReq: { requestState: () => undefined, signal: new AbortController().signal } }';

export function emptyProtocolContextEdits(sourceFile: SourceFile): { edits: TextEdit[]; notes: string[] } {
  const edits: TextEdit[] = [];
  const reshaped: Array<{ line: number; method: string }> = [];
  if (!sourceFile.getFullText().includes(HANDLER_MAP)) return { edits, notes: [] };
  for (const call of sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const [request, context] = call.getArguments();
    if (!request || !context || !Node.isObjectLiteralExpression(context) || context.getProperties().length > 0 || /\/[/*]/.test(context.getText())) continue;
    const method = requestMethod(request);
    if (!method) continue;
    edits.push({ start: context.getStart(), end: context.getEnd(), text: PROTOCOL_FIRST_ROUND_CONTEXT });
    reshaped.push({ line: context.getStartLineNumber(), method });
  }
  if (reshaped.length === 0) return { edits, notes: [] };
  // one note for the file (a suite of such calls would repeat it on every line)
  const methods = [...new Set(reshaped.map((r) => r.method))].join(' or ');
  const more = reshaped.length > 1 ? ` (and at ${reshaped.length - 1} more line(s): ${reshaped.slice(1).map((r) => r.line).join(', ')})` : '';
  const note = `${reshaped[0]!.line}: the empty context handed to a ${methods} handler of the server's ${HANDLER_MAP} becomes ${PROTOCOL_FIRST_ROUND_CONTEXT}${more}: v2 runs that handler inside its multi-round-trip seam, which reads ctx.mcpReq.requestState() first and throws on {}, and whose 2025-era legacy shim reads ctx.mcpReq.signal when a request it sends fails`;
  return { edits, notes: [note] };
}

function requestMethod(node: Node): string | undefined {
  if (!Node.isObjectLiteralExpression(node)) return undefined;
  const property = node.getProperty('method');
  if (!property || !Node.isPropertyAssignment(property)) return undefined;
  const value = property.getInitializer();
  if (!value || !(Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value))) return undefined;
  return SEAM_METHODS.has(value.getLiteralText()) ? value.getLiteralText() : undefined;
}
