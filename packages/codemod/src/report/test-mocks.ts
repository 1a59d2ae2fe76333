/**
 * Unit tests in the user's project that mock the legacy server-to-client requests. The module set
 * lives in `./test-mocks/`: `find.ts` (what counts as such a mock), `client-answer.ts` (the
 * mechanical rewrite into a client answer handler), `scan.ts` (sites, markers, the result wiring).
 */
export * from './test-mocks/index.js';
