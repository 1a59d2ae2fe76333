import consistentInputKeys from './consistent-input-keys.js';
import inputRequiredAllowedMethods from './input-required-allowed-methods.js';
import noDeprecatedClientFeatures from './no-deprecated-client-features.js';
import noEmptyInputRequired from './no-empty-input-required.js';
import noInputRequiredCache from './no-input-required-cache.js';
import noLegacyOnlyHosting from './no-legacy-only-hosting.js';
import noSecretsInRequestState from './no-secrets-in-request-state.js';
import noSensitiveElicitation from './no-sensitive-elicitation.js';
import noServerInitiatedRequests from './no-server-initiated-requests.js';
import noSessionScopedClientState from './no-session-scoped-client-state.js';
import noUnvalidatedInputResponses from './no-unvalidated-input-responses.js';
import requireRequestStateBinding from './require-request-state-binding.js';
import requireRequestStateVerification from './require-request-state-verification.js';
import type { RuleName } from '../configs/severity.js';

/** Every rule by name: exactly the names `configs/severity.ts` declares a severity for (checked by the compiler). */
export const rules = {
  'no-server-initiated-requests': noServerInitiatedRequests,
  'require-request-state-verification': requireRequestStateVerification,
  'input-required-allowed-methods': inputRequiredAllowedMethods,
  'no-empty-input-required': noEmptyInputRequired,
  'consistent-input-keys': consistentInputKeys,
  'no-unvalidated-input-responses': noUnvalidatedInputResponses,
  'no-sensitive-elicitation': noSensitiveElicitation,
  'no-secrets-in-request-state': noSecretsInRequestState,
  'no-input-required-cache': noInputRequiredCache,
  'no-deprecated-client-features': noDeprecatedClientFeatures,
  'no-session-scoped-client-state': noSessionScopedClientState,
  'require-request-state-binding': requireRequestStateBinding,
  'no-legacy-only-hosting': noLegacyOnlyHosting,
} satisfies Record<RuleName, unknown>;
