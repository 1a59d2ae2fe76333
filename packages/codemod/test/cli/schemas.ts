/** Validators for the CLI's reports: the official SARIF 2.1.0 schema and the JSON report's shape. */
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';

const require = createRequire(import.meta.url);
// CommonJS packages whose `default` export NodeNext typing does not see through.
const Ajv04 = (require('ajv-draft-04') as { default: typeof Ajv }).default;
const addFormats = (require('ajv-formats') as { default: (ajv: Ajv) => void }).default;

/** SARIF 2.1.0 (rtm.5, OASIS) JSON schema as shipped by Microsoft's `@microsoft/jest-sarif`. */
export const sarifSchema = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json') as Record<string, unknown>;

// The schema is draft-04; its `language` pattern is not valid in unicode mode.
const ajv04 = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv04);
export const validateSarif = ajv04.compile(sarifSchema);

const site = {
  type: 'object',
  required: ['line', 'method', 'status'],
  properties: {
    line: { type: 'integer', minimum: 1 },
    column: { type: 'integer', minimum: 1 },
    method: { enum: ['elicitation/create', 'sampling/createMessage', 'roots/list', 'serving', 'session-state', 'test-mock'] },
    status: { enum: ['migrated', 'flagged'] },
    reason: { type: 'string', minLength: 1 },
  },
  if: { properties: { status: { const: 'flagged' } } },
  then: { required: ['reason'] },
};
export const jsonReportSchema = {
  type: 'object',
  required: ['summary', 'files'],
  properties: {
    summary: {
      type: 'object',
      required: ['sitesFound', 'sitesMigrated', 'sitesFlagged', 'filesChanged', 'filesFailed'],
      properties: Object.fromEntries(['sitesFound', 'sitesMigrated', 'sitesFlagged', 'filesChanged', 'filesFailed'].map((k) => [k, { type: 'integer', minimum: 0 }])),
    },
    files: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'status', 'sites'],
        properties: {
          path: { type: 'string', pattern: '^[^/]' },
          status: { enum: ['changed', 'unchanged', 'flagged', 'failed', 'skipped', 'created'] },
          sites: { type: 'array', items: site },
        },
      },
    },
  },
};
const ajv = new Ajv({ allErrors: true, strict: false });
export const validateJsonReport = ajv.compile(jsonReportSchema);
