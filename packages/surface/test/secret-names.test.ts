import { describe, expect, it } from 'vitest';
import { looksSecret, nameWords } from '../src/index.js';

describe('looksSecret (word-level secret detection used by the plugin safety rules)', () => {
  it('splits identifiers and sentences into words', () => {
    expect(nameWords('apiKey')).toEqual(['api', 'key']);
    expect(nameWords('API_KEY')).toEqual(['api', 'key']);
    expect(nameWords('x-api-key')).toEqual(['x', 'api', 'key']);
    expect(nameWords('creditCardNumber2')).toEqual(['credit', 'card', 'number', '2']);
    expect(nameWords('Your API key')).toEqual(['your', 'api', 'key']);
  });

  it('flags names and texts that ask for secrets', () => {
    for (const n of ['password', 'apiKey', 'api_key', 'accessToken', 'cardNumber', 'cvv', 'client_secret', 'db_pass', 'pwd',
      'refresh_token', 'privateKey', 'sessionId', 'Your API key', 'Enter your password', 'Bearer token', 'Card number', 'PIN']) {
      expect(looksSecret(n), n).toBe(true);
    }
  });

  it('leaves ordinary names that merely contain a secret-looking substring', () => {
    for (const n of ['name', 'email', 'confirm', 'city', 'count', 'user_name', 'passengers', 'maxTokens', 'tokenCount',
      'nextPageToken', 'footprint', 'className', 'compass', 'author', 'pinned', 'spinner', 'Number of passengers', 'cookieConsent', 'credentialId', 'apiKeyId', 'tokenName']) {
      expect(looksSecret(n), n).toBe(false);
    }
  });
});
