/**
 * The engine's internal model: what the find/reach stages hand to the analyse/plan/rewrite
 * stages. Stage modules:
 *   find/     legacy request sites and handler registrations in a ts-morph SourceFile
 *   reach/    which handlers reach which sites (through helpers, across files), non-handler contexts
 *   rewrite/  handler (and helper) transformation into MRTR form, codec module, verify wiring
 *   run/ orchestration (run/stages.ts): load, upgrade, find, reach, rewrite, serving, verify, markers, results
 */
import type { LegacyMethod, LegacySiteShape, MrtrMethod, NonHandlerContext, RequestKind } from '@mcp-mrtr/surface';
import type { CallExpression, Node, NewExpression, SourceFile, ThrowStatement } from 'ts-morph';
import type { OriginalLineOf } from './report-lines.js';

/**
 * How the legacy request was spelled (the shapes and their examples are `@mcp-mrtr/surface`'s
 * `LegacySiteShape`). A bare method reference is not a site here: the calls made through it are.
 */
export type SiteShape = Exclude<LegacySiteShape, 'method-reference'>;

export interface Site {
  /** Stable id within a run: `<path>:<line>:<column>`. */
  id: string;
  sourceFile: SourceFile;
  /** The call (or `throw`/`new`) node in the source. */
  node: CallExpression | NewExpression | ThrowStatement;
  method: LegacyMethod;
  kind: RequestKind;
  shape: SiteShape;
  /** The params expression (`{ message, requestedSchema }`, `{ messages, maxTokens }`), when present. */
  params?: Node;
  /** Whether the call is directly awaited (`await x.elicitInput(...)`). */
  awaited: boolean;
  /** Name of the variable/parameter/return that receives the answer, for the wire key. */
  receiverName?: string;
  /** Why the request can never be rewritten, known when it is found (an agent class sends it). */
  obstacle?: string;
  line: number;
  column: number;
}

export type HandlerRegistration =
  | 'registerTool'
  | 'tool'
  | 'registerPrompt'
  | 'prompt'
  | 'registerResource'
  | 'resource'
  | 'setRequestHandler'
  /** A function a handler runs through a table lookup (`handlers[name](...)`, `tool.handler(...)`). */
  | 'dispatched';

export interface Handler {
  /** The function node that serves the request (arrow, function expression, method, declaration). */
  fn: Node;
  method: MrtrMethod;
  registration: HandlerRegistration;
  /** Tool/prompt/resource name when it is a literal, for reports and `bind`. */
  name?: string;
  /** The registration call. */
  registrationCall: CallExpression;
  sourceFile: SourceFile;
  /**
   * For low-level `setRequestHandler(CallToolRequestSchema, ...)` with a `switch (request.params.name)`
   * or a map of tool functions: the per-tool functions that the dispatcher calls.
   */
  dispatchTargets?: Node[];
  /** For 'dispatched': the handler that looks this function up and the call that runs it. */
  dispatch?: {
    dispatcher: Handler;
    call: CallExpression;
    /** The registration's call of the wrapper returning the dispatcher, which passes this function (`withParams(closeTicket)`). */
    wrapperCall?: CallExpression;
  };
  /**
   * The callback's context parameter index when the registration API's own rule cannot tell it:
   * a registration through the project's wrapper (`registrationCall` is the wrapper call).
   */
  contextIndex?: number;
}

/** One function-call edge on the way from a handler to a site. */
export interface CallPathStep {
  /** The call expression in the caller. */
  call: CallExpression;
  /** The function declaration/expression that is called. */
  callee: Node;
  /**
   * The call resolves to another declaration of the callee (an interface member its class
   * implements, a base-class method it overrides), named with its place: other instances run other
   * implementations.
   */
  virtualThrough?: string;
}

export interface Reach {
  site: Site;
  /** Handlers that reach the site (directly or through helpers). */
  handlers: Array<{ handler: Handler; path: CallPathStep[] }>;
  /** Non-handler contexts that reach it; any entry means the site cannot be fully migrated. */
  nonHandlerContexts: Array<{ context: NonHandlerContext; node: Node; description: string; testCall?: CallExpression }>;
}

/** What became of a site for one of the handlers or contexts that run it. */
export interface CallerDecision {
  /** `tools/call handler \`delete_file\``, `setInterval callback`, ... */
  caller: string;
  status: 'migrated' | 'flagged';
  reason?: string;
}

/** A decision about one site, produced by analyse/plan, consumed by rewrite and report. */
export interface SiteDecision {
  site: Site;
  /** `suppressed`: under a reasoned `mcp-mrtr-ignore` comment; never handed to the rewrite stage. */
  status: 'migrated' | 'flagged' | 'suppressed';
  reason?: string;
  advice?: string;
  /** Wire key chosen for the request (when migrated). */
  key?: string;
  /** One entry per handler (and non-handler context) that reaches the site. */
  callers?: CallerDecision[];
  /** Migrated: a 2025-era client that did not declare the request's capability fails where the legacy request failed, into a catch that does not read the error (rewrite/fail-open.ts undeclaredFailsIntoCatch). */
  undeclaredCaught?: true;
}

/** Options the rewrite stage needs from the run. */
export interface RewriteOptions {
  /** Environment variable the generated codec reads its HMAC key from (default MCP_REQUEST_STATE_KEY). */
  stateKeyEnv: string;
  /** True when the project was loaded with a tsconfig and the type checker can be trusted. */
  typeChecked: boolean;
  /**
   * The line of the user's file for a line of the analysed text (which the upgrade and inlining
   * change): every line a reason cites goes through it. Default: the analysed text's own lines.
   */
  originalLine?: OriginalLineOf;
  /**
   * The test files the project's tsconfig includes that the run does not hold (outside the paths it
   * was given): their calls of a table-dispatched tool are found before the tool gets a context
   * parameter (rewrite/outside-tests.ts). Computed when first needed.
   */
  testsOutsideRun?: () => readonly string[];
}

/**
 * Contract between orchestration (migrate.ts) and the rewrite stage (rewrite/index.ts):
 *
 *   rewriteHandlers(project, reaches, options): RewriteOutcome
 *
 * - receives every Reach found in the run (sites with the handlers/contexts reaching them);
 * - rewrites in place, in the ts-morph project, every handler (and helper) it can migrate safely,
 *   adds imports, creates/updates the codec module and wires `requestState: { verify }` into server
 *   constructions;
 * - never half-rewrites a handler: a handler it cannot prove safe is left untouched and all its
 *   sites come back `flagged` with a specific reason;
 * - does NOT add `@mcp-mrtr-todo` markers: orchestration adds them for every flagged decision after
 *   the rewrite (markers are placed above the statement holding the site).
 */
export interface RewriteOutcome {
  decisions: SiteDecision[];
  /** Source files created by the rewrite (e.g. the codec module), absolute paths. */
  createdFiles: string[];
}
