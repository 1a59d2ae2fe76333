/**
 * The knowledge of MCP's API surface that both the codemod and the ESLint plugin rely on.
 * Everything about names (legacy methods, SDK call shapes, schemas, registration APIs, target
 * builders) lives here so that the two packages can never disagree.
 */

/** The three server-to-client requests that MCP 2026-07-28 removed from the push channel. */
export type RequestKind = 'elicitation' | 'sampling' | 'roots';

export type LegacyMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

export interface LegacyRequestInfo {
  readonly kind: RequestKind;
  readonly method: LegacyMethod;
  /** Method name on v1 `Server` / v2 instance `server`. */
  readonly serverMethod: string;
  /** Method name on the v2 push-style `ctx.mcpReq`, where one exists. */
  readonly ctxMethod?: string;
  /** v1 result schema passed to `sendRequest` / `request`. */
  readonly resultSchema: string;
  /** v1/v2 result type name of the legacy answer. */
  readonly resultType: string;
  /** The `inputRequired` builder that replaces it (MRTR). */
  readonly builder: string;
  /** The `inputResponse(...)` kind the answer comes back as. */
  readonly responseKind: 'elicit' | 'sampling' | 'roots';
  /** Deprecated by SEP-2577 (still allowed, linted as a warning). */
  readonly deprecated: boolean;
  /** Client capability that must be declared for the request to be embedded. */
  readonly capability: 'elicitation' | 'sampling' | 'roots';
  /** Default wire key when no variable names the answer. */
  readonly defaultKey: string;
}

export const LEGACY_REQUESTS: Readonly<Record<LegacyMethod, LegacyRequestInfo>> = {
  'elicitation/create': {
    kind: 'elicitation',
    method: 'elicitation/create',
    serverMethod: 'elicitInput',
    ctxMethod: 'elicitInput',
    resultSchema: 'ElicitResultSchema',
    resultType: 'ElicitResult',
    builder: 'inputRequired.elicit',
    responseKind: 'elicit',
    deprecated: false,
    capability: 'elicitation',
    defaultKey: 'elicitation',
  },
  'sampling/createMessage': {
    kind: 'sampling',
    method: 'sampling/createMessage',
    serverMethod: 'createMessage',
    ctxMethod: 'requestSampling',
    resultSchema: 'CreateMessageResultSchema',
    resultType: 'CreateMessageResult',
    builder: 'inputRequired.createMessage',
    responseKind: 'sampling',
    deprecated: true,
    capability: 'sampling',
    defaultKey: 'sampling',
  },
  'roots/list': {
    kind: 'roots',
    method: 'roots/list',
    serverMethod: 'listRoots',
    resultSchema: 'ListRootsResultSchema',
    resultType: 'ListRootsResult',
    builder: 'inputRequired.listRoots',
    responseKind: 'roots',
    deprecated: true,
    capability: 'roots',
    defaultKey: 'roots',
  },
};

export const LEGACY_METHODS = Object.keys(LEGACY_REQUESTS) as LegacyMethod[];

export function isLegacyMethod(value: unknown): value is LegacyMethod {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(LEGACY_REQUESTS, value);
}

/** `server.elicitInput(...)` etc. on a v1 `Server`, `McpServer['server']` or v2 instance server. */
export const SERVER_METHOD_TO_LEGACY: Readonly<Record<string, LegacyMethod>> = {
  elicitInput: 'elicitation/create',
  createMessage: 'sampling/createMessage',
  listRoots: 'roots/list',
};

/** v2 push style: `ctx.mcpReq.elicitInput(...)`, `ctx.mcpReq.requestSampling(...)`. */
export const CTX_MCPREQ_METHOD_TO_LEGACY: Readonly<Record<string, LegacyMethod>> = {
  elicitInput: 'elicitation/create',
  requestSampling: 'sampling/createMessage',
};

/**
 * How a legacy request is spelled in code: the site shapes the codemod's find stage
 * (`engine/find/sites.ts`, on ts-morph) and the plugin's `utils/legacy-sites.ts` (on ESTree) both
 * recognise, each with its own logic over these tables.
 */
