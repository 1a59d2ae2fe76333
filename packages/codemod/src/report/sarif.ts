/**
 * SARIF 2.1.0 output (`--sarif <file>`) for GitHub code scanning and other PR annotators: one result
 * per flagged site and per file that failed; under `check`, also one per site `migrate` would rewrite.
 * URIs are relative to the git root (or the working directory outside git), under `%SRCROOT%`.
 */
import { pathToFileURL } from 'node:url';
import { PROJECT_DOCS_BASE, TODO_MARKER } from '@mcp-mrtr/surface';
import { findGitRoot } from '../discover.js';
import type { FileResult, MigrationResult, SiteResult } from '../types.js';
import { TOOL_NAME, VERSION } from '../version.js';
import { displayPath } from './paths.js';

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

type Level = 'error' | 'warning' | 'note';

interface RuleInfo {
  id: string;
  name: string;
  short: string;
  full: string;
  level: Level;
}

const RULES = {
  'flagged:elicitation/create': {
    id: 'mcp-mrtr/unmigrated-elicitation',
    name: 'UnmigratedElicitation',
    short: 'Server-initiated elicitation left for a person to migrate',
    full: `An elicitation/create request sent by the server that the codemod could not rewrite into an input_required round safely. MCP 2026-07-28 removed server-to-client requests: the call throws on 2026-07-28 requests. An ${TODO_MARKER} comment above the call says why.`,
    level: 'warning',
  },
  'flagged:sampling/createMessage': {
    id: 'mcp-mrtr/unmigrated-sampling',
    name: 'UnmigratedSampling',
    short: 'Server-initiated sampling request left for a person to migrate',
    full: `A sampling/createMessage request sent by the server that the codemod could not rewrite into an input_required round safely (sampling is also deprecated by SEP-2577). An ${TODO_MARKER} comment above the call says why.`,
    level: 'warning',
  },
  'flagged:roots/list': {
    id: 'mcp-mrtr/unmigrated-roots',
    name: 'UnmigratedRoots',
    short: 'Server-initiated roots/list request left for a person to migrate',
    full: `A roots/list request sent by the server that the codemod could not rewrite into an input_required round safely (roots are also deprecated by SEP-2577). An ${TODO_MARKER} comment above the call says why.`,
    level: 'warning',
  },
  'flagged:serving': {
    id: 'mcp-mrtr/legacy-serving',
    name: 'LegacyServing',
    short: 'Server transport that serves only the 2025 protocol era',
    full: 'A server connected with server.connect(transport) serves only 2025-era clients. Serve MCP 2026-07-28 with serveStdio(factory) or createMcpHandler(factory).',
    level: 'warning',
  },
  'flagged:session-state': {
    id: 'mcp-mrtr/session-state',
    name: 'SessionState',
    short: 'Per-session state that stateless 2026-07-28 requests break',
    full: 'State keyed by a session id does not survive MCP 2026-07-28, where every request may land on another instance without a session. Carry it in requestState or an external store.',
    level: 'warning',
  },
  'flagged:test-mock': {
    id: 'mcp-mrtr/legacy-test-mock',
    name: 'LegacyTestMock',
    short: 'Unit test mocks a legacy server-to-client request',
    full: 'A test mocks sendRequest/elicitInput/createMessage/listRoots. Migrated handlers no longer call them, so the mock no longer exercises anything: drive the handler through input_required rounds instead.',
    level: 'warning',
  },
  'flagged:type-error': {
    id: 'mcp-mrtr/upgrade-type-error',
    name: 'UpgradeTypeError',
    short: 'The v1-to-v2 upgrade leaves a type error here',
    full: `A compiler error that the official v1-to-v2 upgrade left and no automatic repair covers. An ${TODO_MARKER} comment above the line gives the compiler's message.`,
    level: 'warning',
  },
  'flagged:v1-only-api': {
    id: 'mcp-mrtr/v1-only-api',
    name: 'V1OnlyApi',
    short: 'A v1 SDK API that v2 lacks keeps these files on v1',
    full: 'The file uses a v1 SDK API that the v2 SDK has in no form (the tasks API: the experimental task store and task tools, low-level task method handlers). It stays on v1 with the files it shares SDK objects with, and their requests are not migrated, since the MRTR form needs v2.',
    level: 'warning',
  },
  'legacy:elicitation/create': {
    id: 'mcp-mrtr/legacy-elicitation',
    name: 'LegacyElicitation',
    short: 'Server-initiated elicitation (migratable)',
    full: 'An elicitation/create request sent by the server. `mcp-mrtr migrate` rewrites it into an input_required round.',
    level: 'warning',
  },
  'legacy:sampling/createMessage': {
    id: 'mcp-mrtr/legacy-sampling',
    name: 'LegacySampling',
    short: 'Server-initiated sampling request (migratable)',
    full: 'A sampling/createMessage request sent by the server. `mcp-mrtr migrate` rewrites it into an input_required round.',
    level: 'warning',
  },
  'legacy:roots/list': {
    id: 'mcp-mrtr/legacy-roots',
    name: 'LegacyRoots',
    short: 'Server-initiated roots/list request (migratable)',
    full: 'A roots/list request sent by the server. `mcp-mrtr migrate` rewrites it into an input_required round.',
    level: 'warning',
  },
  'legacy:other': {
    id: 'mcp-mrtr/legacy-usage',
    name: 'LegacyUsage',
    short: 'Legacy MCP usage that `mcp-mrtr migrate` rewrites',
    full: 'Code that `mcp-mrtr migrate` rewrites for MCP 2026-07-28.',
    level: 'warning',
  },
  'suppression-without-reason': {
    id: 'mcp-mrtr/suppression-without-reason',
    name: 'SuppressionWithoutReason',
    short: 'mcp-mrtr-ignore comment without a reason',
    full: 'A `// mcp-mrtr-ignore` comment must say why the request stays (`// mcp-mrtr-ignore: <reason>`). Without a reason it suppresses nothing.',
    level: 'warning',
  },
  'file-error': {
    id: 'mcp-mrtr/file-error',
    name: 'FileError',
    short: 'File could not be processed',
    full: 'The file could not be read, parsed, rewritten or written. It was left byte-identical; its legacy requests, if any, are not migrated.',
    level: 'error',
  },
} as const satisfies Record<string, RuleInfo>;

