/**
 * Legacy requests the run left in place whose failure the code swallows: the request (or a call of
 * the function that makes it, a few callers up) sits in a `try` whose `catch` does not rethrow, or
 * in a promise with a `.catch(...)` handler. Served by `serveStdio` / `createMcpHandler`, a
 * 2026-07-28 request has no session to send such a request on: it fails, the catch takes the
 * fallback, and the feature silently turns off for clients that support it. While any exists,
 * the hosting is flagged instead of switched.
 */
import path from 'node:path';
import { Node, SyntaxKind, ts, type SourceFile } from 'ts-morph';
import { LEGACY_METHODS, SERVER_METHOD_TO_LEGACY, TARGET } from '@mcp-mrtr/surface';
import type { Site } from '../model.js';
import { callOf, functionNameNode, referencesOf } from '../find/resolve.js';
import { functionName } from '../reach/index.js';
import { looksLikeTestFile } from '../test-mocks/find.js';
import { forEachWantedDescendant } from '../compiler-walk.js';

/**
 * Named by functions and files, not lines: the texts here are the upgraded ones, whose lines may
 * differ from the files the user ran on.
 */
export interface SwallowedRequest {
  /** `summarize in sampling.ts`: the function making the request, the file relative to the hosting file. */
  where: string;
  /** `a catch clause in createServer (server.ts)`. */
  caughtAt: string;
  /** The catch turns the failure into an error result (`return { ..., isError: true }`): reported to the caller, not silent. */
  reported: boolean;
}

/** How many callers up a catch is looked for (request → helper → handler code). */
const MAX_CALLER_DEPTH = 3;

/** Text that every legacy request site contains: a server method name or a wire method. */
const REQUEST_TOKENS = [...Object.keys(SERVER_METHOD_TO_LEGACY), ...LEGACY_METHODS];

/** The legacy request sites of a file as its text is now. */
export type SitesOf = (file: SourceFile) => readonly Site[];

export function swallowedRequests(hostingFile: SourceFile, sitesOf: SitesOf): SwallowedRequest[] {
  const found: SwallowedRequest[] = [];
  forEachServedRequest(hostingFile, sitesOf, (site, fileOf) => {
    const caught = catchOf(site.node, 0, new Set());
    if (!caught) return;
    const kind = Node.isCatchClause(caught) ? 'a catch clause' : 'a .catch() handler';
    found.push({ where: `${enclosingFunctionName(site.node)} in ${fileOf(site.node)}`, caughtAt: `${kind} in ${enclosingFunctionName(caught)} (${fileOf(caught)})`, reported: returnsErrorResult(caught) });
  });
  return found;
}

/**
 * Each request site left in the files `hostingFile` serves (test files aside), with a namer of a
 * node's file relative to the hosting file.
 */
export function forEachServedRequest(hostingFile: SourceFile, sitesOf: SitesOf, visit: (site: Site, fileOf: (node: Node) => string) => void): void {
  const from = path.dirname(hostingFile.getFilePath());
  const fileOf = (node: Node) => path.relative(from, node.getSourceFile().getFilePath()) || path.basename(node.getSourceFile().getFilePath());
  for (const file of servedFiles(hostingFile)) {
    const text = file.getFullText();
    if (!REQUEST_TOKENS.some((t) => text.includes(t)) || looksLikeTestFile(file.getFilePath(), text)) continue;
    for (const site of sitesOf(file)) {
      if (site.shape !== 'completion-notifier' && site.shape !== 'url-elicitation-error') visit(site, fileOf);
    }
  }
}

/**
 * The hosting file and the project files it imports, transitively: the server it hosts. Requests
 * elsewhere in the run (another server of a monorepo) are not served by this hosting. Imports are
 * static declarations and the calls that load a module named by a literal: `await
 * import('./handlers/tickets.js')` (handlers loaded on first use), `require('./x')` and
 * `import x = require('./x')`.
 */
export function servedFiles(hostingFile: SourceFile): SourceFile[] {
  const files = new Set<SourceFile>([hostingFile]);
  for (const file of files) {
    const targets = [
      ...file.getImportDeclarations().map((d) => d.getModuleSpecifierSourceFile()),
      ...file.getExportDeclarations().map((d) => d.getModuleSpecifierSourceFile()),
      ...loadedModules(file),
    ];
    for (const target of targets) if (target && !target.isInNodeModules() && !target.isDeclarationFile()) files.add(target);
  }
  return [...files];
}

