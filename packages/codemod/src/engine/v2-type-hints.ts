/**
 * What a type error left by the v2 types means, for the shapes whose cause the compiler's message
 * does not name: `CallToolResult.structuredContent` is `unknown` in v2 (a 2026-07-28 result may
 * carry any JSON value there), where v1 typed it as an object, so a read of one of its properties
 * (`result.structuredContent?.metadata`) no longer typechecks ("does not exist on type '{}'").
 */
import { Node, type SourceFile } from 'ts-morph';

const STRUCTURED_CONTENT = 'structuredContent';

export const STRUCTURED_CONTENT_ADVICE =
  "v2 types CallToolResult.structuredContent as unknown (v1: an object), so its properties cannot be read directly: narrow it first (typeof x === 'object' && x !== null) or cast it to the object type the tool returns";

/** The advice for the error at `start`, when its shape is one of the known v2 type changes. */
export function v2TypeHint(sourceFile: SourceFile, start: number): string | undefined {
  // TS2339 is reported at the property's name: `metadata` of `result.structuredContent?.metadata`
  const name = sourceFile.getDescendantAtPos(start);
  const access = name?.getParent();
  if (!access || !Node.isPropertyAccessExpression(access) || access.getNameNode() !== name) return undefined;
  let object: Node = access.getExpression();
  while (Node.isNonNullExpression(object) || Node.isParenthesizedExpression(object)) object = object.getExpression();
  return Node.isPropertyAccessExpression(object) && object.getName() === STRUCTURED_CONTENT ? STRUCTURED_CONTENT_ADVICE : undefined;
}