export type LegacySiteShape =
  /** `server.elicitInput(params)`, `mcp.server.createMessage(params)`, `this.server.listRoots()`, `.call` / `.apply` of one */
  | 'server-method'
  /** v2 `ctx.mcpReq.elicitInput(params)` / `ctx.mcpReq.requestSampling(params)` */
  | 'ctx-method'
  /**
   * A legacy method taken as a value and not called on the spot: `.bind(...)`, destructuring,
   * passing it on. Only the lint rule reports the reference itself; the codemod reports the calls
   * made through it (`alias-call`).
   */
  | 'method-reference'
  /** a call through an alias: `const ask = server.elicitInput.bind(server); ask(params)`, a destructured method */
  | 'alias-call'
  /** `extra.sendRequest({ method, params }, Schema)` or destructured `sendRequest(...)` */
  | 'send-request'
  /** `server.request({ method, params }, Schema)` */
  | 'server-request'
  /** v2 `ctx.mcpReq.send({ method, params })` */
  | 'ctx-send'
  /** a hand-built JSON-RPC request object `{ jsonrpc: '2.0', id, method: 'elicitation/create', params }` sent by server code */
  | 'raw-jsonrpc'
  /** `throw new UrlElicitationRequiredError([...])` */
  | 'url-elicitation-error'
  /** `server.createElicitationCompletionNotifier(id)` */
  | 'completion-notifier';

/**
 * Generic senders that take a `{ method, params }` request, and the site shape each makes:
 * `extra.sendRequest` (a handler's context; destructured too), `server.request`, `ctx.mcpReq.send`.
 */
export const GENERIC_SENDER_SHAPES = {
  sendRequest: 'send-request',
  request: 'server-request',
  send: 'ctx-send',
} as const satisfies Readonly<Record<string, LegacySiteShape>>;
export type GenericSender = keyof typeof GENERIC_SENDER_SHAPES;
export const GENERIC_REQUEST_SENDERS = Object.keys(GENERIC_SENDER_SHAPES) as GenericSender[];

/** Field names of the `{ method, params }` request a generic sender takes. */
export const REQUEST_FIELDS = { method: 'method', params: 'params' } as const;
/** A hand-built JSON-RPC request: `{ jsonrpc: '2.0', id, method, params }`. */
export const JSONRPC_REQUEST_FIELDS = { version: 'jsonrpc', id: 'id', ...REQUEST_FIELDS } as const;
export const JSONRPC_VERSION = '2.0';

/**
 * `Function.prototype` methods applied to a legacy method taken as a value: `.call` / `.apply` send
 * the request on the spot (the params are the second argument, or the first element of the array
 * `.apply` takes), `.bind` makes an alias whose calls are the sites.
 */
export const METHOD_INVOKERS = ['call', 'apply'] as const;
export const METHOD_BINDER = 'bind';

/** Result schema name → legacy method, for `sendRequest(req, ElicitResultSchema)`. */
export const RESULT_SCHEMA_TO_LEGACY: Readonly<Record<string, LegacyMethod>> = {
  ElicitResultSchema: 'elicitation/create',
  CreateMessageResultSchema: 'sampling/createMessage',
  CreateMessageResultWithToolsSchema: 'sampling/createMessage',
  ListRootsResultSchema: 'roots/list',
};

/** Legacy URL-mode elicitation surface (2025): becomes an `inputRequired.elicitUrl` round. */
export const URL_ELICITATION_ERROR = 'UrlElicitationRequiredError';
export const URL_ELICITATION_ERROR_CODE = -32042;
export const ELICITATION_COMPLETION_NOTIFIER = 'createElicitationCompletionNotifier';
export const ELICITATION_COMPLETE_NOTIFICATION = 'notifications/elicitation/complete';
export const ROOTS_LIST_CHANGED_NOTIFICATION = 'notifications/roots/list_changed';
export const ROOTS_LIST_CHANGED_SCHEMA = 'RootsListChangedNotificationSchema';

/** The only client requests whose handlers may return `input_required`. */
export type MrtrMethod = 'tools/call' | 'prompts/get' | 'resources/read';
export const MRTR_METHODS: readonly MrtrMethod[] = ['tools/call', 'prompts/get', 'resources/read'];

export function isMrtrMethod(value: unknown): value is MrtrMethod {
  return typeof value === 'string' && (MRTR_METHODS as readonly string[]).includes(value);
}

/** Request schema names used with low-level `setRequestHandler(Schema, handler)`. */
export const REQUEST_SCHEMA_TO_METHOD: Readonly<Record<string, string>> = {
  CallToolRequestSchema: 'tools/call',
  GetPromptRequestSchema: 'prompts/get',
  ReadResourceRequestSchema: 'resources/read',
  ListToolsRequestSchema: 'tools/list',
  ListPromptsRequestSchema: 'prompts/list',
  ListResourcesRequestSchema: 'resources/list',
  ListResourceTemplatesRequestSchema: 'resources/templates/list',
  CompleteRequestSchema: 'completion/complete',
  SubscribeRequestSchema: 'resources/subscribe',
  UnsubscribeRequestSchema: 'resources/unsubscribe',
  SetLevelRequestSchema: 'logging/setLevel',
  InitializeRequestSchema: 'initialize',
  PingRequestSchema: 'ping',
};

