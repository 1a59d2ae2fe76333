/**
 * Writing migrated files so that a crash or a full disk never leaves a half-written source:
 * the new text goes to a temporary file in the same directory, is fsynced, then renamed over the
 * original (rename is atomic within a file system). The original's permission bits are kept.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FileResult, MigrationResult } from '../types.js';

export class WriteRefusedError extends Error {}

/**
 * Writes `content` to `file` atomically. Refuses files without any write permission bit (they are
 * read-only on purpose; root would otherwise overwrite them silently).
 */
export function writeFileAtomic(file: string, content: string): void {
  let mode = 0o644;
  let existing: fs.Stats | undefined;
  try {
    existing = fs.statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (existing) {
    if (!existing.isFile()) throw new WriteRefusedError(`not a regular file: ${file}`);
    mode = existing.mode & 0o7777;
    if ((mode & 0o222) === 0) throw new WriteRefusedError(`file is read-only (mode ${mode.toString(8)}); make it writable to migrate it`);
  }
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.mcp-mrtr-${process.pid}-${crypto.randomBytes(4).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = fs.openSync(temp, 'wx', mode);
    fs.writeFileSync(fd, content, 'utf8');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    // openSync's mode is filtered by the umask: set the original bits explicitly.
    fs.chmodSync(temp, mode);
    fs.renameSync(temp, file);
  } catch (error) {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw error;
  }
  syncDirectory(dir);
}

function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some file systems do not support fsync on directories; the rename is still atomic.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export interface WriteFailure {
  path: string;
  error: string;
}

export interface ApplyOutcome {
  /** The result with write failures folded in (those files `failed`, their sites `flagged`). */
  result: MigrationResult;
  /** Absolute paths written (source files, created files, package.json files). */
  written: string[];
  failures: WriteFailure[];
}

/** Whether applying `file` changes the disk. */
export function needsWrite(file: FileResult): boolean {
  if (file.output === undefined) return false;
  if (file.status === 'created') return true;
  if (file.status === 'failed' || file.status === 'skipped') return false;
  return file.output !== file.original;
}

/**
 * Writes every changed or created file and every package.json change of `result`. A file that
 * cannot be written (read-only, changed on disk since it was read, I/O error) becomes a `failed`
 * file with the error; the run goes on with the others.
 */
export function applyResult(result: MigrationResult): ApplyOutcome {
  const written: string[] = [];
  const failures: WriteFailure[] = [];
  const files = result.files.map((file): FileResult => {
    if (!needsWrite(file)) return file;
    try {
      if (file.status !== 'created') assertUnchangedOnDisk(file.path, file.original);
      fs.mkdirSync(path.dirname(file.path), { recursive: true });
      writeFileAtomic(file.path, file.output!);
      written.push(file.path);
      return file;
    } catch (error) {
      const message = `could not write: ${(error as Error).message}`;
      failures.push({ path: file.path, error: message });
      return {
        ...file,
        status: 'failed',
        error: message,
        output: file.original,
        sites: file.sites.map((site) =>
          site.status === 'migrated' ? { ...site, status: 'flagged', reason: `migration not written: ${message}` } : site,
        ),
      };
    }
  });

  const packageJsonFailures: FileResult[] = [];
  const packageJsonChanges = result.packageJsonChanges.filter((change) => {
    if (change.output === change.original) return true;
    try {
      assertUnchangedOnDisk(change.path, change.original);
      writeFileAtomic(change.path, change.output);
      written.push(change.path);
      return true;
    } catch (error) {
      const message = `could not write: ${(error as Error).message}`;
      failures.push({ path: change.path, error: message });
      packageJsonFailures.push({ path: change.path, status: 'failed', sites: [], original: change.original, output: change.original, error: message });
      return false;
    }
  });

  const summary = { ...result.summary };
  result.files.forEach((before, i) => {
    const after = files[i]!;
    if (after === before) return;
    summary.filesFailed += 1;
    summary.filesChanged -= 1;
    const demoted = before.sites.filter((s) => s.status === 'migrated').length;
    summary.sitesMigrated -= demoted;
    summary.sitesFlagged += demoted;
  });
  // A package.json that could not be written is a failed file too.
  summary.filesFailed += packageJsonFailures.length;

  return { result: { ...result, summary, files: [...files, ...packageJsonFailures], packageJsonChanges }, written, failures };
}

function assertUnchangedOnDisk(file: string, original: string | undefined): void {
  if (original === undefined) return;
  const now = fs.readFileSync(file, 'utf8');
  if (now !== original) throw new WriteRefusedError('the file changed on disk during the migration; run again');
}
