/**
 * Counts passing and failing tests in a test runner's output. Runners recognised: vitest, jest,
 * node:test (TAP and spec reporters), mocha, bun. A monorepo's script may run several suites:
 * every summary line is added up.
 */

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

function sum(text, regex) {
  let total = 0;
  let seen = false;
  for (const m of text.matchAll(regex)) { total += Number(m[1]); seen = true; }
  return seen ? total : undefined;
}

/** @returns {{ passed: number, failed: number, runner: string } | undefined} */
export function parseTestOutput(raw) {
  const text = raw.replace(ANSI, '').replace(/\r/g, '');
  // vitest: " Tests  3 failed | 40 passed | 1 skipped (44)"; jest: "Tests:       1 failed, 40 passed, 41 total"
  const summaries = [...text.matchAll(/^\s*Tests:?\s+(.*\d+ (?:passed|failed).*)$/gm)].map((m) => m[1]);
  if (summaries.length > 0) {
    const jest = summaries.some((s) => /\btotal\b/.test(s));
    return {
      runner: jest ? 'jest' : 'vitest',
      passed: summaries.reduce((n, s) => n + Number(/(\d+) passed/.exec(s)?.[1] ?? 0), 0),
      failed: summaries.reduce((n, s) => n + Number(/(\d+) failed/.exec(s)?.[1] ?? 0), 0),
    };
  }
  // node:test: "# pass 12" / "# fail 0" (TAP) or "ℹ pass 12" / "ℹ fail 0" (spec)
  const nodePass = sum(text, /^[#ℹ] pass (\d+)$/gm);
  if (nodePass !== undefined) return { runner: 'node:test', passed: nodePass, failed: sum(text, /^[#ℹ] fail (\d+)$/gm) ?? 0 };
  // mocha: "  12 passing (3s)" / "  2 failing"
  const mochaPass = sum(text, /^\s+(\d+) passing\b/gm);
  if (mochaPass !== undefined) return { runner: 'mocha', passed: mochaPass, failed: sum(text, /^\s+(\d+) failing\b/gm) ?? 0 };
  // bun test: " 12 pass" / " 0 fail"
  const bunPass = sum(text, /^\s*(\d+) pass$/gm);
  if (bunPass !== undefined) return { runner: 'bun', passed: bunPass, failed: sum(text, /^\s*(\d+) fail$/gm) ?? 0 };
  return undefined;
}