/**
 * The task methods of the 2025-11-25 protocol (a client polls a task-augmented request's outcome)
 * and v1's request schemas for them. v2 keeps their wire types but offers none of them on its typed
 * `setRequestHandler` / `request` surface: a low-level handler for one has no v2 form.
 */
export const TASK_REQUEST_SCHEMA_TO_METHOD: Readonly<Record<string, string>> = {
  GetTaskRequestSchema: 'tasks/get',
  GetTaskPayloadRequestSchema: 'tasks/result',
  ListTasksRequestSchema: 'tasks/list',
  CancelTaskRequestSchema: 'tasks/cancel',
};
export const TASK_REQUEST_METHODS: readonly string[] = Object.values(TASK_REQUEST_SCHEMA_TO_METHOD);

/** Client-side request handlers: code that *answers* legacy requests, never a server-side site. */
export const CLIENT_HANDLED_REQUEST_SCHEMAS = ['ElicitRequestSchema', 'CreateMessageRequestSchema', 'ListRootsRequestSchema'];

export interface RegistrationApi {
  readonly method: MrtrMethod;
  /** The handler is the last function argument. */
  readonly handler: 'last-function';
}

/** `McpServer` high-level registration methods whose callback serves an MRTR-capable request. */
export const REGISTRATION_APIS: Readonly<Record<string, RegistrationApi>> = {
  registerTool: { method: 'tools/call', handler: 'last-function' },
  tool: { method: 'tools/call', handler: 'last-function' },
  registerPrompt: { method: 'prompts/get', handler: 'last-function' },
  prompt: { method: 'prompts/get', handler: 'last-function' },
  registerResource: { method: 'resources/read', handler: 'last-function' },
  resource: { method: 'resources/read', handler: 'last-function' },
};

/** Low-level registration: `server.setRequestHandler(SchemaOrMethod, handler)`. */
export const LOW_LEVEL_REGISTRATION = 'setRequestHandler';
export const NOTIFICATION_REGISTRATION = 'setNotificationHandler';

/** Callbacks of `ResourceTemplate` / `completable` that are *not* MRTR-capable. */
export const NON_MRTR_TEMPLATE_CALLBACKS = ['list', 'complete'] as const;
export const RESOURCE_TEMPLATE_CLASS = 'ResourceTemplate';
export const COMPLETABLE_FUNCTION = 'completable';

/**
 * Contexts that have no MRTR form: a legacy request reached from one of them must be reported,
 * never rewritten. Names are property/function names as they appear in code.
 */
export const NON_HANDLER_HOOK_PROPERTIES = ['oninitialized', 'onclose', 'onerror'] as const;
export const TIMER_FUNCTIONS = ['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask'] as const;
export const EVENT_EMITTER_METHODS = ['on', 'once', 'addListener', 'addEventListener', 'prependListener'] as const;
export const HTTP_ROUTE_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'all', 'use'] as const;

export type NonHandlerContext =
  | 'lifecycle-hook'
  | 'notification-handler'
  | 'timer'
  | 'event-emitter'
  | 'http-route'
  | 'non-mrtr-request-handler'
  | 'detached-promise'
  | 'module-scope'
  | 'test-code'
  | 'contextless-call'
  | 'unreachable';

/** Advice shown for a site that has no MRTR form, keyed by where it sits. */
export const NON_HANDLER_ADVICE: Readonly<Record<NonHandlerContext, string>> = {
  'lifecycle-hook':
    'server-initiated requests in lifecycle hooks (oninitialized/onclose) have no MRTR form: ask inside the tools/call, prompts/get or resources/read handler that needs the answer, via inputRequired(...)',
  'notification-handler':
    'a notification handler cannot return input_required: move the request into the tool/prompt/resource handler that needs the answer (roots: ask with inputRequired.listRoots() there)',
  timer:
    'timers run outside any request: there is no client to ask; ask inside the handler that needs the answer, or drop the request',
  'event-emitter':
    'event listeners run outside any request: there is no client to ask; move the request into a tools/call, prompts/get or resources/read handler',
  'http-route':
    'an HTTP route is not an MCP request: it cannot return input_required; move the request into an MCP tool/prompt/resource handler',
  'non-mrtr-request-handler':
    'only tools/call, prompts/get and resources/read may return input_required; move the request into one of those handlers',
  'detached-promise':
    'a fire-and-forget request outlives the request that started it: make it part of the handler flow (await it) or remove it',
  'module-scope':
    'module-level code runs outside any request: ask inside a tools/call, prompts/get or resources/read handler instead',
  'test-code':
    'a unit test calls this code directly: a rewrite for the handlers would change what the test calls; migrate the handlers by hand and drive them from the test (a first call returns input_required, a retry with inputResponses answers), or drop the direct call from the test',
  'contextless-call':
    'other code calls this function without the context the request is sent on (it runs the function, never the request): a rewrite for the handlers would change what that code runs; give the handlers a function of their own that takes the context, then run the codemod again',
  unreachable:
    'no tools/call, prompts/get or resources/read handler reaches this call: ask inside the handler that needs the answer, via inputRequired(...)',
};

