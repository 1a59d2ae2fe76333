/**
 * A file's bind-and-check diagnostics, reused from an earlier program of the same project when
 * nothing they can depend on changed since. Every edit of any file makes ts-morph build a new
 * program with a new type checker, and a file checked again in it is checked from nothing: the
 * verify stage checks each changed file, then the back-to-v1 step puts the upgrades nobody needs
 * back to v1 (an edit), and the upgrade's error check asks for the same files' errors again.
 *
 * What a file's checking can read: its own text, the files it reaches through resolved imports,
 * type reference directives and `/// <reference path>` (its closure, with where each of those
 * resolved to), the program's global declarations (script files, `declare global`, ambient
 * `declare module 'x'`), and the compiler options. When all of those are the same as when the
 * diagnostics were computed, the checker would compute the same ones. Anything else, or a program
 * that does not expose its module resolutions, computes them afresh.
 */
import { ts, type Project, type SourceFile } from 'ts-morph';

/** The program with the parts of its API TypeScript exposes without declaring them. */
export type CheckingProgram = ts.Program & {
  getBindAndCheckDiagnostics?(sourceFile: ts.SourceFile): readonly ts.Diagnostic[];
  forEachResolvedModule?(callback: (resolution: { resolvedModule?: { resolvedFileName: string } }, name: string, mode: ts.ResolutionMode) => void, file: ts.SourceFile): void;
  forEachResolvedTypeReferenceDirective?(callback: (resolution: { resolvedTypeReferenceDirective?: { resolvedFileName?: string } }, name: string, mode: ts.ResolutionMode) => void, file: ts.SourceFile): void;
};

/** What one file contributes to another's checking: its text, and where its references resolved. */
interface FileState {
  text: string;
  links: string;
}

/** What the checking of one file read in one program. */
interface Inputs {
  options: string;
  globals: Map<string, FileState>;
  /** The file's closure, each file's state in that program. */
  closure: Map<string, FileState>;
}

interface Entry {
  /** The program the diagnostics were last found valid in (its `programTokens` token). */
  program: object;
  inputs: Inputs;
  diagnostics: readonly ts.Diagnostic[];
}

/** Per program, the files' states read so far (the closures of checked files share most files). */
const statesByProgram = new WeakMap<ts.Program, { states: Map<string, FileState>; globals?: Map<string, FileState>; options?: string }>();
const entriesByProject = new WeakMap<Project, Map<string, Entry>>();

/**
 * A token per program, standing for it in an entry without holding it. Not a `WeakRef`: the target
 * of a WeakRef created or dereferenced in a job is held until that job ends (ECMAScript's
 * KeepDuringJob), and a migration never yields to the event loop, so every program a run made (a new
 * one at each edit, each with its checker and source files) stayed in memory to the end of the run,
 * and to the end of every later run of a caller that awaits them one after another. The importers
 * check, which is left out when the heap is already a quarter full, then saw an earlier run's
 * programs and was left out of the next run (test/run/consecutive-runs.test.ts).
 */
const programTokens = new WeakMap<ts.Program, object>();
function tokenOf(program: ts.Program): object {
  let token = programTokens.get(program);
  if (!token) programTokens.set(program, (token = {}));
  return token;
}

/**
 * The file's bind-and-check diagnostics in the project's current program (one that exposes
 * `getBindAndCheckDiagnostics`), from an earlier program when they cannot differ.
 */
export function bindAndCheckDiagnostics(sf: SourceFile, program: CheckingProgram): readonly ts.Diagnostic[] {
  const project = sf.getProject();
  let entries = entriesByProject.get(project);
  if (!entries) entriesByProject.set(project, (entries = new Map()));
  const path = sf.getFilePath();
  const entry = entries.get(path);
  const token = tokenOf(program);
  if (entry?.program === token) return entry.diagnostics;
  const inputs = inputsOf(program, sf.compilerNode);
  if (entry && inputs && sameInputs(entry.inputs, inputs)) {
    entry.program = token;
    entry.inputs = inputs;
    return entry.diagnostics;
  }
  const diagnostics = program.getBindAndCheckDiagnostics!(sf.compilerNode);
  if (inputs) entries.set(path, { program: token, inputs, diagnostics });
  else entries.delete(path);
  return diagnostics;
}

