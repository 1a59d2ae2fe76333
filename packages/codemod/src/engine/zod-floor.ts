/**
 * A project whose installed zod is older than the one v2 types its schemas with. v2's
 * `registerTool` / `registerPrompt` take zod >= 4.2 schemas (the range `@modelcontextprotocol/server`
 * declares); with zod 3 every registration of the upgraded code misses the overloads (TS2769) and
 * its handler's arguments become `unknown`, errors no edit of ours can repair: the project has to
 * upgrade zod. Such an error says so, with both versions, instead of only the compiler's message.
 */
import semver from 'semver';
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';
import { REGISTRATION_APIS, TARGET_SERVER_PACKAGE } from '@mcp-mrtr/surface';
import { serverDependencyVersions } from './own-packages.js';

export interface ZodFloor {
  installed: string;
  range: string;
}

/** The project's zod and the range v2 needs, when the installed one does not satisfy it. */
export function zodBelowFloor(projectDirectory: string): ZodFloor | undefined {
  const { range, installed } = serverDependencyVersions(TARGET_SERVER_PACKAGE, 'zod', projectDirectory);
  if (!range || !installed || semver.satisfies(installed, range)) return undefined;
  return { installed, range };
}

function importsZod(sourceFile: SourceFile): boolean {
  return sourceFile.getImportDeclarations().some((d) => /^zod(\/|$)/.test(d.getModuleSpecifierValue()));
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