/** Packages. */
export const LEGACY_SDK_PACKAGE = '@modelcontextprotocol/sdk';
export const TARGET_SERVER_PACKAGE = '@modelcontextprotocol/server';
export const TARGET_SERVER_STDIO_ENTRY = '@modelcontextprotocol/server/stdio';
export const TARGET_CLIENT_PACKAGE = '@modelcontextprotocol/client';
export const TARGET_SERVER_VERSION = '^2.4.0';
export const V2_PACKAGES = [
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/core',
  '@modelcontextprotocol/node',
  '@modelcontextprotocol/express',
  '@modelcontextprotocol/server-legacy',
] as const;
export const MCP_PACKAGE_PREFIX = '@modelcontextprotocol/';
/** Ranges added to package.json for the v2 packages (they are versioned independently). */
export const V2_PACKAGE_VERSIONS: Readonly<Record<string, string>> = {
  '@modelcontextprotocol/server': TARGET_SERVER_VERSION,
  '@modelcontextprotocol/client': TARGET_SERVER_VERSION,
  '@modelcontextprotocol/core': TARGET_SERVER_VERSION,
  '@modelcontextprotocol/node': '^2.1.2',
  '@modelcontextprotocol/express': '^2.0.2',
  '@modelcontextprotocol/server-legacy': '^2.3.1',
};
/** Node.js (`req`, `res`) adapter of a fetch-shaped MCP handler. */
export const TARGET_NODE_PACKAGE = '@modelcontextprotocol/node';
export const TARGET_NODE_ADAPTER = 'toNodeHandler';
/** Node.js request → web `Request` (what `isLegacyRequest` classifies). */
export const TARGET_NODE_TO_WEB_REQUEST = 'toWebRequest';

/** Server classes whose instances send legacy requests. */
export const SERVER_CLASSES = ['Server', 'McpServer'] as const;
/**
 * Cloudflare's `agents` package: an `McpAgent` subclass sends elicitation itself
 * (`this.elicitInput(...)`), outside the MCP SDK server.
 */
export const AGENT_BASE_CLASS = 'McpAgent';
export const AGENT_PACKAGE = 'agents';
/** v1 `McpServer` exposes the low-level server as `.server`. */
export const MCP_SERVER_INNER_PROPERTY = 'server';
/** Per-request context property that holds v2 request helpers. */
export const CTX_MCPREQ_PROPERTY = 'mcpReq';

/** The MRTR target API (`@modelcontextprotocol/server` 2.x). */
export const TARGET = {
  inputRequired: 'inputRequired',
  inputResponse: 'inputResponse',
  acceptedContent: 'acceptedContent',
  createRequestStateCodec: 'createRequestStateCodec',
  fromJsonSchema: 'fromJsonSchema',
  inputRequiredResultType: 'InputRequiredResult',
  resultTypeField: 'resultType',
  inputRequiredValue: 'input_required',
  inputRequestsField: 'inputRequests',
  inputResponsesField: 'inputResponses',
  requestStateField: 'requestState',
  requestStateVerifyOption: 'verify',
  clientCapabilitiesMetaKey: 'CLIENT_CAPABILITIES_META_KEY',
  envelopeProperty: 'envelope',
  createMcpHandler: 'createMcpHandler',
  isLegacyRequest: 'isLegacyRequest',
  serveStdio: 'serveStdio',
  /** `inputRequired.<builder>(...)` helpers. */
  builders: {
    elicit: 'elicitation/create',
    elicitUrl: 'elicitation/create',
    createMessage: 'sampling/createMessage',
    listRoots: 'roots/list',
  } as Readonly<Record<string, LegacyMethod>>,
} as const;

/** Default environment variable that holds the requestState HMAC key in generated code. */
export const DEFAULT_STATE_KEY_ENV = 'MCP_REQUEST_STATE_KEY';
export const MIN_STATE_KEY_BYTES = 32;
export const DEFAULT_STATE_TTL_SECONDS = 600;

/** Legacy serving shapes that only speak the 2025 era. */
export const LEGACY_TRANSPORTS = ['StdioServerTransport', 'StreamableHTTPServerTransport', 'SSEServerTransport'] as const;

