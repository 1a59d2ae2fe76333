/**
 * What zod 4 rejects in a project written for zod 3. When the run raises the project's zod
 * (run/zod-raise.ts), it analyses its code with the v2 server's zod 4 and package.json's zod is
 * bumped to the server's range (zod-floor.ts, package-json.ts). Code using zod 3 API that zod 4 changed
 * (`z.record(valueSchema)`, `error.errors`, ...) then fails to compile in the project's own files,
 * changed by the run or not; the comparison with the original text cannot see it (the original is
 * analysed with zod 4 too), so each such error at a zod API use is reported here, at its line;
 * the one-argument `z.record(valueSchema)`, whose zod 4 spelling is mechanical, is repaired.
 */
import { Node, SyntaxKind } from 'ts-morph';
import { buildLineMap } from '../engine/line-map.js';
import { loadsV2Server } from '../engine/package-json.js';
import { zodFloorCause, type ZodFloor } from '../engine/zod-floor.js';
import type { LoadedFile, RunState } from './state.js';
import type { TypeError } from './type-error.js';
import { typeErrors } from './verify.js';

const ZOD_DECLARATION = /[\\/]node_modules[\\/]zod[\\/]/;

export function addZodApiErrors(state: RunState): void {
  const floor = state.zodRaised;
  if (!state.typeChecked || !floor) return;
  const live = state.loaded.filter((f) => !f.failed);
  // a run whose upgrades all went back to v1 leaves package.json's zod as it was (zodBump): the
  // project's zod 3 code still compiles, and a zod 4 error found here would not be true
  if (!live.some((f) => loadsV2Server(f.sourceFile.getFullText()))) return;
  for (const file of live) {
    if (!file.sourceFile.getImportDeclarations().some((d) => /^zod(\/|$)/.test(d.getModuleSpecifierValue()))) continue;
    // by line and message: a repair below moves the positions after it on its line
    const known = new Set((state.upgradeErrors.get(file.path) ?? []).map((e) => `${e.line}:${e.key}`));
    const zodErrors = () => typeErrors(file.sourceFile).filter((e) => !known.has(`${e.line}:${e.key}`) && atZodApi(file, e.start));
    let found = zodErrors();
    if (found.length === 0) continue;
    const repaired = repairOneArgumentRecords(file, found);
    if (repaired.length > 0) {
      const lines = buildLineMap(file.sliced?.body ?? file.source.body, file.sourceFile.getFullText());
      file.notes.push(...repaired.map((line) => `${lines.toOriginal(line)}: z.record(valueSchema) -> z.record(z.string(), valueSchema): zod 4 takes the key schema too (package.json's zod is raised to ${floor.range}); z.string() is the key zod 3 gave the one-argument form`));
      found = zodErrors();
      if (found.length === 0) continue;
    }
    // lines are reported in the file's text before the run, like its request sites
    const lines = buildLineMap(file.sliced?.body ?? file.source.body, file.sourceFile.getFullText());
    for (const e of found) Object.assign(e, zodCause(floor), { line: lines.toOriginal(e.line) });
    state.upgradeErrors.set(file.path, [...(state.upgradeErrors.get(file.path) ?? []), ...found].sort((a, b) => a.start - b.start));
  }
}

function zodCause(floor: ZodFloor): Pick<TypeError, 'cause' | 'advice'> {
  return {
    cause: `zod 4 rejects this zod 3 code: package.json's zod is raised to ${floor.range} because ${zodFloorCause(floor)}`,
    advice: `rewrite this use for zod 4's API (the project's code was written for zod ${floor.installed})`,
  };
}

/**
 * zod 3's one-argument `z.record(valueSchema)` (string keys) is zod 4's `z.record(z.string(),
 * valueSchema)`: the same schema, written for zod 4. Repaired where zod 4's arity error is
 * (`Expected 2-3 arguments`) and the receiver is the file's own import of zod. Returns the lines
 * (in the current text) repaired.
 */
function repairOneArgumentRecords(file: LoadedFile, errors: TypeError[]): number[] {
  const calls = errors.flatMap((e) => {
    if (!e.key.startsWith('TS2554:')) return [];
    const name = file.sourceFile.getDescendantAtPos(e.start);
    const access = name?.getParent();
    const call = access?.getParent();
    if (!Node.isPropertyAccessExpression(access) || access.getNameNode() !== name || access.getName() !== 'record') return [];
    if (!Node.isCallExpression(call) || call.getExpression() !== access || call.getArguments().length !== 1) return [];
    const receiver = access.getExpression();
    return Node.isIdentifier(receiver) && importedFromZod(receiver) ? [{ call, receiver: receiver.getText(), line: e.line }] : [];
  });
  // from the end, so that an edit never moves a call still to be edited
  for (const { call, receiver } of calls.sort((a, b) => b.call.getStart() - a.call.getStart())) call.insertArgument(0, `${receiver}.string()`);
  return calls.map((c) => c.line);
}

function importedFromZod(identifier: Node): boolean {
  const declarations = identifier.getSymbol()?.getDeclarations() ?? [];
  return declarations.length > 0 && declarations.every((d) => {
    const importDeclaration = d.getFirstAncestorByKind(SyntaxKind.ImportDeclaration);
    return importDeclaration !== undefined && /^zod(\/|$)/.test(importDeclaration.getModuleSpecifierValue());
  });
}

/** Whether the error lies in an expression that reads a zod API: a member declared by zod, or a member of a zod type. */
function atZodApi(file: LoadedFile, start: number): boolean {
  const node = file.sourceFile.getDescendantAtPos(start);
  if (!node) return false;
  for (const n of [node, ...node.getAncestors()]) {
    if (Node.isStatement(n) || Node.isSourceFile(n)) break;
    if (!Node.isPropertyAccessExpression(n)) continue;
    try {
      const declared = [...(n.getNameNode().getSymbol()?.getDeclarations() ?? []), ...(n.getExpression().getType().getSymbol()?.getDeclarations() ?? [])];
      if (declared.some((d) => ZOD_DECLARATION.test(d.getSourceFile().getFilePath()))) return true;
    } catch {
      continue;
    }
  }
  return false;
}
