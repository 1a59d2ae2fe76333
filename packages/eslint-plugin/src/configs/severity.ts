/**
 * The one place a rule's severity is declared: its level in `recommended`, or `off` for a rule that
 * only `strict` turns on. `strict` turns every rule into an error. The doc pages repeat these levels
 * for readers; a test holds them to this table.
 */
export const RULE_SEVERITY = {
  'no-server-initiated-requests': 'error',
  'require-request-state-verification': 'error',
  'input-required-allowed-methods': 'error',
  'no-empty-input-required': 'error',
  'consistent-input-keys': 'error',
  'no-unvalidated-input-responses': 'warn',
  'no-sensitive-elicitation': 'error',
  'no-secrets-in-request-state': 'error',
  'no-input-required-cache': 'error',
  'no-deprecated-client-features': 'off',
  'no-session-scoped-client-state': 'warn',
  'require-request-state-binding': 'warn',
  'no-legacy-only-hosting': 'warn',
} as const;

export type RuleName = keyof typeof RULE_SEVERITY;
export type Severity = (typeof RULE_SEVERITY)[RuleName];
