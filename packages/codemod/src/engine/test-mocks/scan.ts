/**
 * Test-mock sites of one file: mechanical spies are rewritten into
 * client answer handlers (`client-answer.ts`) and reported as `migrated`; every other mock of a
 * legacy request is reported as `flagged` with advice and gets an `@mcp-mrtr-todo` marker. The run's
 * test-mock stage (src/run/test-mocks.ts) applies it to the files of a run.
 */
import { LEGACY_REQUESTS, TODO_MARKER, type LegacyMethod } from '@mcp-mrtr/surface';
import { ts } from 'ts-morph';
import { markerComment } from '../markers.js';
import type { SiteResult } from '../../types.js';
import { findTestMockNodes, looksLikeTestFile, mockedMethod, type MockMatch } from './find.js';
import { applyEdits, type TextEdit } from '../text-edits.js';
import { planClientAnswers, type ClientAnswerPlan } from './client-answer.js';
import { withoutDrivenFakes } from './driven-fakes.js';
import { SHIM_SENT_MEMBERS } from './shim-answered-calls.js';

export const TEST_MOCK_ADVICE =
  'the migrated handler returns input_required instead of sending this request (only the SDK\'s legacy shim still sends ' +
  'push requests, and only to 2025-era clients that declared the capability), so the mock no longer tests the handler: ' +
  'drive the tool/prompt/resource through a Client that declares the capability and answers with ' +
  'client.setRequestHandler(\'elicitation/create\' | \'sampling/createMessage\' | \'roots/list\', ...) (works on both protocol eras), ' +
  'or call it, assert it returns { resultType: "input_required", inputRequests: { <key>: ... } }, then call it again with ' +
  'inputResponses: { <key>: <answer> } and the returned requestState';

/** The statement (or class member / property) that holds a node: where a marker goes. */
function markerAnchor(node: ts.Node): ts.Node {
  let n: ts.Node = node;
  while (n.parent && !ts.isSourceFile(n.parent) && !ts.isBlock(n.parent) && !ts.isModuleBlock(n.parent) && !ts.isCaseClause(n.parent)) {
    if (ts.isObjectLiteralExpression(n.parent) && (ts.isPropertyAssignment(n) || ts.isMethodDeclaration(n))) return n;
    n = n.parent;
  }
  return n;
}

function shortAdvice(name: string): string {
  return `answer from the test client (declare the capability, client.setRequestHandler) or assert the handler's input_required result and retry with inputResponses, instead of mocking ${name}`;
}

export interface TestMockScan {
  sites: SiteResult[];
  /** The text with the mechanical mocks rewritten and an `@mcp-mrtr-todo` marker above every other mock not yet marked. */
  output: string;
}

export interface ScanOptions {
  /** Rewrite the mechanical mocks (default); `false` only marks them, like every other mock. */
  rewrite?: boolean;
  /**
   * The legacy requests the migration turned into input_required rounds. When given, only mocks of
   * those requests are reported (a generic `sendRequest` mock when any was): a mock of a request no
   * handler stopped sending still intercepts it, so it keeps testing what it tested.
   */
  migrated?: ReadonlySet<LegacyMethod>;
  /** The file's text after the migration, when this is another text of it: fakes answering its driven helper calls are not reported. */
  drivenFrom?: string;
  /**
   * The start positions of the spies that answer a handler call the test-mock stage drives
   * (`spy-answers.ts`): reported as rewritten, as the call now goes through them.
   */
  answering?: ReadonlySet<number>;
  /** Those of `answering` that fail, whose test's call is driven as a client not declaring their capability (`shim-answered-calls.ts`). */
  undeclared?: ReadonlySet<number>;
  /** Failing assigned mocks at a request-handler call that is not driven: why, added to their flag's reason (`shim-answered-calls.ts`). */
  undrivenFailing?: ReadonlyMap<number, string>;
}

