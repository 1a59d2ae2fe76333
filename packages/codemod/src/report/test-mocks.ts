/**
 * Unit tests in the user's project that mock the legacy server-to-client requests
 * (`sendRequest: vi.fn()`, `vi.spyOn(server.server, 'elicitInput')`, `jest.fn()`, hand-written fakes
 * like `sendRequest: async () => ({ action: 'accept' })`). After migration the handlers never call
 * these, so the tests keep passing while testing nothing. They are reported as `test-mock` sites with
 * advice on how to drive a migrated handler instead.
 */
import { CTX_MCPREQ_METHOD_TO_LEGACY, SERVER_METHOD_TO_LEGACY, TODO_MARKER, LEGACY_REQUESTS, type LegacyMethod } from '@mcp-mrtr/surface';
import { ts } from 'ts-morph';
import { markerComment } from '../engine/markers.js';
import type { FileResult, MigrationResult, SiteResult } from '../types.js';
import { scriptKindOf } from '../engine/script-kind.js';

/** Test-runner mocking entry points (not MCP API: the runners' own names). */
const MOCK_FACTORIES = new Set(['fn', 'spyOn', 'mock', 'stub', 'fake']);
const MOCK_NAMESPACES = new Set(['vi', 'jest', 'sinon', 'mock', 't', 'td']);
const TEST_FILE_NAME = /(^|[/\\])(__tests__|__mocks__|tests?)[/\\]|\.(test|spec)\.[cm]?[jt]sx?$/;
const TEST_RUNNER_MODULES = ['vitest', '@jest/globals', 'jest', 'node:test', 'mocha', 'sinon', 'bun:test', 'ava', 'tap'];

const SEND_REQUEST = 'sendRequest';

/** Legacy request method → wire method, for every mockable name. */
function mockedMethod(name: string): LegacyMethod | 'generic' | undefined {
  if (name === SEND_REQUEST) return 'generic';
  return SERVER_METHOD_TO_LEGACY[name] ?? CTX_MCPREQ_METHOD_TO_LEGACY[name];
}

export function looksLikeTestFile(file: string, text: string): boolean {
  if (TEST_FILE_NAME.test(file)) return true;
  return TEST_RUNNER_MODULES.some((m) => text.includes(`'${m}'`) || text.includes(`"${m}"`));
}

export const TEST_MOCK_ADVICE =
  'the migrated handler returns input_required instead of sending this request (only the SDK\'s legacy shim still sends ' +
  'push requests, and only to 2025-era clients), so the mock no longer tests the handler: call the tool/prompt/resource, ' +
  'assert it returns { resultType: "input_required", inputRequests: { <key>: ... } }, then call it again with ' +
  'inputResponses: { <key>: <answer> } and the returned requestState (or drive it with a 2026-07-28 Client over createMcpHandler, ' +
  'whose elicitation/sampling/roots handlers answer the rounds)';


/** `vi.fn` → { namespace: 'vi', name: 'fn' }; `spyOn` → { name: 'spyOn' }. */
function directCallee(call: ts.CallExpression): { namespace?: string; name?: string } {
  const callee = call.expression;
  if (ts.isPropertyAccessExpression(callee)) {
    return { namespace: ts.isIdentifier(callee.expression) ? callee.expression.text : undefined, name: callee.name.text };
  }
  if (ts.isIdentifier(callee)) return { name: callee.text };
  return {};
}

/** Like `directCallee`, through chained configuration: `vi.fn().mockResolvedValue(...)` → `vi.fn`. */
function calleeParts(call: ts.CallExpression): { namespace?: string; name?: string } {
  const callee = call.expression;
  if (ts.isPropertyAccessExpression(callee) && ts.isCallExpression(callee.expression)) return calleeParts(callee.expression);
  return directCallee(call);
}

function isMockCall(expr: ts.Expression): boolean {
  let e = expr;
  while (ts.isAsExpression(e) || ts.isParenthesizedExpression(e) || ts.isSatisfiesExpression(e)) e = e.expression;
  if (!ts.isCallExpression(e)) return false;
  const { namespace, name } = calleeParts(e);
  if (!name || !MOCK_FACTORIES.has(name)) return false;
  return namespace === undefined || MOCK_NAMESPACES.has(namespace);
}

function isFunctionValue(expr: ts.Expression): boolean {
  let e = expr;
  while (ts.isAsExpression(e) || ts.isParenthesizedExpression(e) || ts.isSatisfiesExpression(e)) e = e.expression;
  return ts.isArrowFunction(e) || ts.isFunctionExpression(e);
}

function propertyName(name: ts.PropertyName | ts.MemberName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name)) return name.text;
  return undefined;
}

interface MockMatch {
  node: ts.Node;
  name: string;
  how: string;
}