const LOADING_CALL = /\b(import|require)\s*\(/;

/** The project files `file` loads with `import('literal')`, `require('literal')` or `import x = require('literal')`. */
function loadedModules(file: SourceFile): Array<SourceFile | undefined> {
  if (!LOADING_CALL.test(file.getFullText())) return [];
  const loaded: Array<SourceFile | undefined> = [];
  forEachWantedDescendant(
    file,
    (node) => node.kind === SyntaxKind.ImportEqualsDeclaration || node.kind === SyntaxKind.CallExpression,
    (node) => {
      if (Node.isImportEqualsDeclaration(node)) {
        loaded.push(node.getExternalModuleReferenceSourceFile());
        return;
      }
      if (!Node.isCallExpression(node)) return;
      const callee = node.getExpression();
      const mode = callee.getKind() === SyntaxKind.ImportKeyword ? ts.ModuleKind.ESNext : Node.isIdentifier(callee) && callee.getText() === 'require' ? ts.ModuleKind.CommonJS : undefined;
      const specifier = node.getArguments()[0];
      if (mode === undefined || !specifier || !(Node.isStringLiteral(specifier) || Node.isNoSubstitutionTemplateLiteral(specifier))) return;
      loaded.push(resolvedModule(file, specifier.getLiteralValue(), mode));
    },
  );
  return loaded;
}

/** The project's source file that `specifier`, loaded from `file` in `mode`, resolves to. */
function resolvedModule(file: SourceFile, specifier: string, mode: ts.ResolutionMode): SourceFile | undefined {
  const project = file.getProject();
  const resolved = ts.resolveModuleName(specifier, file.getFilePath(), project.getCompilerOptions(), project.getModuleResolutionHost(), undefined, undefined, mode).resolvedModule;
  return resolved ? project.getSourceFile(resolved.resolvedFileName) : undefined;
}

/** The catch that swallows a failure of `node`: in its function, or around a call of that function. */
function catchOf(node: Node, depth: number, seen: Set<Node>): Node | undefined {
  for (const ancestor of node.getAncestors()) {
    if (Node.isFunctionLikeDeclaration(ancestor)) break;
    if (Node.isTryStatement(ancestor) && ancestor.getTryBlock().containsRange(node.getPos(), node.getEnd())) {
      const clause = ancestor.getCatchClause();
      if (clause && !rethrows(clause.getBlock())) return clause;
      if (clause) return undefined; // rethrown: the failure reaches the handler, which reports it
    }
    if (Node.isCallExpression(ancestor)) {
      const callee = ancestor.getExpression();
      if (Node.isPropertyAccessExpression(callee) && callee.getName() === 'catch' && callee.getExpression().containsRange(node.getPos(), node.getEnd())) return ancestor;
    }
  }
  if (depth >= MAX_CALLER_DEPTH) return undefined;
  const fn = node.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a));
  const name = fn && functionNameNode(fn);
  if (!fn || !name || !Node.isReferenceFindable(name) || seen.has(fn)) return undefined;
  seen.add(fn);
  const references = referencesOf(name);
  if (!references) return undefined;
  for (const ref of references) {
    const call = callOf(ref);
    if (!call || call.getSourceFile().isInNodeModules() || looksLikeTestFile(call.getSourceFile().getFilePath(), call.getSourceFile().getFullText())) continue;
    const caught = catchOf(call, depth + 1, seen);
    if (caught) return caught;
  }
  return undefined;
}

/**
 * The catch gives the failure back as an error result: its block (or its `.catch()` handler's body)
 * returns an object literal with `isError: true`, as a tool reports a failure to the client.
 */
function returnsErrorResult(caught: Node): boolean {
  const handler = Node.isCallExpression(caught) ? caught.getArguments()[0] : caught;
  if (!handler) return false;
  const errorResult = (value: Node | undefined): boolean => {
    let object = value;
    while (object && (Node.isParenthesizedExpression(object) || Node.isAsExpression(object) || Node.isSatisfiesExpression(object))) object = object.getExpression();
    if (!object || !Node.isObjectLiteralExpression(object)) return false;
    const flag = object.getProperty('isError');
    return !!flag && Node.isPropertyAssignment(flag) && flag.getInitializer()?.getKind() === SyntaxKind.TrueKeyword;
  };
  if ((Node.isArrowFunction(handler) || Node.isFunctionExpression(handler)) && errorResult(handler.getBody())) return true;
  const inside = (node: Node): boolean => node.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a)) === (Node.isCatchClause(handler) ? handler.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a)) : handler);
  return handler.getDescendantsOfKind(SyntaxKind.ReturnStatement).some((r) => inside(r) && errorResult(r.getExpression()));
}

/** The catch block ends by throwing (the failure goes on). */
function rethrows(block: Node): boolean {
  if (!Node.isBlock(block)) return false;
  const last = block.getStatements().at(-1);
  return last !== undefined && Node.isThrowStatement(last);
}

/** The innermost named function around `node` (`createServer` for the arrow it registers), named as reach names it. */
export function enclosingFunctionName(node: Node): string {
  for (const fn of node.getAncestors()) {
    if (!Node.isFunctionLikeDeclaration(fn)) continue;
    const name = functionName(fn);
    if (name) return name;
  }
  return 'module-level code';
}

export function swallowedKeptReason(requests: SwallowedRequest[]): string {
  // the silent ones decide the reason: a catch returning an error result reports the failure (the
  // tool fails where it asked, visibly), one taking a fallback hides it
  const silent = requests.filter((r) => !r.reported);
  const named = silent.length > 0 ? silent : requests;
  const one = named.length === 1;
  const shown = named.slice(0, 3).map((r) => `${r.where}, caught by ${r.caughtAt}`).join('; ') + (named.length > 3 ? '; ...' : '');
  const subject = one ? 'a request that stays flagged has its' : `${named.length} requests that stay flagged have their`;
  const served = `served by ${TARGET.serveStdio} / ${TARGET.createMcpHandler}, a 2026-07-28 request has no session to send it on`;
  if (silent.length === 0) {
    return `${subject} failure caught and returned as an error result (${shown}): ${served}, so ${one ? 'its tool' : 'their tools'} would answer with that error instead of asking, for clients that support the request`;
  }
  return `${subject} failure swallowed (${shown}): ${served}, so the catch would take its fallback instead and the feature would turn off for clients that support it`;
}
