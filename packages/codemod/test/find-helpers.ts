import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Project, ts } from 'ts-morph';

export const TEST_DIR = path.dirname(fileURLToPath(import.meta.url));

/** One project per test file: sources are created in memory under test/__virtual__ (never saved). */
export function virtualProject(): Project {
  return new Project({
    skipAddingFilesFromTsConfig: true,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      allowJs: true,
      skipLibCheck: true,
      noEmit: true,
    },
  });
}

let counter = 0;
export function addSource(project: Project, code: string, ext = '.ts', name?: string) {
  const file = path.join(TEST_DIR, '__virtual__', name ?? `case${counter++}${ext}`);
  return project.createSourceFile(file, code, { overwrite: true });
}
