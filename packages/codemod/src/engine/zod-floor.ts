/**
 * A project whose installed zod is older than the one v2 types its schemas with. v2's
 * `registerTool` / `registerPrompt` take zod >= 4.2 schemas (the range `@modelcontextprotocol/server`
 * declares); with zod 3 every registration of the upgraded code misses the overloads (TS2769) and
 * its handler's arguments become `unknown`, errors no edit of ours can repair: the project has to
 * upgrade zod. Such an error says so, with both versions, instead of only the compiler's message.
 *
 * A run that moves such a project to v2 does that upgrade itself when it can and when the upgraded
 * registrations need it (`registrationSchemaErrors`, decided by run/zod-raise.ts): a registration
 * whose schema is typed loosely (`inputSchema: shape as any`) compiles on v2 with zod 3, and zod 4
 * would only break the project's other zod code. Raised, the project's own imports of zod resolve
 * to the v2 server's zod (`lentZodResolution`, as the v2 packages are lent from the codemod's
 * installation), so the code is analysed and verified as it will compile after package.json's zod
 * is bumped to the server's range (`zodBump`, package-json.ts). Then the cause above no longer
 * applies (`floorCauseApplies`); what zod 4 rejects in the project's own code is reported by
 * run/zod-api-errors.ts.
 */
import fs from 'node:fs';
import semver from 'semver';
import { Node, SyntaxKind, ts, type SourceFile } from 'ts-morph';
import { REGISTRATION_APIS, TARGET_SERVER_PACKAGE } from '@mcp-mrtr/surface';
import { resolveAsServerDependency, serverDependencyVersions } from './own-packages.js';

export interface ZodFloor {
  installed: string;
  range: string;
}

const ZOD_SPECIFIER = /^zod(\/|$)/;

/**
 * For a project file's `zod` / `zod/...` import when the project's zod is below v2's floor: the
 * module as the v2 server package resolves it (its zod >= 4.2). Undefined otherwise, and when that
 * zod cannot be found (then the project's own resolves, and the floor's cause and advice apply).
 */
export function lentZodResolution(specifier: string, floor: ZodFloor | undefined, options: ts.CompilerOptions, host: ts.ModuleResolutionHost, projectDirectory: string): ts.ResolvedModuleFull | undefined {
  if (!floor || !ZOD_SPECIFIER.test(specifier)) return undefined;
  const resolved = resolveAsServerDependency(specifier, TARGET_SERVER_PACKAGE, options, host, projectDirectory);
  // the server's lookup can end at the project's own zod (hoisted): that is no lending
  const version = resolved?.packageId?.version;
  return version !== undefined && semver.satisfies(version, floor.range) ? resolved : undefined;
}

/** Whether the run analyses the project's code with the v2 server's zod (see lentZodResolution). */
export function zodLent(floor: ZodFloor | undefined, projectDirectory: string): boolean {
  const host: ts.ModuleResolutionHost = { fileExists: fs.existsSync, readFile: (f) => fs.readFileSync(f, 'utf8'), realpath: fs.realpathSync };
  return lentZodResolution('zod', floor, {}, host, projectDirectory) !== undefined;
}

/** The floor whose cause and advice explain type errors: below v2's range, and the run could not lend zod 4 (zodLent). */
export function floorCauseApplies(projectDirectory: string): ZodFloor | undefined {
  const floor = zodBelowFloor(projectDirectory);
  return floor && !zodLent(floor, projectDirectory) ? floor : undefined;
}

/** The project's zod and the range v2 needs, when the installed one does not satisfy it. */
export function zodBelowFloor(projectDirectory: string): ZodFloor | undefined {
  const { range, installed } = serverDependencyVersions(TARGET_SERVER_PACKAGE, 'zod', projectDirectory);
  if (!range || !installed || semver.satisfies(installed, range)) return undefined;
  return { installed, range };
}

function importsZod(sourceFile: SourceFile): boolean {
  return sourceFile.getImportDeclarations().some((d) => ZOD_SPECIFIER.test(d.getModuleSpecifierValue()));
}

function isRegistration(node: Node): boolean {
  if (!Node.isCallExpression(node)) return false;
  const callee = node.getExpression();
  return Node.isPropertyAccessExpression(callee) && Object.hasOwn(REGISTRATION_APIS, callee.getName());
}

/** Whether the error at `start` lies in a registration call (its schemas or its handler) of a file that imports zod. */
export function inZodRegistration(sourceFile: SourceFile, start: number): boolean {
  return importsZod(sourceFile) && (sourceFile.getDescendantAtPos(start)?.getAncestors().some(isRegistration) ?? false);
}

/**
 * The type errors of the registration calls in `sourceFile` that lie in their schema arguments
 * (not in the callee, not inside a function passed to the call: the handler) and come from zod:
 * the file imports zod or the compiler's message names a zod type. Run on the upgraded code
 * with the project's own zod, they are what a zod below v2's floor breaks.
 */
export function registrationSchemaErrors(sourceFile: SourceFile): ts.Diagnostic[] {
  const calls = sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression).filter(isRegistration);
  if (calls.length === 0) return [];
  let diagnostics: readonly ts.Diagnostic[];
  try {
    diagnostics = sourceFile.getProject().getProgram().compilerObject.getSemanticDiagnostics(sourceFile.compilerNode);
  } catch {
    return [];
  }
  const fromZod = importsZod(sourceFile);
  return diagnostics.filter((d) => {
    if (d.category !== ts.DiagnosticCategory.Error || d.start === undefined) return false;
    const start = d.start;
    const call = calls.find((c) => start >= c.getExpression().getEnd() && start < c.getEnd());
    if (!call) return false;
    if (call.getArguments().some((a) => (Node.isArrowFunction(a) || Node.isFunctionExpression(a)) && start >= a.getStart() && start < a.getEnd())) return false;
    return fromZod || /\bzod\b|\bZod[A-Z]/.test(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  });
}

/** Whether the file imports zod and registers tools, prompts or resources (whose schemas v2 types with zod 4). */
export function registersWithZod(sourceFile: SourceFile): boolean {
  return importsZod(sourceFile) && sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression).some(isRegistration);
}

export function zodFloorCause(floor: ZodFloor): string {
  return `the project's zod ${floor.installed} is older than v2's schema types need: ${TARGET_SERVER_PACKAGE} declares zod ${floor.range}`;
}

export function zodFloorAdvice(floor: ZodFloor): string {
  return `upgrade zod to a version in ${floor.range} (e.g. npm install zod@${floor.range}) and adapt what zod 4 changed, then run the migration again`;
}
