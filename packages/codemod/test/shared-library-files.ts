/**
 * `migrateProject` for tests, with one `LibraryFiles` (src/engine/library-files.ts) for every run of
 * a test file: TypeScript's lib files and the packages' declaration files are parsed by the first
 * typed run and handed to the next ones, instead of parsed again by each (on the 2-core CI machine
 * about 2 of a small typed run's 3.5 s of CPU), and so are the imports resolved inside installed
 * packages (engine/dependency-resolutions.ts). A run still gets a declaration file only when its
 * text and compiler settings are the ones it was parsed with.
 *
 * A worker loads this module once for all the test files it runs (`isolate: false`), and test files
 * share nothing: each gets its own `LibraryFiles`, picked by the file the running test belongs to.
 * Shared between the projects of different files (v1 projects without v2 installed beside ones
 * with it), a test-mock rewrite and an importers check came out differently; the parsed files alone
 * are shared by the worker's test files (`new LibraryFiles(parsed)`: a lookup checks a file's text and
 * settings; `perWorker` keeps the heap under what the importers check needs), so that each test file no longer parses TypeScript's lib files and the SDKs again.
 */
import { perTestFile, perWorker } from './per-test-file.js';
import { LibraryFiles, migrateProject as migrateWith } from '../src/index.js';

const parsed = perWorker(() => new LibraryFiles());

/** The running test file's `LibraryFiles`. */
export const libraryFiles = perTestFile(() => new LibraryFiles(parsed()));

export function migrateProject(...[paths, options, discovered]: Parameters<typeof migrateWith>): ReturnType<typeof migrateWith> {
  return migrateWith(paths, options, discovered, { libraryFiles: libraryFiles() });
}
