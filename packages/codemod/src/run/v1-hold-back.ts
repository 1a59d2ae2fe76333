/**
 * Files that use a v1 API the v2 SDK has in no form (engine/v1-only-api.ts) cannot be upgraded
 * without losing that feature, and a file the upgrade leaves on v1 cannot share a server, context or
 * result type with a v2 file. So the whole import component of such a file stays on v1: the
 * rewrite's and serving's changes there are undone (the MRTR form needs v2), its migrated request
 * sites are flagged with the reason, and back-to-v1 then puts the upgraded files back to their v1
 * text. The project keeps compiling and keeps its feature; the report says what blocks the
 * migration and where.
 */
import path from 'node:path';
import { looksLikeTestFile } from '../engine/test-mocks/find.js';
import { importComponents } from '../engine/upgrade-scope.js';
import { V1_ONLY_API_NAME, V1_ONLY_API_WHY, type V1OnlyUse } from '../engine/v1-only-api.js';
import type { SiteResult } from '../types.js';
import { restoreText } from './rewrite.js';
import type { LoadedFile, RunState } from './state.js';

export const HOLD_BACK_ADVICE = `rewrite the code that uses ${V1_ONLY_API_NAME} without it (or remove it), then run the migration again: until then these files stay on the v1 SDK and compile as before`;

/**
 * Holds back the import components of the files using a v1-only API: `state.heldOnV1` gets each of
 * their files with the reason. `reachComponent` gives the files a file's handlers and helpers touch
 * (a handler is never half-rewritten across files).
 */
export function holdBackOnV1(state: Pick<RunState, 'loaded' | 'preRewrite' | 'serving' | 'sites' | 'decisionBySite' | 'heldOnV1' | 'options'>, reachComponent: (file: string) => Set<string>): void {
  const { loaded, preRewrite, serving, sites, decisionBySite, heldOnV1 } = state;
  // the reason cites the server code using the API before a test that mocks it
  const users = loaded.filter((f) => (f.v1OnlyUses?.length ?? 0) > 0).sort((a, b) => Number(looksLikeTestFile(a.path, a.source.body)) - Number(looksLikeTestFile(b.path, b.source.body)));
  if (users.length === 0) return;
  const components = importComponents(loaded.map((f) => ({ path: f.path, sourceFile: f.sourceFile, v1Text: f.sliced?.body ?? f.source.body })));
  const cwd = state.options.cwd ?? process.cwd();
  for (const user of users) {
    const root = components.find(user.path);
    if ([...heldOnV1.keys()].some((held) => components.find(held) === root)) continue;
    const members = new Set(components.members(root));
    for (const member of [...members]) for (const touched of reachComponent(member)) members.add(touched);
    const first = user.v1OnlyUses![0]!;
    const reason = `not migrated: the MRTR form needs the v2 SDK, and this file stays on v1 with the files its imports connect it to, because ${shown(user.path, cwd)}:${originalLine(user, first)} ${first.what}, ${V1_ONLY_API_NAME}; ${V1_ONLY_API_WHY}`;
    for (const member of members) heldOnV1.set(member, reason);
  }
  for (const file of loaded) {
    if (!heldOnV1.has(file.path) || file.sourceFile.getFullText() === preRewrite.get(file.path)) continue;
    restoreText(file, preRewrite.get(file.path)!);
    serving.set(
      file.path,
      (serving.get(file.path) ?? []).map((f) => (f.status === 'migrated' ? { ...f, status: 'flagged' as const, node: undefined, reason: heldOnV1.get(file.path)!, advice: HOLD_BACK_ADVICE } : f)),
    );
  }
  for (const site of sites) {
    const reason = heldOnV1.get(site.sourceFile.getFilePath());
    const decision = decisionBySite.get(site);
    if (!reason || !decision) continue;
    if (decision.status !== 'migrated' && !decision.callers?.some((c) => c.status === 'migrated')) continue;
    const callers = decision.callers?.map((c) => (c.status === 'migrated' ? { ...c, status: 'flagged' as const, reason } : c));
    decisionBySite.set(site, { ...decision, status: 'flagged', reason, advice: HOLD_BACK_ADVICE, ...(callers ? { callers } : {}) });
  }
}

/**
 * The report entry of a file using a v1-only API that the run held back: one flagged site at its
 * first use, naming every use (its line in the file's text, which is its v1 text again).
 */
export function heldBackSite(file: LoadedFile, heldFiles: number): SiteResult | undefined {
  const uses = file.v1OnlyUses ?? [];
  if (uses.length === 0) return undefined;
  const first = uses[0]!;
  return {
    line: originalLine(file, first),
    column: first.column,
    method: 'v1-only-api',
    status: 'flagged',
    reason: `kept on the v1 SDK: this file uses ${V1_ONLY_API_NAME} (${listUses(file, uses)}), and ${V1_ONLY_API_WHY}. The MRTR migration needs v2, so ${heldFiles === 1 ? 'this file stays' : `the ${heldFiles} files its imports connect it to stay`} on v1 and their request sites are not migrated`,
    advice: HOLD_BACK_ADVICE,
    snippet: first.snippet,
  };
}

function listUses(file: LoadedFile, uses: V1OnlyUse[]): string {
  const shownUses = uses.slice(0, 3).map((u) => `line ${originalLine(file, u)} ${u.what}`);
  return uses.length > 3 ? `${shownUses.join('; ')}; ${uses.length - 3} more` : shownUses.join('; ');
}

/** A use's line in the original file (its v1 text after the shebang). */
function originalLine(file: LoadedFile, use: V1OnlyUse): number {
  return use.line + file.source.shebang.split('\n').length - 1;
}

/** The file as the report names it: relative to the run's directory, or its base name outside it. */
function shown(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') ? relative.split(path.sep).join('/') : path.basename(file);
}
