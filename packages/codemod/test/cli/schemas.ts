/** Validators for the CLI's reports: the official SARIF 2.1.0 schema and the JSON report's own schema. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
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

/** The JSON report's documented schema, shipped in the package (`schema/report.schema.json`). */
export const jsonReportSchema = JSON.parse(readFileSync(fileURLToPath(new URL('../../schema/report.schema.json', import.meta.url)), 'utf8')) as Record<string, unknown>;
// strict catches a misspelt keyword; strictRequired would also refuse the if/then `required`s
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
export const validateJsonReport = ajv.compile(jsonReportSchema);