/** Field names that look like secrets: never ask for them in form mode, never put them in state. */
export const SENSITIVE_NAME_PATTERN =
  /(pass(word|wd|phrase)?|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credential|auth(orization)?[_-]?(code|header)?$|ssn|social[_-]?security|cvv|cvc|card[_-]?(number|no)|credit[_-]?card|iban|pin(code)?$|otp|session[_-]?id|cookie)/i;

export function looksSensitive(name: string): boolean {
  return SENSITIVE_NAME_PATTERN.test(name);
}

/** Sampling `includeContext` values deprecated with SEP-2577. */
export const DEPRECATED_INCLUDE_CONTEXT = ['thisServer', 'allServers'] as const;

/** Cache hint fields that must not appear on input_required results or MRTR resources. */
export const CACHE_HINT_FIELDS = ['ttl', 'ttlMs', 'cacheTtl', 'maxAge', 'cacheControl', 'cache', 'etag', 'lastModified', 'immutable'] as const;

/**
 * Cheap text pre-filter: a file that contains none of these tokens cannot hold a legacy site.
 * Must stay a superset of every name the full analysis looks for.
 */
export const CANDIDATE_TOKENS: readonly string[] = [
  'elicitInput',
  'createMessage',
  'listRoots',
  'requestSampling',
  'sendRequest',
  'elicitation/create',
  'sampling/createMessage',
  'roots/list',
  URL_ELICITATION_ERROR,
  ELICITATION_COMPLETION_NOTIFIER,
  // `sendRequest(req, ListRootsResultSchema)` / `server.request(req, CreateMessageResultSchema)`
  // name the request only through the schema (capitalised, so the method tokens miss them).
  ...Object.keys(RESULT_SCHEMA_TO_LEGACY),
];

export function mayContainLegacySite(text: string): boolean {
  for (const token of CANDIDATE_TOKENS) if (text.includes(token)) return true;
  return false;
}

/** Tokens that make a file relevant to MRTR lint rules beyond legacy sites. */
export const MRTR_TOKENS: readonly string[] = [
  'inputRequired',
  'input_required',
  'requestState',
  'inputResponses',
  'inputResponse',
  'acceptedContent',
  'createRequestStateCodec',
  'getClientCapabilities',
];

/** Human phrase for the MRTR form that replaces a legacy request. */
export function replacementFor(method: LegacyMethod): string {
  const info = LEGACY_REQUESTS[method];
  switch (info.kind) {
    case 'elicitation':
      return 'return inputRequired({ inputRequests: { <key>: inputRequired.elicit({ message, requestedSchema }) } }) and read the answer with acceptedContent(ctx.mcpReq.inputResponses, <key>, schema) on the retry';
    case 'sampling':
      return 'return inputRequired({ inputRequests: { <key>: inputRequired.createMessage(params) } }) and read the answer with inputResponse(ctx.mcpReq.inputResponses, <key>) on the retry (sampling is deprecated by SEP-2577)';
    case 'roots':
      return 'return inputRequired({ inputRequests: { <key>: inputRequired.listRoots() } }) and read the answer with inputResponse(ctx.mcpReq.inputResponses, <key>) on the retry (roots are deprecated by SEP-2577)';
  }
}

/** Marker comment placed above every site the codemod could not migrate. */
export const TODO_MARKER = '@mcp-mrtr-todo';
export const PROJECT_DOCS_BASE = 'https://github.com/mcp-mrtr/mcp-mrtr/blob/main';

/*
 * ---- Suppression comments, honoured alike by `mcp-mrtr check`, `mcp-mrtr migrate` and the plugin. ----
 *
 *   // mcp-mrtr-ignore: <reason>
 *   await server.server.listRoots();
 *
 * A comment (line or block) whose text starts with the directive suppresses the legacy request that
 * starts on the next line of code (comments in between, such as an `@mcp-mrtr-todo` marker, are
 * skipped) or, placed at the end of a line of code, the request that starts on that line. The
 * statement holding a request counts too: a comment above `await Promise.all([...])` covers every
 * request in it. The reason is required: a directive without one suppresses nothing and is reported.
 */
export const SUPPRESSION_DIRECTIVE = 'mcp-mrtr-ignore';

export interface ParsedSuppression {
  /** The reason after the directive, whitespace collapsed; undefined when missing. */
  reason?: string;
}

const SUPPRESSION_PATTERN = new RegExp(`^[\\s*]*${SUPPRESSION_DIRECTIVE}(?![\\w-])\\s*:?([\\s\\S]*)$`);

