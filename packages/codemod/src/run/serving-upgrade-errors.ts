/**
 * A hosting rewrite (serveStdio / createMcpHandler) needs its file on the v2 SDK. When that is the
 * only change the run makes to the file and the file's v1-to-v2 upgrade leaves type errors that its
 * v1 text did not have (after the repairs verify makes), the rewrite would turn a project that
 * compiled into one that does not, for hosting alone: the file keeps its 2025-era hosting instead
 * (the back-to-v1 step then returns it to its v1 text), and the finding says which upgraded line
 * does not compile.
 */
import { SERVING_ADVICE, type ServingFinding } from '../engine/serving/index.js';
import { ProjectFiles } from '../engine/project-files.js';
import { nodeOnLine } from '../engine/upgrade-scope.js';
import { createProject } from './load.js';
import { restoreText } from './rewrite.js';
import type { LoadedFile, RunState } from './state.js';
import { upgradeTypeErrors } from './verify.js';

const MESSAGE_LIMIT = 160;

export function holdBackServingOverUpgradeErrors(state: RunState): void {
  const { loaded, serving, preRewrite, postRewrite, typeChecked } = state;
  if (!typeChecked) return;
  const candidates = loaded.filter(
    (f) =>
      f.upgraded &&
      !f.failed &&
      (serving.get(f.path) ?? []).some((s) => s.status === 'migrated') &&
      // nothing but the hosting rewrite changed the file after the upgrade
      postRewrite.get(f.path) === preRewrite.get(f.path) &&
      f.sourceFile.getFullText() !== preRewrite.get(f.path),
  );
  if (candidates.length === 0) return;
  const served = new Map(candidates.map((f) => [f.path, f.sourceFile.getFullText()]));
  // the upgrade's own errors: on the upgraded text, before the hosting rewrite
  for (const file of candidates) restoreText(file, preRewrite.get(file.path)!);
  // the errors verify's repairs leave (a read of a closed v2 union's member property): tried, then
  // put back with the rest below; verify repairs the text each file ends with
  const errors = upgradeTypeErrors(candidates, () => createProject(state.env.tsconfig, new ProjectFiles().host, state.selection.mcp, state.libraryFiles, state.zodRaised, state.dependencyResolutions), undefined, 'trial');
  for (const file of candidates) {
    const first = errors.get(file.path)?.[0];
    if (!first) {
      restoreText(file, served.get(file.path)!);
      continue;
    }
    restoreText(file, preRewrite.get(file.path)!);
    const line = file.lineMap.toOriginal(first.line);
    const message = first.message.length > MESSAGE_LIMIT ? `${first.message.slice(0, MESSAGE_LIMIT - 3)}...` : first.message;
    serving.set(file.path, (serving.get(file.path) ?? []).map((f) => (f.status === 'migrated' ? holdBack(f, file, line, message) : f)));
  }
}

function holdBack(finding: ServingFinding, file: LoadedFile, line: number, message: string): ServingFinding {
  const http = /createMcpHandler/.test(finding.reason);
  const hosting = (finding.snippet ?? 'this hosting').replace(/;\s*$/, '');
  return {
    ...finding,
    status: 'flagged',
    // the statement to mark, in the restored text the finding was made on
    node: nodeOnLine(file.sourceFile, finding.line, finding.column),
    reason: `${hosting} serves the 2025 era only; not rewritten: ${http ? 'createMcpHandler' : 'serveStdio'} needs ${file.sourceFile.getBaseName()} on the v2 SDK, and its v1-to-v2 upgrade leaves a type error at line ${line} (${message}); fix that line for v2 and run again`,
    advice: finding.advice ?? (http ? SERVING_ADVICE.http : SERVING_ADVICE.stdio),
  };
}
