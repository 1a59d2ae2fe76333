/**
 * A handler whose registration call does not compile on v2 (after the v1-to-v2 upgrade) cannot be
 * migrated: its callback's parameters are typed from an overload the compiler did not choose, so
 * the rewritten handler has no types to be checked against (verify would only see the knock-on
 * errors, `Property 'x' does not exist on type 'unknown'`). Flagged here only when the cause is
 * known: the project's zod is older than the range v2 declares for it and the run could not lend
 * the server's zod (zod-floor.ts); the reason names the registration's error, that cause and advice.
 */
import path from 'node:path';
import { ts, type SourceFile } from 'ts-morph';
import type { Handler } from '../model.js';
import { floorCauseApplies, inZodRegistration, zodFloorAdvice, zodFloorCause } from '../zod-floor.js';
import { line } from './points.js';

/** Per source file of this run, its semantic diagnostics (planning runs several rounds over the same texts). */
const diagnosticsByFile = new WeakMap<SourceFile, readonly ts.Diagnostic[]>();

export function registrationTypeError(handler: Handler): string | undefined {
  if (handler.dispatch) return undefined;
  const call = handler.registrationCall;
  const fn = handler.fn;
  if (!call.containsRange(fn.getPos(), fn.getEnd())) return undefined;
  const sourceFile = call.getSourceFile();
  // only the zod floor is a cause known here: any other error of the call is left to verify, which
  // compares the rewrite with the upgraded text (the planning program can differ from the final one).
  // Asked before the file's diagnostics: without that cause they are never read, and typechecking
  // every registering file was most of the rewrite stage's time on a project with a recent zod.
  const floor = floorCauseApplies(path.dirname(sourceFile.getFilePath()));
  if (!floor) return undefined;
  let diagnostics = diagnosticsByFile.get(sourceFile);
  if (!diagnostics) {
    try {
      diagnostics = sourceFile.getProject().getProgram().compilerObject.getSemanticDiagnostics(sourceFile.compilerNode);
    } catch {
      diagnostics = [];
    }
    diagnosticsByFile.set(sourceFile, diagnostics);
  }
  // errors of the call itself, not of the code inside the callback
  const own = diagnostics.find((d) => d.category === ts.DiagnosticCategory.Error && d.start !== undefined && d.start >= call.getStart() && d.start < call.getEnd() && !(d.start >= fn.getStart() && d.start < fn.getEnd()));
  if (!own) return undefined;
  const message = ts.flattenDiagnosticMessageText(own.messageText, '\n').split('\n')[0]!;
  // the installed zod nearest to the file is the one its schemas are built with
  if (!inZodRegistration(sourceFile, own.start!)) return undefined;
  const why = `: ${zodFloorCause(floor)}; ${zodFloorAdvice(floor)}`;
  return `its registration (line ${line(call)}) does not compile on v2 (TS${own.code}: ${message}), so the handler's arguments have no type to check the rewrite against${why}`;
}