/** The suppression a comment's text (without `//` or the block delimiters) holds, if it is one. */
export function parseSuppression(commentText: string): ParsedSuppression | undefined {
  const match = SUPPRESSION_PATTERN.exec(commentText);
  if (!match) return undefined;
  const reason = match[1]!.replace(/\s*\*+\s*/g, ' ').replace(/\s+/g, ' ').trim();
  return reason ? { reason } : {};
}

/** Only whitespace and comments. */
const TRIVIA_ONLY = /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*$/;

/**
 * Whether a suppression comment at `[commentStart, commentEnd)` of `text` covers code that starts on
 * the line beginning at offset `lineStart`: the comment sits alone on its line(s) with only
 * whitespace and comments between it and that line, or trails code on that very line.
 */
export function suppressionCovers(text: string, commentStart: number, commentEnd: number, lineStart: number): boolean {
  const commentLineStart = text.lastIndexOf('\n', commentStart - 1) + 1;
  const ownLine = text.slice(commentLineStart, commentStart).trim() === '';
  if (!ownLine) return commentLineStart === lineStart;
  return commentEnd <= lineStart && TRIVIA_ONLY.test(text.slice(commentEnd, lineStart));
}

/* ---- Tables used by the plugin's safety rules (no-sensitive-elicitation ... require-request-state-binding). ---- */

/**
 * Word-level secret detection. `SENSITIVE_NAME_PATTERN` is a substring match and therefore also
 * hits `passengers`, `maxTokens`, `footprint` or `className`; the rules that report (rather than
 * merely avoid) a field split names into words first (`apiKey` → api key, `card_number` → card number)
 * and match these tables.
 */
export const SECRET_NAME_WORDS: readonly string[] = [
  'password', 'passwd', 'passphrase', 'passcode', 'pwd', 'pass', 'secret', 'secrets', 'token', 'tokens',
  'apikey', 'credential', 'credentials', 'authorization', 'cvv', 'cvc', 'ssn', 'iban', 'otp', 'pin',
  'pincode', 'cookie', 'cookies', 'privatekey', 'accesskey', 'bearer', 'jwt', 'mfa', 'totp',
];
/** Two consecutive words that together name a secret. */
export const SECRET_NAME_WORD_PAIRS: readonly (readonly [string, string])[] = [
  ['api', 'key'], ['access', 'key'], ['private', 'key'], ['secret', 'key'], ['signing', 'key'],
  ['card', 'number'], ['card', 'no'], ['card', 'num'], ['credit', 'card'], ['security', 'code'],
  ['session', 'id'], ['auth', 'code'], ['auth', 'header'], ['social', 'security'], ['one', 'time'],
];
/** Words that, next to a secret word, make the name ordinary (`maxTokens`, `pageToken`, `tokenCount`). */
export const NON_SECRET_NEIGHBOUR_WORDS: readonly string[] = [
  'max', 'min', 'num', 'count', 'limit', 'limits', 'usage', 'used', 'budget', 'page', 'next', 'prev',
  'cursor', 'type', 'kind', 'expires', 'expiry', 'length', 'estimate', 'estimated', 'input', 'output',
  'total', 'is', 'has', 'needs', 'requires', 'required', 'policy', 'strength', 'hint', 'hints', 'reset',
  'rotation', 'progress', 'cancellation', 'mode', 'changed', 'change', 'url', 'uri', 'link', 'consent', 'banner',
  // a reference to a secret is what state should carry instead of the secret
  'id', 'ids', 'ref', 'reference', 'name', 'label',
];

/** Splits an identifier or a sentence into lower-case words (`apiKey`, `api_key`, `API-Key`, `Your API key`). */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

/** Cheap pre-check for what `SENSITIVE_NAME_PATTERN` misses (words separated by spaces, short forms). */
const SECRET_HINT_PATTERN = /pwd|bearer|jwt|mfa|totp|one.?time|api.key|access.key|private.key|security.code|card.n|auth.code/i;

/** A field name, title or description that asks for / holds a secret (word-level, fewer false hits). */
export function looksSecret(nameOrText: string): boolean {
  if (!looksSensitive(nameOrText) && !SECRET_HINT_PATTERN.test(nameOrText)) return false;
  const words = nameWords(nameOrText);
  const ordinary = (i: number) =>
    NON_SECRET_NEIGHBOUR_WORDS.includes(words[i - 1] ?? '') || NON_SECRET_NEIGHBOUR_WORDS.includes(words[i + 1] ?? '');
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (SECRET_NAME_WORDS.includes(word) && !ordinary(i)) return true;
    const next = words[i + 1];
    if (
      next !== undefined &&
      SECRET_NAME_WORD_PAIRS.some(([a, b]) => a === word && b === next) &&
      !NON_SECRET_NEIGHBOUR_WORDS.includes(words[i + 2] ?? '')
    ) {
      return true;
    }
  }
  return false;
}

