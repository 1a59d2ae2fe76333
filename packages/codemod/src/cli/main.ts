/**
 * mcp-mrtr: migrate MCP servers from server-to-client requests to Multi Round-Trip Requests.
 *
 *   mcp-mrtr migrate <paths..> [-d|--dry-run] [--force] [--json <file|->] [--sarif <file|->]
 *                              [--tsconfig <file>] [--state-key-env <NAME>] [--ignore <glob..>]
 *   mcp-mrtr check   <paths..> [--json <file|->] [--sarif <file|->] [--tsconfig <file>] [--ignore <glob..>]
 *                              [--baseline <file> [--update-baseline]] [--handoff <file.md>]
 *
 * Exit codes: 0 done, nothing left to attend to; 1 done, but sites were flagged or files failed
 * (check: legacy sites exist); 2 refused, usage error or crash.
 *
 * `main` takes its working directory, output streams and environment as a `CliIo` (the process's
 * own by default, as the `mcp-mrtr` binary in cli.ts runs it), so that a caller running it several
 * times in one process (the CLI tests) can capture what it prints and share the parsed library
 * files between runs; it never exits the process or changes its directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import yargs from 'yargs';
import { DEFAULT_STATE_KEY_ENV } from '@mcp-mrtr/surface';
import { discoverFiles, type Discovery, type SkippedEntry } from '../discover.js';
import { formatChangedFiles } from '../format.js';
import { applyResult, needsWrite } from '../fs/atomic-write.js';
import { dirtyWorkTrees, outsideWorkTrees } from '../git.js';
import { applyBaseline, type BaselineGate } from '../report/baseline.js';
import { flaggedSites, formatHandoff } from '../report/handoff.js';
import { toJsonReport } from '../report/json.js';
import { displayPath } from '../report/paths.js';
import { toSarif } from '../report/sarif.js';
import { formatTextReport, type FormatterOutcome } from '../report/text.js';
import type { MigrationResult } from '../types.js';
import type { RunEnv } from '../run/state.js';
import { TOOL_NAME, VERSION } from '../version.js';

export const EXIT_OK = 0;
export const EXIT_ATTENTION = 1;
export const EXIT_REFUSED = 2;

class UsageError extends Error {}

/** `--json -` / `--sarif -`: the report goes to stdout (and the text summary to stderr). */
const STDOUT = '-';

interface CommonArgs {
  paths: string[];
  json?: string;
  sarif?: string;
  tsconfig?: string;
  ignore: string[];
}

interface MigrateArgs extends CommonArgs {
  dryRun: boolean;
  force: boolean;
  stateKeyEnv: string;
}

