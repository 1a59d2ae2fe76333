/**
 * Files that use a v1 API the v2 SDK has in no form (engine/v1-only-api.ts) cannot be upgraded
 * without losing that feature, and a file the upgrade leaves on v1 cannot share a server, context
 * or result type with a v2 file. So such a file stays on v1 with every file it shares SDK objects
 * with: the files on the other side of each import that carries an SDK object or type
 * (engine/sdk-sharing.ts, e.g. a `registerTools(server: McpServer)` its server is handed to), and
 * the files of the handlers and helpers they touch, again and again. The rewrite's and serving's
 * changes there are undone (the MRTR form needs v2), their migrated request sites are flagged with
 * the reason, and back-to-v1 puts the upgraded files back to their v1 text. The other files of its
 * import component keep their migration when the type checker accepts the split (run/hold-back-split.ts);
 * otherwise, or without types, the whole import component stays on v1. The project keeps compiling
 * and keeps its feature; the report says what blocks the migration and where.
 */
import path from 'node:path';
import type { Project } from 'ts-morph';
import type { SdkSharingEdge } from '../engine/sdk-sharing.js';
import { looksLikeTestFile } from '../engine/test-mocks/find.js';
import { importComponents } from '../engine/upgrade-scope.js';
import { V1_ONLY_API_NAME, V1_ONLY_API_WHY, type V1OnlyUse } from '../engine/v1-only-api.js';
import type { SiteResult } from '../types.js';
import { checkSplit } from './hold-back-split.js';
import { restoreText } from './rewrite.js';
import type { HeldOnV1, LoadedFile, RunState } from './state.js';

export const HOLD_BACK_ADVICE = `the v2 SDK has no replacement for tasks (@modelcontextprotocol/server has no task store, no task-based tool registration and no handlers for the task methods): to migrate, serve the task tools as plain tools (registerTool with a handler that returns its result, asking the client through inputRequired(...) rounds where it waited on it) and remove the task store, the task handlers and their imports, then run the migration again; until then these files stay on the v1 SDK and compile as before`;

/** How a held file came to be held: from `from`, across an import or because handlers join them. */
type Step = { from: string; edge: SdkSharingEdge } | { from: string; reach: true };

type HoldBackState = Pick<RunState, 'loaded' | 'preRewrite' | 'serving' | 'sites' | 'decisionBySite' | 'heldOnV1' | 'options' | 'sdkSharing' | 'typeChecked'>;

/**
 * Holds back the files using a v1-only API and the files sharing SDK objects with them:
 * `state.heldOnV1` gets each with the reason. `reachComponent` gives the files a file's handlers
 * and helpers touch (a handler is never half-rewritten across files). `originalProject` loads the
 * project from disk for the split check; without it (or without types) no import component is split.
 */