/** JSON Schema `format` values that mark a form field as a secret. */
export const SECRET_SCHEMA_FORMATS: readonly string[] = ['password'];
/** Where a form elicitation's fields live: JSON Schema / zod. */
export const REQUESTED_SCHEMA_FIELD = 'requestedSchema';
export const ELICITATION_MODE_FIELD = 'mode';
export const ELICITATION_URL_MODE = 'url';
/** `inputRequired.<builder>` that asks in form mode, and the URL-mode builder to use for secrets. */
export const FORM_ELICIT_BUILDER = 'elicit';
export const URL_ELICIT_BUILDER = 'elicitUrl';
/** Schema builders whose object argument is the field map (`z.object({...})`, `fromJsonSchema({...})`). */
export const ZOD_OBJECT_BUILDERS: readonly string[] = ['object', 'strictObject', 'looseObject'];
export const ZOD_DESCRIBE_METHOD = 'describe';

/** `createRequestStateCodec({ key, ttlSeconds, bind })` options and the codec's methods. */
export const REQUEST_STATE_CODEC_OPTIONS = { key: 'key', ttlSeconds: 'ttlSeconds', bind: 'bind' } as const;
export const REQUEST_STATE_CODEC_MINT = 'mint';
export const REQUEST_STATE_CODEC_VERIFY = 'verify';
/** Calls that make a key random per process (each instance would reject the others' state). */
export const PER_PROCESS_RANDOM_FUNCTIONS: readonly string[] = [
  'randomBytes', 'randomFillSync', 'getRandomValues', 'randomUUID', 'random', 'generateKey', 'generateKeySync',
  'generateSecretKey', 'nanoid', 'uuid', 'v4',
];

/** Cache hints of the 2026-07-28 revision (SEP-2549): result fields and registration/server options. */
export const RESULT_CACHE_FIELDS: readonly string[] = ['ttlMs', 'cacheScope'];
export const RESOURCE_CACHE_HINT_OPTION = 'cacheHint';
export const SERVER_CACHE_HINTS_OPTION = 'cacheHints';
export const META_FIELD = '_meta';
/** Cache-hint values that cache nothing (allowed on resources whose read handler uses MRTR). */
export const NO_CACHE_DIRECTIVES: readonly string[] = ['no-store', 'no-cache', 'private, no-store', 'no-store, private'];

/** Property/field names through which a handler sees MRTR round data. */
export const MRTR_ROUND_FIELDS: readonly string[] = ['inputResponses', 'requestState'];

/** Session identifiers that do not exist (or differ per instance) on stateless 2026-07-28 requests. */
export const SESSION_ID_PROPERTY = 'sessionId';
export const GET_CLIENT_CAPABILITIES = 'getClientCapabilities';
/** SEP-2577 deprecations beyond sampling/roots requests. */
export const ELICITATION_ID_FIELD = 'elicitationId';
export const INCLUDE_CONTEXT_FIELD = 'includeContext';


/* ---- Additions for the ESLint plugin (appended; names used by rules and the codemod alike) ---- */

/** The MRTR form that replaces a 2025 URL-mode elicitation error. */
export const URL_ELICITATION_REPLACEMENT =
  'return inputRequired({ inputRequests: { <key>: inputRequired.elicitUrl({ message, url }) } }) instead of throwing UrlElicitationRequiredError; the client retries the request once the URL flow is done';

/** Why the 2025 elicitation-complete notifier has no MRTR form. */
export const COMPLETION_NOTIFIER_ADVICE =
  'MRTR has no elicitationId and no notifications/elicitation/complete: ask with inputRequired.elicitUrl({ message, url }) and let the client retry the original request when the URL flow is done';

/**
 * Identifier names that, without type information, are taken to hold an MCP server
 * (`server`, `mcpServer`, `lowLevelServer`, `mcp_server`, `srv`; not `observer`). Used only where no
 * stronger evidence exists.
 */
export const SERVER_LIKE_NAME_PATTERN = /^(server|srv|SERVER)$|[a-z0-9$]Server$|_(server|SERVER)$/;

/** Properties of the per-request context read by MRTR handlers. */
export const CTX_MCPREQ_READS = {
  inputResponses: 'inputResponses',
  requestState: 'requestState',
} as const;

/**
 * Functions that turn a value into a string without sealing it: a `requestState` built with one of
 * them can be forged by any client. `Buffer.from(x).toString(<encoding>)` with these encodings too.
 */