const SPY_ANSWER_NOTE =
  'the spy answers the inputRequests of the migrated handler the test calls: the call goes through the helper added at the end of this file, which calls the spy with each request\'s params and retries with the answers';
const SHIM_ANSWER_NOTE =
  'the mock answers the inputRequests of the migrated handler through the SDK\'s legacy shim: the test\'s calls of the server\'s request handler go through the helper added at the end of this file, which first initializes the server as a 2025-era client declaring the mock\'s capability';

/** A failing mock whose test's call is driven as a client that did not declare the request's capability. */
function undeclaredNote(member: string): string {
  const capability = SHIM_SENT_MEMBERS[member] ?? member;
  return (
    `the mock fails the request, which the legacy handler's catch took as a client that cannot be asked (the legacy request failed too for a client that did not declare ${capability}): ` +
    `the test's calls of the server's request handler go through the helper added at the end of this file, which first initializes the server as a 2025-era client that does not declare ${capability}, ` +
    `for which the migrated capability check fails into that catch (the mock itself is no longer called; a client that declares ${capability} and fails the request now fails the call, as the request's own site says)`
  );
}

/** Whether a mock of `name` fakes a request the migration changed. */
function mocksMigratedRequest(name: string, migrated: ReadonlySet<LegacyMethod> | undefined): boolean {
  if (!migrated) return true;
  const method = mockedMethod(name);
  return method === 'generic' || method === undefined ? migrated.size > 0 : migrated.has(method);
}

function siteOf(match: MockMatch, sourceFile: ts.SourceFile): Omit<SiteResult, 'status' | 'reason'> & { base: string } {
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(match.node.getStart(sourceFile));
  const method = mockedMethod(match.name);
  const legacy = method && method !== 'generic' ? method : undefined;
  return {
    line: line + 1,
    column: character + 1,
    method: 'test-mock',
    ...(legacy ? { kind: LEGACY_REQUESTS[legacy].kind } : {}),
    snippet: match.node.getText(sourceFile).split('\n')[0]!.slice(0, 80),
    base: `test ${match.how} for ${match.name}${legacy ? ` (${legacy})` : ''}: migrated handlers return input_required instead of sending the request`,
  };
}

export function scanTestMocks(file: string, text: string, options: ScanOptions = {}): TestMockScan {
  if (!looksLikeTestFile(file, text)) return { sites: [], output: text };
  const found = findTestMockNodes(file, text);
  const { sourceFile } = found;
  const reported = (list: MockMatch[]) => list.filter((m) => mocksMigratedRequest(m.name, options.migrated));
  const after = options.drivenFrom === undefined ? undefined : findTestMockNodes(file, options.drivenFrom);
  const matches = withoutDrivenFakes(sourceFile, reported(found.matches), after && { sourceFile: after.sourceFile, matches: reported(after.matches) });
  if (matches.length === 0) return { sites: [], output: text };
  const { plans, edits } = options.rewrite === false ? { plans: matches.map(() => ({ rewritten: false as const, why: '' })), edits: [] } : planRewrites(sourceFile, matches, options.answering, options.undeclared);
  const sites: SiteResult[] = [];
  // Markers: insertions at the start of the line of a flagged mock's statement, one per line.
  const markers: TextEdit[] = [];
  const markedLines = new Set<number>();
  matches.forEach((match, i) => {
    const plan = plans[i]!;
    const { base, ...site } = siteOf(match, sourceFile);
    if (plan.rewritten) {
      sites.push({ ...site, status: 'migrated', reason: plan.note });
      return;
    }
    const failing = options.undrivenFailing?.get(match.node.getStart(sourceFile));
    const why = plan.why && failing ? `${plan.why}; ${failing}` : plan.why;
    const reason = why ? `${base}; not rewritten: ${why}` : base;
    sites.push({ ...site, status: 'flagged', reason, advice: TEST_MOCK_ADVICE });
    const anchorStart = markerAnchor(match.node).getStart(sourceFile);
    const lineStart = text.lastIndexOf('\n', anchorStart - 1) + 1;
    const previousLine = text.slice(text.lastIndexOf('\n', lineStart - 2) + 1, lineStart);
    if (previousLine.includes(TODO_MARKER) || markedLines.has(lineStart)) return;
    markedLines.add(lineStart);
    const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
    markers.push({ start: lineStart, end: lineStart, text: `${indent}${markerComment(reason, shortAdvice(match.name))}\n` });
  });
  return { sites, output: withRewritesAndMarkers(text, edits, markers) };
}

