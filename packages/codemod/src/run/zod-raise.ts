/**
 * Whether the run raises a zod 3 project's zod to the range v2 declares (engine/zod-floor.ts): only
 * when one of its registrations, upgraded to v2, does not compile with the project's own zod for its
 * schema (`registrationSchemaErrors`), not from the version alone. A registration that passes its
 * schema loosely typed (`inputSchema: tool.schema as any`) compiles on zod 3, and raising zod there
 * would only break the project's other zod 3 code (`z.record(valueSchema)`).
 *
 * Decided at the start of the upgrade stage, before the run's project is changed: the registering
 * files are upgraded in a project of their own with the project's zod. Raised, the run's project is
 * built again as the load stage built it, with the project's imports of zod resolving to the
 * server's zod (its texts are still those loaded, and nothing holds a node of it yet), and
 * `state.zodRaised` tells package.json's bump, verify and the importers check so.
 */
import path from 'node:path';
import { REGISTRATION_APIS } from '@mcp-mrtr/surface';
import { loadsV2Server } from '../engine/package-json.js';
import { ProjectFiles } from '../engine/project-files.js';
import { scriptKindOf } from '../engine/script-kind.js';
import { isV1Source, upgradeV1Source } from '../engine/upgrade.js';
import { requiresV1Sdk } from '../engine/v1-commonjs.js';
import { registrationSchemaErrors, zodBelowFloor, zodLent, type ZodFloor } from '../engine/zod-floor.js';
import { createProject } from './load.js';
import type { RunState } from './state.js';

const REGISTRATION_NAME = new RegExp(`\\.(${Object.keys(REGISTRATION_APIS).join('|')})\\s*\\(`);

/** Sets `state.zodRaised` and rebuilds the run's project with zod lent when the registrations need it. */
export function raiseZodWhereRegistrationsNeedIt(state: RunState): void {
  const tsconfig = state.env.tsconfig;
  if (!state.typeChecked || !tsconfig || state.zodRaised) return;
  const floor = zodToRaise(state, tsconfig);
  if (!floor) return;
  state.zodRaised = floor;
  state.project = createProject(tsconfig, state.projectFiles.host, state.selection.mcp, state.libraryFiles, floor, state.dependencyResolutions);
  for (const file of state.loaded) file.sourceFile = state.projectFiles.addSourceFile(state.project, file.path, file.sourceFile.getFullText(), scriptKindOf(file.path));
}

function zodToRaise(state: RunState, tsconfig: string): ZodFloor | undefined {
  const projectDirectory = path.dirname(tsconfig);
  const floor = zodBelowFloor(projectDirectory);
  // without the server's zod to lend, the registrations are flagged with the floor's cause instead
  if (!floor || !zodLent(floor, projectDirectory)) return undefined;
  const upgrade = state.options.upgradeV1 !== false;
  const registering = state.loaded.filter((f) => {
    const text = f.sourceFile.getFullText();
    return REGISTRATION_NAME.test(text) && (loadsV2Server(text) || (upgrade && isV1Source(text) && !requiresV1Sdk(text)));
  });
  if (registering.length === 0) return undefined;
  // the registering files as the upgrade stage will leave them, their imports as on disk
  const files = new ProjectFiles();
  const project = createProject(tsconfig, files.host, new Set(registering.map((f) => f.path)), state.libraryFiles, undefined, state.dependencyResolutions);
  const upgraded = registering.map((f) => files.addSourceFile(project, f.path, f.sourceFile.getFullText(), scriptKindOf(f.path)));
  for (const sourceFile of upgraded) if (upgrade && isV1Source(sourceFile.getFullText())) upgradeV1Source(sourceFile, state.projectType);
  return upgraded.some((f) => loadsV2Server(f.getFullText()) && registrationSchemaErrors(f).length > 0) ? floor : undefined;
}
