import { describe, expect, it } from 'vitest';
import {
  CANDIDATE_TOKENS,
  CTX_MCPREQ_METHOD_TO_LEGACY,
  LEGACY_REQUESTS,
  RESULT_SCHEMA_TO_LEGACY,
  SERVER_METHOD_TO_LEGACY,
  isLegacyMethod,
  looksSensitive,
  mayContainLegacySite,
} from '../src/index.js';

describe('MCP surface tables', () => {
  it('every method-name table points at a known legacy request', () => {
    for (const table of [SERVER_METHOD_TO_LEGACY, CTX_MCPREQ_METHOD_TO_LEGACY, RESULT_SCHEMA_TO_LEGACY]) {
      for (const method of Object.values(table)) expect(isLegacyMethod(method)).toBe(true);
    }
  });

  it('the text pre-filter token list covers every name the analysis looks for', () => {
    const names = [
      ...Object.keys(SERVER_METHOD_TO_LEGACY),
      ...Object.keys(CTX_MCPREQ_METHOD_TO_LEGACY),
      ...Object.keys(LEGACY_REQUESTS),
    ];
    for (const name of names) expect(CANDIDATE_TOKENS.some((t) => name.includes(t))).toBe(true);
    expect(mayContainLegacySite('await server.server.elicitInput({})')).toBe(true);
    expect(mayContainLegacySite('export const x = 1;')).toBe(false);
  });

  it('recognises secret-looking field names and leaves ordinary ones', () => {
    for (const n of ['password', 'apiKey', 'api_key', 'accessToken', 'cardNumber', 'cvv', 'client_secret']) {
      expect(looksSensitive(n)).toBe(true);
    }
    for (const n of ['name', 'email', 'confirm', 'city', 'count', 'user_name']) expect(looksSensitive(n)).toBe(false);
  });
});
