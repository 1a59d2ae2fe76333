/**
 * `migrateProject` for tests, with one `LibraryFiles` (src/engine/library-files.ts) for every run of
 * a test file: TypeScript's lib files and the packages' declaration files are parsed by the first
 * typed run and handed to the next ones, instead of parsed again by each (on the 2-core CI machine
 * about 2 of a small typed run's 3.5 s of CPU), and so are the imports resolved inside installed
 * packages (engine/dependency-resolutions.ts). vitest loads this module once per test file, so
 * test files share nothing; a run still gets a declaration file only when its text and compiler
 * settings are the ones it was parsed with.
 */
import { LibraryFiles, migrateProject as migrateWith } from '../src/index.js';

export const libraryFiles = new LibraryFiles();

export function migrateProject(...[paths, options, discovered]: Parameters<typeof migrateWith>): ReturnType<typeof migrateWith> {
  return migrateWith(paths, options, discovered, { libraryFiles });
}