interface CheckArgs extends CommonArgs {
  baseline?: string;
  updateBaseline: boolean;
  handoff?: string;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Where a run prints: a terminal (`isTTY`, `columns`) or anything else that takes text. */
export interface CliOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** What `main` runs in: relative paths and reports are resolved against `cwd`. */
export interface CliIo {
  cwd: string;
  stdout: CliOutput;
  stderr: CliOutput;
  env: NodeJS.ProcessEnv;
  /** Parsed declaration files shared with the caller's other runs (engine/library-files.ts). */
  shared?: Pick<RunEnv, 'libraryFiles'>;
}

/** The process's own directory, streams and environment: what the `mcp-mrtr` binary runs in. */
export function processIo(): CliIo {
  return { cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr, env: process.env };
}

function useColor(io: CliIo): boolean {
  return Boolean(io.stdout.isTTY) && !io.env.NO_COLOR;
}

function progressReporter(io: CliIo): { onProgress?: (done: number, total: number, file: string) => void; end: () => void } {
  if (!io.stderr.isTTY) return { end: () => {} };
  let shown = false;
  return {
    onProgress: (done, total, file) => {
      shown = true;
      const line = `[${done}/${total}] ${displayPath(file, io.cwd)}`;
      const width = io.stderr.columns || 80;
      io.stderr.write(`\r\u001b[K${line.length > width - 1 ? `...${line.slice(line.length - width + 4)}` : line}`);
    },
    end: () => {
      if (shown) io.stderr.write('\r\u001b[K');
    },
  };
}

function validatePaths(paths: string[], cwd: string, ignore: string[]): Discovery {
  const discovery = discoverFiles(paths, { cwd, ignore });
  const missing = discovery.skipped.filter((s) => s.kind === 'missing');
  if (missing.length > 0) throw new UsageError(`path does not exist: ${missing.map((m) => displayPath(m.path, cwd)).join(', ')}`);
  return discovery;
}

/** True when a machine-readable report takes stdout; refuses two reports on it. */
function reportOnStdout(args: CommonArgs): boolean {
  if (args.json === STDOUT && args.sarif === STDOUT) throw new UsageError('--json - and --sarif - cannot both write to stdout: give one of them a file');
  return args.json === STDOUT || args.sarif === STDOUT;
}

function writeReports(result: MigrationResult, args: CommonArgs, command: 'migrate' | 'check', io: CliIo, dryRun: boolean): void {
  const { cwd } = io;
  if (args.json) writeReport(args.json, JSON.stringify(toJsonReport(result, { cwd, command, dryRun }), null, 2) + '\n', io);
  if (args.sarif) writeReport(args.sarif, JSON.stringify(toSarif(result, { cwd, command }), null, 2) + '\n', io);
}

function writeReport(target: string, text: string, io: CliIo): void {
  if (target === STDOUT) {
    io.stdout.write(text);
    return;
  }
  const file = path.resolve(io.cwd, target);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function unifiedDiff(result: MigrationResult, cwd: string): string {
  const patches: string[] = [];
  for (const file of result.files) {
    if (!needsWrite(file)) continue;
    const rel = displayPath(file.path, cwd);
    const created = file.status === 'created';
    patches.push(createTwoFilesPatch(created ? '/dev/null' : `a/${rel}`, `b/${rel}`, created ? '' : (file.original ?? ''), file.output ?? '', undefined, undefined, { context: 3 }));
  }
  for (const change of result.packageJsonChanges) {
    if (change.output === change.original) continue;
    const rel = displayPath(change.path, cwd);
    patches.push(createTwoFilesPatch(`a/${rel}`, `b/${rel}`, change.original, change.output, undefined, undefined, { context: 3 }));
  }
  // The `diff` package starts each patch with an `Index:`/`====` header: keep plain `---`/`+++` hunks.
  return patches.map((p) => p.replace(/^={3,}\n/m, '')).join('');
}

/** `gated`: with a baseline, how many sites the check fails on (the new ones). */
function exitCodeFor(result: MigrationResult, command: 'migrate' | 'check', gated = result.summary.sitesFound): number {
  if (result.summary.filesFailed > 0 || result.files.some((f) => f.status === 'failed')) return EXIT_ATTENTION;
  // a suppression without a reason suppresses nothing and is itself something to fix
  if ((result.summary.suppressionsWithoutReason ?? 0) > 0) return EXIT_ATTENTION;
  if (command === 'check') return gated > 0 ? EXIT_ATTENTION : EXIT_OK;
  return result.summary.sitesFlagged > 0 ? EXIT_ATTENTION : EXIT_OK;
}

async function analyse(
  paths: string[],
  io: CliIo,
  options: { tsconfig?: string; stateKeyEnv?: string; ignore: string[] },
): Promise<{ result: MigrationResult; skipped: SkippedEntry[] }> {
  const { cwd } = io;
  const discovery = validatePaths(paths, cwd, options.ignore);
  const progress = progressReporter(io);
  // Loaded on demand: the engine pulls in the TypeScript compiler, which --help does not need.
  const { migrateProject } = await import('../migrate.js');
  let result: MigrationResult;
  try {
    result = await migrateProject(
      paths,
      {
        write: false,
        cwd,
        ignore: options.ignore,
        ...(options.tsconfig ? { tsconfig: path.resolve(cwd, options.tsconfig) } : {}),
        ...(options.stateKeyEnv ? { stateKeyEnv: options.stateKeyEnv } : {}),
        ...(progress.onProgress ? { onProgress: progress.onProgress } : {}),
      },
      // the same walk validatePaths did: not done twice
      discovery,
      io.shared,
    );
  } finally {
    progress.end();
  }
  return { result, skipped: discovery.skipped };
}

function checkTsconfig(args: CommonArgs, cwd: string): void {
  if (args.tsconfig && !fs.existsSync(path.resolve(cwd, args.tsconfig))) throw new UsageError(`--tsconfig file not found: ${args.tsconfig}`);
}

async function runMigrate(args: MigrateArgs, io: CliIo): Promise<number> {
  const { cwd } = io;
  checkTsconfig(args, cwd);
  if (!ENV_NAME.test(args.stateKeyEnv)) throw new UsageError(`--state-key-env must be an environment variable name, got: ${args.stateKeyEnv}`);
  const reportTakesStdout = reportOnStdout(args);
  if (!args.dryRun && !args.force) {
    const dirty = dirtyWorkTrees(args.paths, cwd);
    if (dirty.length > 0) {
      const lines = dirty.flatMap((d) => [
        `  ${d.root} has ${d.total} uncommitted change(s):`,
        ...d.changes.map((c) => `    ${c}`),
        ...(d.total > d.changes.length ? ['    ...'] : []),
      ]);
      io.stderr.write(
        `${TOOL_NAME}: refusing to rewrite files in a git work tree with uncommitted changes:\n${lines.join('\n')}\n` +
          `Commit or stash them first so the migration can be reviewed and undone with git, preview with --dry-run, or pass --force.\n`,
      );
      return EXIT_REFUSED;
    }
  }
  if (!args.dryRun) {
    // Not refused (there is nothing to compare against), but said: without git the rewrite can be
    // neither reviewed as a diff nor undone.
    const outside = outsideWorkTrees(args.paths, cwd);
    if (outside.length > 0) {
      io.stderr.write(
        `${TOOL_NAME}: notice: ${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} not in a git work tree: ` +
          `files are rewritten in place with no git history to review or undo the change (preview with --dry-run, or back them up first).\n`,
      );
    }
  }

  const analysed = await analyse(args.paths, io, { tsconfig: args.tsconfig, stateKeyEnv: args.stateKeyEnv, ignore: args.ignore });
  let result = analysed.result;
  let formatter: FormatterOutcome = { kind: 'none' };
  if (args.dryRun) {
    const diff = unifiedDiff(result, cwd);
    if (diff && !reportTakesStdout) io.stdout.write(diff + '\n');
    const changed = result.files.filter(needsWrite).map((f) => f.path);
    formatter = formatChangedFiles(changed, cwd, { run: false });
  } else {
    const applied = applyResult(result);
    result = applied.result;
    formatter = formatChangedFiles(
      applied.written.filter((f) => path.basename(f) !== 'package.json'),
      cwd,
      { run: true },
    );
  }
  writeReports(result, args, 'migrate', io, args.dryRun);
  const report = formatTextReport(result, {
    cwd,
    command: 'migrate',
    dryRun: args.dryRun,
    paths: args.paths,
    formatter,
    skipped: analysed.skipped,
    color: useColor(io),
    stateKeyEnv: args.stateKeyEnv,
  });
  (reportTakesStdout ? io.stderr : io.stdout).write(report);
  return exitCodeFor(result, 'migrate');
}

async function runCheck(args: CheckArgs, io: CliIo): Promise<number> {
  const { cwd } = io;
  checkTsconfig(args, cwd);
  if (args.updateBaseline && !args.baseline) throw new UsageError('--update-baseline needs --baseline <file>');
  if (args.handoff === STDOUT) throw new UsageError('--handoff needs a file name');
  const reportTakesStdout = reportOnStdout(args);
  const { result, skipped } = await analyse(args.paths, io, { tsconfig: args.tsconfig, ignore: args.ignore });
  let gate: BaselineGate | undefined;
  if (args.baseline) {
    try {
      gate = applyBaseline(result, { file: path.resolve(cwd, args.baseline), update: args.updateBaseline, display: args.baseline, cwd });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  writeReports(result, args, 'check', io, true);
  let handoff = '';
  if (args.handoff) {
    writeReport(args.handoff, formatHandoff(result, { cwd, paths: args.paths }), io);
    handoff = `\nHand-off brief for ${flaggedSites(result).length} flagged site(s) written to ${args.handoff}.\n`;
  }
  const report = formatTextReport(result, { cwd, command: 'check', paths: args.paths, skipped, color: useColor(io) });
  (reportTakesStdout ? io.stderr : io.stdout).write(report + (gate?.text ?? '') + handoff);
  return exitCodeFor(result, 'check', gate?.gated);
}

function asStrings(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

/** Options `migrate` and `check` share: the same files and the same type information. */
const TSCONFIG_OPTION = { type: 'string', requiresArg: true, describe: 'tsconfig.json for type information' } as const;
const IGNORE_OPTION = { type: 'string', array: true, requiresArg: true, describe: 'Gitignore-style globs to skip (relative to cwd)' } as const;

// yargs gives an array positional `default: []`, which --help would show next to [required]
const PATHS = { type: 'string', array: true, describe: 'Files or directories', default: undefined } as const;

/** yargs' own parse and validation errors (unknown option, missing value) are usage errors. */
function isYargsError(error: unknown): boolean {
  return error instanceof Error && error.name === 'YError';
}

export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  let code: number | undefined;
  const parser = yargs(argv, io.cwd)
    .scriptName(TOOL_NAME)
    .usage(`${TOOL_NAME} <command> <paths..> [options]\n\nMigrates MCP servers from server-to-client requests to Multi Round-Trip Requests (MCP 2026-07-28).`)
    .version(VERSION)
    .alias('v', 'version')
    .help()
    .alias('h', 'help')
    .strict()
    .demandCommand(1, 'Give a command: migrate or check.')
    .recommendCommands()
    .option('json', { type: 'string', describe: 'Write a JSON report to <file> (- for stdout)', requiresArg: true })
    .option('sarif', { type: 'string', describe: 'Write a SARIF 2.1.0 report to <file> (- for stdout; GitHub code scanning)', requiresArg: true })
    .command(
      'migrate <paths..>',
      'Rewrite legacy requests in place; mark what cannot be migrated with @mcp-mrtr-todo',
      (y) =>
        y
          .positional('paths', PATHS)
          .option('dry-run', { alias: ['d', 'dry'], type: 'boolean', default: false, describe: 'Write nothing; print a unified diff' })
          .option('force', { type: 'boolean', default: false, describe: 'Run even in a git work tree with uncommitted changes' })
          .option('tsconfig', TSCONFIG_OPTION)
          .option('state-key-env', {
            type: 'string',
            requiresArg: true,
            default: DEFAULT_STATE_KEY_ENV,
            describe: 'Environment variable the generated code reads the requestState HMAC key from',
          })
          .option('ignore', IGNORE_OPTION),
      async (a) => {
        code = await runMigrate({
          paths: asStrings(a.paths),
          dryRun: Boolean(a.dryRun),
          force: Boolean(a.force),
          json: a.json,
          sarif: a.sarif,
          tsconfig: a.tsconfig,
          stateKeyEnv: String(a.stateKeyEnv),
          ignore: asStrings(a.ignore),
        }, io);
      },
    )
    .command(
      'check <paths..>',
      'Change nothing; list every legacy site and what migrate would do (exit 1 when any exist)',
      (y) =>
        y
          .positional('paths', PATHS)
          .option('tsconfig', TSCONFIG_OPTION)
          .option('ignore', IGNORE_OPTION)
          .option('baseline', { type: 'string', requiresArg: true, describe: 'Known sites: written when <file> does not exist; otherwise fail only on sites not in it' })
          .option('update-baseline', { type: 'boolean', default: false, describe: 'Rewrite the --baseline file with the sites found now' })
          .option('handoff', { type: 'string', requiresArg: true, describe: 'Write a Markdown brief per flagged site (code, reason, target API, checks) to <file.md>' }),
      async (a) => {
        code = await runCheck({
          paths: asStrings(a.paths),
          json: a.json,
          sarif: a.sarif,
          tsconfig: a.tsconfig,
          ignore: asStrings(a.ignore),
          baseline: a.baseline,
          updateBaseline: Boolean(a.updateBaseline),
          handoff: a.handoff,
        }, io);
      },
    )
    .example(`${TOOL_NAME} migrate src --dry-run`, 'Preview the migration as a diff')
    .example(`${TOOL_NAME} check src --sarif mrtr.sarif`, 'Gate a PR and annotate it with GitHub code scanning')
    .epilogue('Exit codes: 0 done, nothing left to attend to; 1 done, but sites were flagged or files failed (check: legacy sites exist); 2 refused, usage error or crash.')
    .wrap(Math.min(110, io.stdout.columns ?? 100))
    .exitProcess(false)
    // Throwing here stops yargs: a fail handler that returns lets it run the command anyway.
    .fail((message, error) => {
      if (error && !isYargsError(error)) throw error;
      throw new UsageError(`${message || error?.message} (run \`${TOOL_NAME} --help\` for usage)`);
    });
  let printed = '';
  try {
    // yargs prints --help, --version and its own messages through these (console.log/error by default)
    await parser.parseAsync(argv, {}, (_error, _argv, output) => {
      printed = output;
    });
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${TOOL_NAME}: ${error.message}\n`);
      return EXIT_REFUSED;
    }
    io.stderr.write(`${TOOL_NAME}: crashed: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT_REFUSED;
  }
  if (printed) io.stdout.write(`${printed}\n`);
  // --help / --version print and leave `code` unset.
  return code ?? EXIT_OK;
}
