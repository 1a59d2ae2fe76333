/**
 * A table-dispatched tool gets the context parameter its dispatch now passes (dispatch.ts), so a
 * call of it anywhere else runs it without one: strayReference flags the tool when it finds such a
 * call. Tests are where those calls are (`createTool(api, server).handler(args)` in a unit test),
 * and a project's tsconfig often includes tests that lie outside the paths the run was given
 * (a tsconfig without `include`, run on `src`): the run never loads or writes them, so the
 * reference search would not see their calls, and the migrated tool would break them (TS2554 and
 * failing tests, found only afterwards by the importers check). While the dispatched tools are
 * checked, those test files that mention one of the tools' names are added to the project, read
 * from disk as they are, and removed afterwards; nothing else of the rewrite sees them.
 */
import { Node, type Project, type SourceFile } from 'ts-morph';
import type { Handler } from '../model.js';

/** Runs `check` with the test files of `tests` that mention a name of `tools` in the project. */
export function withTestsOutsideRun<T>(project: Project, tests: readonly string[], tools: readonly Handler[], check: () => T): T {
  const names = new Set(tools.flatMap(toolNames));
  const added: SourceFile[] = [];
  if (names.size > 0) {
    for (const file of tests) {
      if (project.getSourceFile(file)) continue;
      let text: string;
      try {
        text = project.getFileSystem().readFileSync(file);
      } catch {
        continue;
      }
      if (![...names].some((name) => mentions(text, name))) continue;
      added.push(project.addSourceFileAtPath(file));
    }
  }
  try {
    return check();
  } finally {
    for (const file of added) project.removeSourceFile(file);
  }
}

/** The names a call of the tool function is spelled with: its own, its variable's, or its member's in an entry object. */
function toolNames(tool: Handler): string[] {
  const fn = tool.fn;
  if (Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn)) return [fn.getName()].filter((n): n is string => n !== undefined);
  const parent = fn.getParent();
  if (parent && (Node.isVariableDeclaration(parent) || Node.isPropertyAssignment(parent))) {
    const name = parent.getNameNode();
    return Node.isIdentifier(name) ? [name.getText()] : [];
  }
  return [];
}

function mentions(text: string, name: string): boolean {
  return new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`).test(text);
}