/** Finds the legacy-request mocks in one test file. */
export function findTestMockNodes(file: string, text: string): { sourceFile: ts.SourceFile; matches: MockMatch[] } {
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKindOf(file));
  const matches: MockMatch[] = [];
  const visit = (node: ts.Node): void => {
    // { sendRequest: vi.fn() } / { elicitInput: async () => ({ action: 'accept' }) }
    if (ts.isPropertyAssignment(node)) {
      const name = propertyName(node.name);
      if (name && mockedMethod(name) && (isMockCall(node.initializer) || isFunctionValue(node.initializer))) {
        matches.push({ node, name, how: isMockCall(node.initializer) ? 'mock function' : 'fake implementation' });
      }
    } else if (ts.isMethodDeclaration(node) && ts.isObjectLiteralExpression(node.parent)) {
      const name = propertyName(node.name);
      if (name && mockedMethod(name)) matches.push({ node, name, how: 'fake implementation' });
    } else if (ts.isCallExpression(node)) {
      // vi.spyOn(server.server, 'elicitInput') / jest.spyOn(extra, 'sendRequest') / sinon.stub(obj, 'createMessage')
      const { namespace, name } = directCallee(node);
      const target = node.arguments[1];
      if (
        (name === 'spyOn' || name === 'stub' || name === 'replace') &&
        (namespace === undefined || MOCK_NAMESPACES.has(namespace)) &&
        target &&
        ts.isStringLiteralLike(target) &&
        mockedMethod(target.text)
      ) {
        matches.push({ node, name: target.text, how: `${namespace ? `${namespace}.` : ''}${name}` });
      }
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      // server.server.elicitInput = vi.fn() / extra.sendRequest = async () => ...
      const left = node.left;
      if (ts.isPropertyAccessExpression(left) && mockedMethod(left.name.text) && (isMockCall(node.right) || isFunctionValue(node.right))) {
        matches.push({ node, name: left.name.text, how: 'assigned mock' });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return { sourceFile, matches };
}

/** The statement (or class member / property) that holds a node: where a marker goes. */
function markerAnchor(node: ts.Node): ts.Node {
  let n: ts.Node = node;
  while (n.parent && !ts.isSourceFile(n.parent) && !ts.isBlock(n.parent) && !ts.isModuleBlock(n.parent) && !ts.isCaseClause(n.parent)) {
    if (ts.isObjectLiteralExpression(n.parent) && (ts.isPropertyAssignment(n) || ts.isMethodDeclaration(n))) return n;
    n = n.parent;
  }
  return n;
}

export interface TestMockScan {
  sites: SiteResult[];
  /** The text with an `@mcp-mrtr-todo` marker above every mock not yet marked. */
  output: string;
}

export function scanTestMocks(file: string, text: string): TestMockScan {
  if (!looksLikeTestFile(file, text)) return { sites: [], output: text };
  const { sourceFile, matches } = findTestMockNodes(file, text);
  const sites: SiteResult[] = [];
  const inserts = new Map<number, string>();
  for (const match of matches) {
    const start = match.node.getStart(sourceFile);
    const { line, character } = sourceFile.getLineAndCharacterOfPosition(start);
    const method = mockedMethod(match.name);
    const legacy = method && method !== 'generic' ? method : undefined;
    const reason = `test ${match.how} for ${match.name}${legacy ? ` (${legacy})` : ''}: migrated handlers return input_required instead of sending the request`;
    sites.push({
      line: line + 1,
      column: character + 1,
      method: 'test-mock',
      ...(legacy ? { kind: LEGACY_REQUESTS[legacy].kind } : {}),
      status: 'flagged',
      reason,
      advice: TEST_MOCK_ADVICE,
      snippet: match.node.getText(sourceFile).split('\n')[0]!.slice(0, 80),
    });
    const anchor = markerAnchor(match.node);
    const anchorStart = anchor.getStart(sourceFile);
    const lineStart = text.lastIndexOf('\n', anchorStart - 1) + 1;
    const previousLine = text.slice(text.lastIndexOf('\n', lineStart - 2) + 1, lineStart);
    if (previousLine.includes(TODO_MARKER) || inserts.has(lineStart)) continue;
    const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
    inserts.set(lineStart, `${indent}${markerComment(reason, shortAdvice(match.name))}\n`);
  }
  let output = text;
  for (const pos of [...inserts.keys()].sort((a, b) => b - a)) output = output.slice(0, pos) + inserts.get(pos)! + output.slice(pos);
  return { sites, output };
}

function shortAdvice(name: string): string {
  return `assert the handler's input_required result and retry with inputResponses instead of mocking ${name}`;
}

/**
 * Adds the test-mock sites (and markers) to a migration result, scanning the result's files and any
 * other `discovered` file. Site lines refer to the original text; markers go into the output. Files
 * the engine already reported test-mock sites for are left alone. The summary counts the new sites.
 */
export function addTestMockSites(
  result: MigrationResult,
  discovered: readonly string[],
  read: (file: string) => string | undefined,
): MigrationResult {
  const summary = { ...result.summary };
  const known = new Set(result.files.map((f) => f.path));
  const extra: FileResult[] = discovered.filter((p) => !known.has(p)).map((p) => ({ path: p, status: 'unchanged', sites: [] }));
  const files = [...result.files, ...extra].map((file): FileResult => {
    if (file.status === 'failed' || file.status === 'skipped' || file.status === 'created') return file;
    if (file.sites.some((s) => s.method === 'test-mock')) return file;
    const original = file.original ?? read(file.path);
    if (original === undefined) return file;
    if (!looksLikeTestFile(file.path, original)) return file;
    const found = scanTestMocks(file.path, original);
    if (found.sites.length === 0) return file;
    const before = file.output ?? original;
    const output = scanTestMocks(file.path, before).output;
    summary.sitesFound += found.sites.length;
    summary.sitesFlagged += found.sites.length;
    if (before === original && output !== original) summary.filesChanged += 1;
    return {
      ...file,
      original,
      output,
      status: file.status === 'unchanged' ? 'flagged' : file.status,
      sites: [...file.sites, ...found.sites].sort((a, b) => a.line - b.line || a.column - b.column),
    };
  });
  // Extra files with nothing found come back as the same object: leave them out of the result.
  return { ...result, summary, files: files.filter((f) => !extra.includes(f)) };
}
