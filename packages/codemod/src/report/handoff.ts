/**
 * `mcp-mrtr check --handoff <file.md>`: one self-contained brief per flagged site, for a person or
 * an AI assistant to act on without the rest of the report: where it is, the code around it, why
 * the codemod left it (the engine's own reason), the target API and the SDK idiom for that kind of
 * request, and what to verify after the change.
 */
import path from 'node:path';
import { LEGACY_REQUESTS, SUPPRESSION_DIRECTIVE, TARGET, TARGET_SERVER_PACKAGE, TODO_MARKER, isLegacyMethod, replacementFor, type LegacyMethod } from '@mcp-mrtr/surface';
import type { FileResult, MigrationResult, SiteResult } from '../types.js';
import { TOOL_NAME, VERSION } from '../version.js';
import { displayPath } from './paths.js';

/** Lines of code shown on each side of the site. */
const CONTEXT_LINES = 8;

export interface HandoffOptions {
  cwd: string;
  paths: string[];
}

export function flaggedSites(result: MigrationResult): Array<{ file: FileResult; site: SiteResult }> {
  return result.files.flatMap((file) => file.sites.filter((site) => site.status === 'flagged').map((site) => ({ file, site })));
}

export function formatHandoff(result: MigrationResult, options: HandoffOptions): string {
  const sites = flaggedSites(result);
  const out: string[] = [
    '# MRTR migration hand-off',
    '',
    `Written by \`${TOOL_NAME} check ${options.paths.join(' ')}\` (${TOOL_NAME} ${VERSION}): ${sites.length} legacy request site(s) the codemod did not migrate automatically. Each section below stands on its own.`,
    '',
    'Background. MCP revision 2026-07-28 removed server-to-client requests: `elicitInput`, `createMessage`, `listRoots`, `sendRequest` throw on 2026-07-28 connections. ' +
      `A tools/call, prompts/get or resources/read handler instead returns \`${TARGET.inputRequired}({ ${TARGET.inputRequestsField}: { <key>: <request> } })\`; the client answers and retries the same request, ` +
      `and the handler reads the answer from \`ctx.mcpReq.${TARGET.inputResponsesField}\`. Values that must survive between rounds travel in a sealed \`${TARGET.requestStateField}\` ` +
      `(\`${TARGET.createRequestStateCodec}\`), never in server memory. Code that is not such a handler (hooks, timers, notification handlers, routes) has no MRTR form: the request moves into a handler or goes.`,
    '',
  ];
  if (sites.length === 0) out.push('Nothing to hand off: no flagged site.', '');
  sites.forEach(({ file, site }, index) => out.push(...brief(index + 1, file, site, options)));
  return out.join('\n');
}

function brief(n: number, file: FileResult, site: SiteResult, options: HandoffOptions): string[] {
  const rel = displayPath(file.path, options.cwd);
  const where = site.scope ? ` in \`${site.scope}\`` : site.handler ? ` in handler \`${site.handler}\`` : '';
  return [
    `## ${n}. ${rel}:${site.line}: ${site.method}${where}`,
    '',
    `**Why it was not migrated** (the codemod's finding): ${sentence(site.reason ?? 'no reason given')}`,
    '',
    ...(site.advice ? [`**What to do instead:** ${sentence(site.advice)}`, ''] : []),
    `**The code** (${rel}, the site on the line marked \`>\`):`,
    '',
    ...codeAround(file, site),
    '',
    ...target(site),
    '**Verify after the change:**',
    '',
    ...verification(rel, site).map((step) => `- [ ] ${step}`),
    '',
  ];
}

