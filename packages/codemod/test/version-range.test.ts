/**
 * The dependency ranges of lent packages (engine/own-packages.ts) decide whether their dependency
 * resolves to the project's copy, as npm would dedupe it, or to the codemod's: read by `semver`, as
 * npm reads them. The forms package manifests use, and ranges that are no version range (a
 * workspace or git dependency: not satisfied, and no throw).
 */
import semver from 'semver';
import { describe, expect, it } from 'vitest';

describe('dependency ranges of lent packages', () => {
  it.each([
    ['4.4.3', '^4.2.0', true],
    ['4.1.9', '^4.2.0', false],
    ['3.25.76', '^4.2.0', false],
    ['5.0.0', '^4.2.0', false],
    ['0.3.4', '^0.3.1', true],
    ['0.4.0', '^0.3.1', false],
    ['3.25.76', '^3.25 || ^4.0', true],
    ['4.6.7', '^3.25 || ^4.0', true],
    ['3.24.0', '^3.25 || ^4.0', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['4.0.0', '>=3.25 <5', true],
    ['5.1.0', '>=3.25 <5', false],
    ['4.7.1', '4.x', true],
    ['4.7.1', '*', true],
    ['4.6.7', '4.6.7', true],
    ['4.6.8', '4.6.7', false],
    ['4.6.7', 'workspace:*', false],
    ['4.6.7', 'github:colinhacks/zod', false],
  ])('%s in %s: %s', (version, range, expected) => {
    expect(semver.satisfies(version, range)).toBe(expected);
  });
});
