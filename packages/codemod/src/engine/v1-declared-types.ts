/**
 * Reads of a result property that the v2 types declare wider than v1 did, put back to v1's
 * declared type where the wider type no longer compiles:
 *
 * - `CallToolResult.structuredContent` is `unknown` in v2 (a 2026-07-28 result may carry any JSON
 *   value there), `{ [key: string]: unknown } | undefined` in v1: `result.structuredContent?.metadata`
 *   fails ("does not exist on type '{}'");
 * - `Tool.outputSchema` is `{ [key: string]: unknown; $schema?: string }` in v2, a JSON-schema
 *   object with `properties?: { [key: string]: object }` in v1: `tool.outputSchema?.properties?.x`
 *   fails the same way one step further.
 *
 * The repair is `(result.structuredContent as { [key: string]: unknown } | undefined)?.metadata`: a
 * type assertion, which TypeScript erases with its parentheses, so the emitted JavaScript is the
 * same and the code runs as before; it types the read as v1 did, which the code was written for.
 * The other result types the tests read (content blocks, prompt and resource results) are the same
 * in v1 and v2. Only a read whose property the type checker resolves to a v2 MCP package's
 * declaration is repaired, and only where a new compiler error lies in that read's use.
 */
import { Node, SyntaxKind, ts, type PropertyAccessExpression, type SourceFile } from 'ts-morph';

/** v1's declared type of each property v2 declares wider, as written in the assertion. */
export const V1_DECLARED_TYPES: Readonly<Record<string, string>> = {
  structuredContent: '{ [key: string]: unknown } | undefined',
  outputSchema: "{ [key: string]: unknown; type: 'object'; properties?: { [key: string]: object }; required?: string[] } | undefined",
};

/** A package of the v2 SDK (`@modelcontextprotocol/core`, `server`, `client`, ...), not v1's `sdk`. */
export const V2_PACKAGE_PATH = /[\\/]@modelcontextprotocol[\\/](?!sdk[\\/])[^\\/]+[\\/]/;

/** What was repaired, one `<line>: <note>` per read (the file's notes). */
export type RepairNote = string;

/**
 * Asserts v1's declared type on each read of a widened v2 property whose use has an error starting
 * in it (`errorStarts`: positions in the file's current text, asked only when the file has such a
 * read); edits the file in place.
 */
export function assertV1DeclaredTypes(sourceFile: SourceFile, errorStarts: () => readonly number[]): RepairNote[] {
  if (!Object.keys(V1_DECLARED_TYPES).some((name) => sourceFile.getFullText().includes(name))) return [];
  const reads = widenedReads(sourceFile);
  if (reads.length === 0) return [];
  const starts = errorStarts();
  const hit = reads.filter((read) => starts.some((at) => at === read.getStart() || useRanges(read).some(([start, end]) => at >= start && at < end)));
  const notes: RepairNote[] = [];
  // last first: replacing one read leaves the positions of the earlier ones valid
  for (const read of hit.sort((a, b) => b.getStart() - a.getStart())) {
    const name = read.getName();
    notes.push(`${read.getStartLineNumber()}: '${abbreviated(read.getText())}' is typed wider by v2 than v1 declared it: read as v1's type (${V1_DECLARED_TYPES[name]}), a type assertion that changes nothing at run time`);
    read.replaceWithText(`(${read.getText()} as ${V1_DECLARED_TYPES[name]})`);
  }
  return notes.reverse();
}

/**
 * The starts of the file's compiler errors, for `assertV1DeclaredTypes` on a file the upgrade just
 * rewrote (its reads of a widened property are the upgrade's: before it, they had v1's types).
 */
export function errorStartsOf(sourceFile: SourceFile): number[] {
  const program = sourceFile.getProject().getProgram().compilerObject;
  return [...program.getSyntacticDiagnostics(sourceFile.compilerNode), ...program.getSemanticDiagnostics(sourceFile.compilerNode)]
    .filter((d) => d.category === ts.DiagnosticCategory.Error && d.start !== undefined)
    .map((d) => d.start!);
}

function widenedReads(sourceFile: SourceFile): PropertyAccessExpression[] {
  return sourceFile.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression).filter((access) => {
    if (!(access.getName() in V1_DECLARED_TYPES)) return false;
    const declarations = access.getNameNode().getSymbol()?.getDeclarations() ?? [];
    return declarations.length > 0 && declarations.every((d) => V2_PACKAGE_PATH.test(d.getSourceFile().getFilePath()));
  });
}

/**
 * Where an error means the read's type is too wide for its use, beside the read's start (where the
 * compiler reports an argument or an assignment it rejects): from the property's name on, the
 * property and element accesses chained on it (`?.metadata`, `?.properties?.x`), and the binding
 * pattern it is destructured into. Not the object it is read from: an error there is not the read's.
 */
function useRanges(read: PropertyAccessExpression): Array<[number, number]> {
  let chain: Node = read;
  for (let parent = chain.getParent(); parent; parent = chain.getParent()) {
    const onChain =
      ((Node.isPropertyAccessExpression(parent) || Node.isElementAccessExpression(parent) || Node.isNonNullExpression(parent)) && parent.getExpression() === chain) || Node.isParenthesizedExpression(parent);
    if (!onChain) break;
    chain = parent;
  }
  const ranges: Array<[number, number]> = [[read.getNameNode().getStart(), chain.getEnd()]];
  const declaration = chain.getParent();
  if (declaration && Node.isVariableDeclaration(declaration) && declaration.getInitializer() === chain) {
    const name = declaration.getNameNode();
    if (!Node.isIdentifier(name)) ranges.push([name.getStart(), name.getEnd()]);
  }
  return ranges;
}

function abbreviated(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}