function sentence(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

function codeAround(file: FileResult, site: SiteResult): string[] {
  const lines = (file.original ?? '').replace(/\r?\n$/, '').split(/\r?\n/);
  const first = Math.max(1, site.line - CONTEXT_LINES);
  const last = Math.min(lines.length, site.line + CONTEXT_LINES);
  const width = String(last).length;
  const body = [];
  for (let line = first; line <= last; line++) body.push(`${line === site.line ? '>' : ' '} ${String(line).padStart(width)} | ${lines[line - 1] ?? ''}`);
  const fence = body.some((l) => l.includes('```')) ? '~~~~' : '```';
  return [`${fence}${languageOf(file.path)}`, ...body, fence];
}

function languageOf(file: string): string {
  const ext = path.extname(file).toLowerCase();
  return /^\.[cm]?tsx?$/.test(ext) ? 'ts' : 'js';
}

/** The target API and the SDK idiom for the site's kind of request. */
function target(site: SiteResult): string[] {
  if (site.method === 'serving') {
    return [
      `**Target API:** serve MCP 2026-07-28 with \`${TARGET.serveStdio}(factory)\` (stdio) or \`${TARGET.createMcpHandler}(factory)\` (Streamable HTTP) from \`${TARGET_SERVER_PACKAGE}\`; the factory builds and registers a server per request.`,
      '',
    ];
  }
  if (site.method === 'test-mock') {
    return [
      '**Target API:** drive the migrated handler through a real client: the answer the mock returned becomes the client\'s `client.setRequestHandler(\'<method>\', ...)` answer (declare the capability), and the test sees the `input_required` round.',
      '',
    ];
  }
  if (site.method === 'session-state' || !isLegacyMethod(site.method)) {
    return [`**Target API:** state that must outlive one request goes into \`${TARGET.requestStateField}\` (sealed with \`${TARGET.createRequestStateCodec}\`) or an external store keyed by something the client sends.`, ''];
  }
  return [`**Target API:** ${replacementFor(site.method)}.`, '', '**SDK idiom** (inside the tools/call, prompts/get or resources/read handler):', '', ...idiom(site.method), ''];
}

function idiom(method: LegacyMethod): string[] {
  const info = LEGACY_REQUESTS[method];
  const key = info.defaultKey;
  const code =
    info.kind === 'elicitation'
      ? [
          `import { ${TARGET.inputRequired}, ${TARGET.acceptedContent}, ${TARGET.fromJsonSchema} } from '${TARGET_SERVER_PACKAGE}';`,
          '',
          "const confirmSchema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } as const;",
          '',
          `const answer = ${TARGET.acceptedContent}(ctx.mcpReq.${TARGET.inputResponsesField}, '${key}', ${TARGET.fromJsonSchema}(confirmSchema));`,
          'if (!answer) {',
          `  return ${TARGET.inputRequired}({ ${TARGET.inputRequestsField}: { ${key}: ${info.builder}({ message: 'Proceed?', requestedSchema: confirmSchema }) } });`,
          '}',
          '// the client accepted: answer.ok is the value; decline/cancel come back as no content',
        ]
      : [
          `import { ${TARGET.inputRequired}, ${TARGET.inputResponse} } from '${TARGET_SERVER_PACKAGE}';`,
          '',
          `const ${key} = ${TARGET.inputResponse}(ctx.mcpReq.${TARGET.inputResponsesField}, '${key}');`,
          `if (!${key}) {`,
          `  return ${TARGET.inputRequired}({ ${TARGET.inputRequestsField}: { ${key}: ${info.builder}(${info.kind === 'sampling' ? '{ messages, maxTokens }' : ''}) } });`,
          '}',
          `// ${key} is the ${info.resultType} the legacy call resolved to`,
        ];
  return ['```ts', ...code, '```', '', `Every request asked again on the retry must use the same key; effects that ran before the question must not run twice (move them after it, or carry their result in \`${TARGET.requestStateField}\`). The client must declare the \`${info.capability}\` capability.`];
}

function verification(rel: string, site: SiteResult): string[] {
  const common = [
    `\`npx ${TOOL_NAME} check ${rel}\` no longer lists ${site.method} at this place, or lists it as one \`migrate\` rewrites.`,
    `The ${TODO_MARKER} comment above the site, if \`migrate\` added one, is gone.`,
    'The project still typechecks (`npx tsc --noEmit`) and its tests pass.',
  ];
  if (site.method === 'serving') return [...common, 'The server starts, and both a 2026-07-28 client and a 2025-era client can list and call its tools.'];
  if (site.method === 'test-mock') return [...common, 'The test fails when the handler\'s answer handling is broken (it exercises the input_required round, not a mock that is never called).'];
  if (!isLegacyMethod(site.method)) return common;
  return [
    ...common,
    `A 2026-07-28 client calling the handler gets \`${TARGET.resultTypeField}: '${TARGET.inputRequiredValue}'\` with the request first, and the final result after answering; declining or cancelling takes the path the old code took.`,
    'Side effects before the question (writes, sends, charges) happen once across all rounds.',
    `ESLint with \`@mcp-mrtr/eslint-plugin\` reports nothing here (\`no-server-initiated-requests\`). If the request stays on purpose, say why instead: \`// ${SUPPRESSION_DIRECTIVE}: <reason>\` above it.`,
  ];
}