export function holdBackOnV1(state: HoldBackState, reachComponent: (file: string) => Set<string>, originalProject?: () => Project): void {
  const { loaded, preRewrite, serving, sites, decisionBySite, heldOnV1 } = state;
  // the reason cites the server code using the API before a test that mocks it
  const users = loaded.filter((f) => (f.v1OnlyUses?.length ?? 0) > 0).sort((a, b) => Number(looksLikeTestFile(a.path, a.source.body)) - Number(looksLikeTestFile(b.path, b.source.body)));
  if (users.length === 0) return;
  const cwd = state.options.cwd ?? process.cwd();
  const show = (file: string) => shown(file, cwd);
  const byPath = new Map(loaded.map((f) => [f.path, f]));
  const links = linksByFile(state.sdkSharing);
  const steps = new Map<string, Step | undefined>();
  for (const user of users) {
    if (heldOnV1.has(user.path)) continue;
    for (const [member, step] of sharingGroup(user.path, links, reachComponent, heldOnV1)) {
      steps.set(member, step);
      heldOnV1.set(member, { user: user.path, reason: '' });
    }
  }
  // a split that the checker rejects (or cannot check) holds the whole import component
  const components = importComponents(loaded.map((f) => ({ path: f.path, sourceFile: f.sourceFile, v1Text: f.sliced?.body ?? f.source.body })));
  const checkedRoots = new Set<string>();
  const wholeComponent = new Map<string, string>();
  for (const held of [...heldOnV1.keys()]) {
    const root = components.find(held);
    if (checkedRoots.has(root)) continue;
    checkedRoots.add(root);
    const component = components.members(root).map((p) => byPath.get(p)!);
    const others = component.filter((f) => !heldOnV1.has(f.path));
    // nothing split off that the run changed: those files go back to v1 with the rest (back-to-v1.ts)
    if (!others.some((f) => f.sourceFile.getFullText() !== (f.sliced?.body ?? f.source.body))) continue;
    const check = state.typeChecked && originalProject ? checkSplit(component, new Set(component.filter((f) => heldOnV1.has(f.path)).map((f) => f.path)), originalProject, show) : { compiles: false as const, why: 'without types the split cannot be checked' };
    if (check.compiles) continue;
    const user = heldOnV1.get(held)!.user;
    for (const f of others) {
      heldOnV1.set(f.path, { user, reason: '' });
      steps.set(f.path, undefined);
      wholeComponent.set(f.path, check.why);
    }
  }
  for (const [member, held] of heldOnV1) {
    if (held.reason) continue;
    // a file using the API itself is held for its own use, whichever user's files it is held with
    const own = (byPath.get(member)!.v1OnlyUses?.length ?? 0) > 0;
    held.reason = own ? heldReason(member, member, byPath.get(member)!, steps, show, undefined) : heldReason(member, held.user, byPath.get(held.user)!, steps, show, wholeComponent.get(member));
  }
  for (const file of loaded) {
    if (!heldOnV1.has(file.path) || file.sourceFile.getFullText() === preRewrite.get(file.path)) continue;
    restoreText(file, preRewrite.get(file.path)!);
    const reason = heldOnV1.get(file.path)!.reason;
    serving.set(
      file.path,
      (serving.get(file.path) ?? []).map((f) => (f.status === 'migrated' ? { ...f, status: 'flagged' as const, node: undefined, reason, advice: HOLD_BACK_ADVICE } : f)),
    );
  }
  for (const site of sites) {
    const reason = heldOnV1.get(site.sourceFile.getFilePath())?.reason;
    const decision = decisionBySite.get(site);
    if (!reason || !decision) continue;
    if (decision.status !== 'migrated' && !decision.callers?.some((c) => c.status === 'migrated')) continue;
    const callers = decision.callers?.map((c) => (c.status === 'migrated' ? { ...c, status: 'flagged' as const, reason } : c));
    decisionBySite.set(site, { ...decision, status: 'flagged', reason, advice: HOLD_BACK_ADVICE, ...(callers ? { callers } : {}) });
  }
}

function linksByFile(edges: readonly SdkSharingEdge[]): Map<string, Array<{ other: string; edge: SdkSharingEdge }>> {
  const links = new Map<string, Array<{ other: string; edge: SdkSharingEdge }>>();
  const add = (file: string, other: string, edge: SdkSharingEdge) => {
    const list = links.get(file) ?? [];
    list.push({ other, edge });
    links.set(file, list);
  };
  for (const edge of edges) {
    add(edge.importer, edge.exporter, edge);
    add(edge.exporter, edge.importer, edge);
  }
  return links;
}

/**
 * `user` and every file reached from it across SDK-carrying imports and handler joins, nearest
 * first, each with the step it was reached by. Files already held with another user are left out.
 */
