/**
 * Unit tests calling a request helper directly with a fake whose request fails, standing for a client
 * that cannot take it (`fixtures/test-mocks/failing-fakes`): one helper falls back in its catch, one
 * lets the failure through to its caller. Migrated by the BUILT CLI, the tests' calls go through the
 * driver written into the test file, which asks the helper again as a client that did not declare
 * elicitation when the fake fails: the migrated helper's capability check then fails where the
 * request failed before, into the catch, and a helper without one still fails with the fake's error.
 * The project's tests run for real, before and after (as many pass).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers.js';
import { expectTestOutcomes, migrateProject, projectForFile, withBug, failingTests, runProjectTests, type ReportSite } from './vitest-run.js';

const PROJECT = path.join(repoRoot, 'fixtures/test-mocks/failing-fakes');
const project = projectForFile(PROJECT, 'mcp-mrtr-failing-fakes-');

describe('a request helper whose unit tests fake a client that cannot ask', () => {
  it('the legacy tests pass on the v1 server before the migration', () => {
    expectTestOutcomes(project.dir, [], 3, []);
  });

  it('migrate rewrites both helpers for their tools and routes the tests through the driver', async () => {
    const { report } = await migrateProject<{ files: { path: string; sites: ReportSite[] }[] }>(project.dir, 0);
    const sites = report.files.find((f) => f.path.endsWith('src/depth.ts'))?.sites ?? [];
    expect(sites.map((s) => [s.line, s.status])).toEqual([
      [7, 'migrated'],
      [20, 'migrated'],
    ]);
  });

  it("the project's tests pass against the migrated helpers, as many as before", () => {
    expectTestOutcomes(project.dir, [], 3, []);
  });

  it('a migrated helper whose catch no longer falls back fails the rewritten test of the fallback', () => {
    withBug(path.join(project.dir, 'src/depth.ts'), /return 'standard';\n  \}\n  return answer/, "return 'quick';\n  }\n  return answer", () => {
      expect(failingTests(runProjectTests(project.dir, ['test/depth.test.ts']))).toEqual(['uses the standard depth when the client cannot ask']);
    });
  });
});
