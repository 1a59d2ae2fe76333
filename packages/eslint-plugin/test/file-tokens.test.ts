import { describe, expect, it } from 'vitest';
import type { TSESLint } from '@typescript-eslint/utils';
import { fileTokenFilter } from '../src/utils/file-tokens.js';

const file = (text: string) => ({ text, ast: {} }) as unknown as TSESLint.SourceCode;

describe('fileTokenFilter (one scan per file shared by the rules)', () => {
  const sampling = fileTokenFilter(['createMessage']);
  const qualified = fileTokenFilter(['sampling/createMessage']);
  const overlapA = fileTokenFilter(['abc']);
  const overlapB = fileTokenFilter(['cde']);
  const special = fileTokenFilter(['.mint(']);

  it('finds a token that only occurs inside a longer registered token', () => {
    const f = file(`send({ method: 'sampling/createMessage' })`);
    expect(qualified(f)).toBe(true);
    expect(sampling(f)).toBe(true);
  });

  it('finds overlapping tokens (abc / cde in "abcde")', () => {
    const f = file('xabcdex');
    expect(overlapA(f)).toBe(true);
    expect(overlapB(f)).toBe(true);
  });

  it('escapes regular-expression characters and says no when nothing is there', () => {
    expect(special(file('await codec.mint(payload)'))).toBe(true);
    expect(special(file('await codec.mintx(payload)'))).toBe(false);
    expect(sampling(file('export const x = 1;'))).toBe(false);
  });

  it('rescans files after a token is registered late', () => {
    const f = file('late token here');
    expect(sampling(f)).toBe(false);
    const late = fileTokenFilter(['late token']);
    expect(late(f)).toBe(true);
  });
});