/** The client-answer rewrites of the matches, but for the spies answering a driven handler call (rewritten by that call's route). */
function planRewrites(sourceFile: ts.SourceFile, matches: MockMatch[], answering: ReadonlySet<number> = new Set(), undeclared: ReadonlySet<number> = new Set()): { plans: ClientAnswerPlan[]; edits: TextEdit[] } {
  const answers = (match: MockMatch) => (match.shape === 'spy' || match.shape === 'assigned') && answering.has(match.node.getStart(sourceFile));
  const planned = planClientAnswers(sourceFile, matches.filter((m) => !answers(m)));
  let next = 0;
  const plans = matches.map((match): ClientAnswerPlan => (answers(match) ? { rewritten: true, method: mockedMethod(match.name) as LegacyMethod, note: match.shape === 'spy' ? SPY_ANSWER_NOTE : undeclared.has(match.node.getStart(sourceFile)) ? undeclaredNote(match.name) : SHIM_ANSWER_NOTE } : planned.plans[next++]!));
  return { plans, edits: planned.edits };
}

/**
 * The rewrites and the markers (insertions) applied in one pass of the edit toolkit, which refuses
 * overlapping edits. At one position the toolkit puts a later edit of the list before an earlier
 * one, so both lists go in back to front, markers first: at one position the rewrites' texts come
 * first, in their order, then the markers, in theirs.
 */
function withRewritesAndMarkers(text: string, edits: TextEdit[], markers: TextEdit[]): string {
  return applyEdits(text, [...markers].reverse().concat([...edits].reverse()));
}

/** The test-mock sites of one test file (lines of the original text) and its text with them rewritten or marked. */
export function mockSites(file: string, original: string, before: string, migrated: ReadonlySet<LegacyMethod>, rewrite = true, answering?: { mocks: ReadonlySet<number>; undeclared: ReadonlySet<number>; undrivenFailing: ReadonlyMap<number, string> }): TestMockScan | undefined {
  const atOriginal = scanTestMocks(file, original, { rewrite: false, migrated, drivenFrom: before });
  if (atOriginal.sites.length === 0) return undefined;
  let scanned = scanTestMocks(file, before, { migrated, rewrite, ...(answering ? { answering: answering.mocks, undeclared: answering.undeclared, undrivenFailing: answering.undrivenFailing } : {}) });
  // The upgrade does not touch mocks, so both texts list them in the same order; if not, only mark.
  if (scanned.sites.length !== atOriginal.sites.length) scanned = scanTestMocks(file, before, { rewrite: false, migrated });
  return {
    output: scanned.output,
    sites: scanned.sites.map((site, i) => ({ ...site, line: atOriginal.sites[i]?.line ?? site.line, column: atOriginal.sites[i]?.column ?? site.column })),
  };
}

/** Whether a range of `text` holds a mock this stage reports: a fake context around it stays as it is. */
export function reportedMockInside(file: string, text: string, migrated: ReadonlySet<LegacyMethod>): (start: number, end: number) => boolean {
  const { sourceFile, matches } = findTestMockNodes(file, text);
  const ranges = matches.filter((m) => mocksMigratedRequest(m.name, migrated)).map((m) => [m.node.getStart(sourceFile), m.node.getEnd()] as const);
  return (start, end) => ranges.some(([s, e]) => s >= start && e <= end);
}