type RuleKey = keyof typeof RULES;

function ruleKeyFor(site: SiteResult): RuleKey {
  // a suppressed site is reported under the rule it would break, with an in-source suppression
  const unmigrated = site.status !== 'migrated';
  const key = `${unmigrated ? 'flagged' : 'legacy'}:${site.method}`;
  if (key in RULES) return key as RuleKey;
  return unmigrated ? 'flagged:serving' : 'legacy:other';
}

export interface SarifOptions {
  cwd: string;
  command: 'migrate' | 'check';
}

export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: unknown[];
}

export function toSarif(result: MigrationResult, options: SarifOptions): SarifLog {
  const root = findGitRoot(options.cwd) ?? options.cwd;
  const used: RuleKey[] = [];
  const indexOf = (key: RuleKey): number => {
    let i = used.indexOf(key);
    if (i < 0) i = used.push(key) - 1;
    return i;
  };
  const uri = (file: string) => displayPath(file, root).split('/').map(encodeURIComponent).join('/');

  const results: unknown[] = [];
  for (const file of result.files) {
    if (file.status === 'failed') results.push(fileErrorResult(file, uri(file.path), indexOf('file-error')));
    for (const at of file.suppressionsWithoutReason ?? []) {
      const rule = RULES['suppression-without-reason'];
      results.push({ ruleId: rule.id, ruleIndex: indexOf('suppression-without-reason'), level: rule.level, message: { text: rule.full }, locations: [location(uri(file.path), at.line, at.column)] });
    }
    for (const site of file.sites) {
      if (site.status === 'migrated' && options.command !== 'check') continue;
      const key = ruleKeyFor(site);
      results.push(siteResult(site, uri(file.path), key, indexOf(key), options.command));
    }
  }

  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: TOOL_NAME,
            version: VERSION,
            semanticVersion: VERSION,
            informationUri: PROJECT_DOCS_BASE.replace(/\/blob\/main$/, ''),
            rules: used.map((key) => {
              const rule: RuleInfo = RULES[key];
              return {
                id: rule.id,
                name: rule.name,
                shortDescription: { text: rule.short },
                fullDescription: { text: rule.full },
                helpUri: `${PROJECT_DOCS_BASE}/README.md`,
                defaultConfiguration: { level: rule.level },
              };
            }),
          },
        },
        originalUriBaseIds: { SRCROOT: { uri: pathToFileURL(root).href.replace(/\/?$/, '/') } },
        invocations: [{ executionSuccessful: true, commandLine: `${TOOL_NAME} ${options.command}` }],
        results,
      },
    ],
  };
}

function location(uri: string, line?: number, column?: number) {
  return {
    physicalLocation: {
      artifactLocation: { uri, uriBaseId: 'SRCROOT' },
      region: { startLine: Math.max(1, line ?? 1), ...(column && column > 0 ? { startColumn: column } : {}) },
    },
  };
}

function siteResult(site: SiteResult, uri: string, key: RuleKey, ruleIndex: number, command: 'migrate' | 'check') {
  const rule: RuleInfo = RULES[key];
  const what =
    site.status === 'flagged'
      ? `not migrated: ${site.reason ?? 'no reason given'}`
      : site.status === 'suppressed'
        ? `suppressed: ${site.reason ?? ''}`
        : `${command === 'check' ? 'would be migrated' : 'migrated'}${site.reason ? `: ${site.reason}` : ''}`;
  const text = `${site.method}${site.handler ? ` in ${site.handler}` : ''}: ${what}${site.advice ? `. ${site.advice}` : ''}`;
  return {
    ruleId: rule.id,
    ruleIndex,
    level: rule.level,
    message: { text },
    locations: [location(uri, site.line, site.column)],
    properties: { method: site.method, status: site.status, ...(site.kind ? { kind: site.kind } : {}) },
    ...(site.baseline ? { baselineState: site.baseline === 'new' ? 'new' : 'unchanged' } : {}),
    // GitHub code scanning shows these as closed with the justification
    ...(site.status === 'suppressed' ? { suppressions: [{ kind: 'inSource', justification: site.reason ?? '' }] } : {}),
  };
}

function fileErrorResult(file: FileResult, uri: string, ruleIndex: number) {
  return {
    ruleId: RULES['file-error'].id,
    ruleIndex,
    level: 'error' as const,
    message: { text: file.error ?? 'the file could not be processed' },
    locations: [location(uri, 1)],
  };
}