function inputsOf(program: CheckingProgram, file: ts.SourceFile): Inputs | undefined {
  if (typeof program.forEachResolvedModule !== 'function' || typeof program.forEachResolvedTypeReferenceDirective !== 'function') return undefined;
  let cache = statesByProgram.get(program);
  if (!cache) statesByProgram.set(program, (cache = { states: new Map() }));
  cache.options ??= JSON.stringify(program.getCompilerOptions());
  cache.globals ??= closureOf(program, cache.states, globalDeclarations(program));
  return { options: cache.options, globals: cache.globals, closure: closureOf(program, cache.states, [file]) };
}

/** The files reachable from `roots` through their resolved references, each with its state. */
function closureOf(program: CheckingProgram, states: Map<string, FileState>, roots: ts.SourceFile[]): Map<string, FileState> {
  const closure = new Map<string, FileState>();
  const queue = [...roots];
  for (let next = queue.pop(); next; next = queue.pop()) {
    if (closure.has(next.fileName)) continue;
    let state = states.get(next.fileName);
    if (!state) states.set(next.fileName, (state = stateOf(program, next)));
    closure.set(next.fileName, state);
    for (const target of referencedFiles(program, next)) if (!closure.has(target.fileName)) queue.push(target);
  }
  return closure;
}

function stateOf(program: CheckingProgram, file: ts.SourceFile): FileState {
  const links: string[] = [];
  program.forEachResolvedModule!((r, name, mode) => links.push(`module ${name} ${mode} ${r.resolvedModule?.resolvedFileName ?? '-'}`), file);
  program.forEachResolvedTypeReferenceDirective!((r, name, mode) => links.push(`types ${name} ${mode} ${r.resolvedTypeReferenceDirective?.resolvedFileName ?? '-'}`), file);
  for (const ref of file.referencedFiles) links.push(`path ${ts.resolveTripleslashReference(ref.fileName, file.fileName)}`);
  return { text: file.text, links: links.join('\n') };
}

function referencedFiles(program: CheckingProgram, file: ts.SourceFile): ts.SourceFile[] {
  const names: string[] = [];
  program.forEachResolvedModule!((r) => r.resolvedModule && names.push(r.resolvedModule.resolvedFileName), file);
  program.forEachResolvedTypeReferenceDirective!((r) => r.resolvedTypeReferenceDirective?.resolvedFileName && names.push(r.resolvedTypeReferenceDirective.resolvedFileName), file);
  for (const ref of file.referencedFiles) names.push(ts.resolveTripleslashReference(ref.fileName, file.fileName));
  return names.flatMap((name) => program.getSourceFile(name) ?? []);
}

/**
 * The program's files that declare anything outside their own module: scripts (every top-level
 * declaration is global; a CommonJS JavaScript file counts too, which only makes the reuse rarer),
 * and modules with `declare global` or `declare module '...'`. Their closures count with them: a
 * global's declared type can name a type of a module (`declare var x: import('./m').T`).
 */
function globalDeclarations(program: ts.Program): ts.SourceFile[] {
  return program.getSourceFiles().filter((file) => !ts.isExternalModule(file) || file.statements.some((s) => ts.isModuleDeclaration(s) && (ts.isStringLiteral(s.name) || (s.flags & ts.NodeFlags.GlobalAugmentation) !== 0)));
}

function sameInputs(a: Inputs, b: Inputs): boolean {
  return a.options === b.options && sameStates(a.globals, b.globals) && sameStates(a.closure, b.closure);
}

function sameStates(a: Map<string, FileState>, b: Map<string, FileState>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const [name, state] of a) {
    const other = b.get(name);
    if (!other || other.text !== state.text || other.links !== state.links) return false;
  }
  return true;
}