export const UNSEALED_STATE_ENCODERS = ['JSON.stringify', 'btoa', 'encodeURIComponent', 'encodeURI', 'String'] as const;
export const UNSEALED_BUFFER_ENCODINGS = ['base64', 'base64url', 'hex', 'utf8', 'utf-8', 'latin1', 'binary'] as const;
/** Functions that decode a raw (unverified) `requestState`. */
export const RAW_STATE_DECODERS = ['JSON.parse', 'atob', 'decodeURIComponent', 'Buffer.from'] as const;

/** Registration-API callbacks and the reason each has no MRTR form (for messages). */
export const MRTR_HANDLER_DESCRIPTION = 'a tools/call, prompts/get or resources/read handler';

/* ---- Serving shapes (codemod serving stage) ---- */

/** Transport class names that host a server for the 2025 era only (v1 names and their v2 renames). */
export const STDIO_TRANSPORT = 'StdioServerTransport';
export const HTTP_TRANSPORTS: readonly string[] = [
  'StreamableHTTPServerTransport',
  'NodeStreamableHTTPServerTransport',
  'WebStandardStreamableHTTPServerTransport',
];
export const SSE_TRANSPORTS: readonly string[] = ['SSEServerTransport'];
/** The v1 name of a transport class the v1-to-v2 upgrade renames (reports name what the user's file says). */
export const V1_TRANSPORT_NAMES: Readonly<Record<string, string>> = { NodeStreamableHTTPServerTransport: 'StreamableHTTPServerTransport' };
/** HTTP transports whose `handleRequest(req, res, body?)` takes Node.js objects (the rest take a web `Request`). */
export const NODE_HTTP_TRANSPORTS: readonly string[] = ['StreamableHTTPServerTransport', 'NodeStreamableHTTPServerTransport'];
/** Per-request entry of an HTTP transport, and the transport options that keep it stateless. */
export const TRANSPORT_HANDLE_METHOD = 'handleRequest';
export const TRANSPORT_CLOSE_METHOD = 'close';
export const SESSION_ID_GENERATOR_OPTION = 'sessionIdGenerator';
/** v1 `enableJsonResponse: true` is `createMcpHandler`'s `responseMode: 'json'`. */
export const JSON_RESPONSE_OPTION = 'enableJsonResponse';
/** Method that attaches a server instance to a transport. */
export const SERVER_CONNECT_METHOD = 'connect';
/** The `includeContext` value that stays valid after SEP-2577. */
export const INCLUDE_CONTEXT_NONE = 'none';
/** Server methods that send a notification object `{ method, params }`. */
export const NOTIFICATION_SENDERS: readonly string[] = ['notification', 'sendNotification'];

/* ---- Test clients (the codemod's rewrite of unit tests that mock legacy requests). ---- */

/** The client class a test connects to the server under test (`@modelcontextprotocol/client`). */
export const CLIENT_CLASS = 'Client';
/** Client method that registers the handler answering `elicitation/create` etc. (v2: method-name string). */
export const CLIENT_REQUEST_HANDLER_REGISTRATION = 'setRequestHandler';
/** Capability value (source text) a test client declares to answer each embedded request itself. */
export const CLIENT_ANSWER_CAPABILITY: Readonly<Record<LegacyMethod, string>> = {
  'elicitation/create': '{ form: {}, url: {} }',
  'sampling/createMessage': '{}',
  'roots/list': '{}',
};

/**
 * What to do about hosting that serves the 2025 era only (codemod markers and the plugin's
 * `no-legacy-only-hosting` messages).
 */
export const HOSTING_ADVICE = {
  stdio: `serve with ${TARGET.serveStdio}(createServer) from '${TARGET_SERVER_STDIO_ENTRY}', where createServer() builds and returns the server with its registrations (one instance per connection); server.connect(new ${STDIO_TRANSPORT}()) serves 2025-era clients only`,
  http: `serve with ${TARGET.createMcpHandler}(createServer) from '${TARGET_SERVER_PACKAGE}' (one server per request from a factory; legacy 2025 clients keep working through its stateless fallback): handler.fetch(request) on fetch-native runtimes, ${TARGET_NODE_ADAPTER}(handler) from '${TARGET_NODE_PACKAGE}' for Express/node:http; to keep a session wiring for 2025-era clients, route 2026-07-28 requests first with ${TARGET.isLegacyRequest}(request) to ${TARGET.createMcpHandler}(createServer, { legacy: 'reject' })`,
  sse: `the SSE transport predates Streamable HTTP: serve with ${TARGET.createMcpHandler}(createServer) from '${TARGET_SERVER_PACKAGE}' instead`,
  session: `2026-07-28 requests are stateless and may land on any instance: keep nothing keyed by session id between requests; carry per-flow data in requestState (sealed) or in shared storage keyed by the principal`,
} as const;