function sharingGroup(user: string, links: ReturnType<typeof linksByFile>, reachComponent: (file: string) => Set<string>, heldOnV1: ReadonlyMap<string, HeldOnV1>): Map<string, Step | undefined> {
  const group = new Map<string, Step | undefined>([[user, undefined]]);
  const queue = [user];
  while (queue.length > 0) {
    const file = queue.shift()!;
    const next: Array<[string, Step]> = [...(links.get(file) ?? [])].map(({ other, edge }) => [other, { from: file, edge }]);
    for (const touched of reachComponent(file)) next.push([touched, { from: file, reach: true }]);
    for (const [other, step] of next) {
      if (group.has(other) || heldOnV1.has(other)) continue;
      group.set(other, step);
      queue.push(other);
    }
  }
  return group;
}

/** Why `member`'s requests are not migrated: the chain of steps from it to the file using the API. */
function heldReason(member: string, user: string, userFile: LoadedFile, steps: ReadonlyMap<string, Step | undefined>, show: (file: string) => string, wholeWhy: string | undefined): string {
  const first = userFile.v1OnlyUses![0]!;
  const use = `${show(user)}:${originalLine(userFile, first)} ${first.what}`;
  const why = `${V1_ONLY_API_NAME}; ${V1_ONLY_API_WHY}`;
  const head = 'not migrated: the MRTR form needs the v2 SDK, and this file stays on v1';
  if (member === user) return `${head}, because ${use}, ${why}`;
  if (wholeWhy !== undefined) return `${head} with the files its imports connect it to, because ${use}, ${why}; keeping only the files that share SDK objects with ${show(user)} on v1 was refused: ${wholeWhy}`;
  const chain: string[] = [];
  for (let at = member, step = steps.get(at); step; at = step.from, step = steps.get(at)) {
    const name = (file: string) => (file === member ? 'this file' : show(file));
    if ('reach' in step) chain.push(`a handler's calls run through both ${name(at)} and ${show(step.from)}`);
    else {
      const { importer, exporter, line, binding, carries } = step.edge;
      const what = binding === '*' ? 'everything' : `\`${binding}\``;
      chain.push(`${importer === member ? 'this file' : show(importer)}:${line} imports ${what} (${carries === 'an untyped value' ? carries : `its type has the SDK's \`${carries}\``}) from ${name(exporter)}`);
    }
  }
  const shownChain = chain.length > 3 ? [...chain.slice(0, 3), `${chain.length - 3} more`] : chain;
  return `${head} with ${show(user)}, where ${use}, ${why}. It shares SDK objects with that file: ${shownChain.join('; ')}; an SDK object or type that crosses an import needs the files on both sides on one SDK major (the v1 and v2 classes differ, and a v1 server cannot serve the inputRequired result of a v2 handler)`;
}

/**
 * The report entry of a file using a v1-only API that the run held back: one flagged site at its
 * first use, naming every use (its line in the file's text, which is its v1 text again) and the
 * files held with it.
 */
export function heldBackSite(file: LoadedFile, heldOnV1: ReadonlyMap<string, HeldOnV1>, cwd: string): SiteResult | undefined {
  const uses = file.v1OnlyUses ?? [];
  const user = heldOnV1.get(file.path)?.user;
  if (uses.length === 0 || user === undefined) return undefined;
  const first = uses[0]!;
  // files using it that another user's files reached are listed with that user's
  const withIt = [...heldOnV1].filter(([p, h]) => h.user === user && p !== file.path).map(([p]) => shown(p, cwd));
  const listed = withIt.length > 3 ? `${withIt.slice(0, 3).join(', ')} and ${withIt.length - 3} more` : withIt.join(', ');
  return {
    line: originalLine(file, first),
    column: first.column,
    method: 'v1-only-api',
    status: 'flagged',
    reason: `kept on the v1 SDK: this file uses ${V1_ONLY_API_NAME} (${listUses(file, uses)}), and ${V1_ONLY_API_WHY}. The MRTR migration needs v2, so ${withIt.length === 0 ? 'this file stays' : `this file and the ${withIt.length === 1 ? 'file' : `${withIt.length} files`} sharing SDK objects with it (${listed}) stay`} on v1 and their request sites are not migrated`,
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
