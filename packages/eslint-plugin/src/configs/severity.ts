/**
 * The severity each rule carries in `recommended`, declared once here. `strict` turns every rule
 * into an error.
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
  'no-deprecated-client-features': 'warn',
  'no-session-scoped-client-state': 'warn',
  'require-request-state-binding': 'warn',
  'no-legacy-only-hosting': 'warn',
} as const;

export type RuleName = keyof typeof RULE_SEVERITY;
export type Severity = (typeof RULE_SEVERITY)[RuleName];
