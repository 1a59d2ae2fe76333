/**
 * The file system behind the engine's one ts-morph project. ts-morph's `createSourceFile(path,
 * text, { overwrite: true })` first reads and parses the file on disk, then parses `text` again;
 * every file we load comes with its text already decoded, so that first parse was pure waste (about
 * half of the load stage). `addSourceFile` hides the path from the disk for the duration of the one
 * create call, so the text is parsed once; module resolution never sees the path hidden.
 */
import path from 'node:path';
import { Project, type FileSystemHost, type SourceFile, type ts } from 'ts-morph';

export class ProjectFiles {
  /** The real file system, as ts-morph's default host sees it. */
  readonly host: FileSystemHost;
  private hidden: string | undefined;

  constructor() {
    const real = new Project({ skipLoadingLibFiles: true }).getFileSystem();
    this.host = new Proxy(real, {
      get: (target, key) => {
        if (key === 'fileExistsSync') return (file: string) => standard(file) !== this.hidden && target.fileExistsSync(file);
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  /** Adds `text` as the file at `filePath` (replacing a file already in the project), parsed once. */
  addSourceFile(project: Project, filePath: string, text: string, scriptKind: ts.ScriptKind): SourceFile {
    const existing = project.getSourceFile(filePath);
    // Already in the program through an import's resolution (a workspace package's entry, a file an
    // MCP file imports) and possibly analysed there: the same text keeps those nodes alive, where
    // overwriting would make every node taken from it before (a handler, a stored function) forgotten.
    if (existing && existing.getFullText() === text) return existing;
    if (existing) return project.createSourceFile(filePath, text, { overwrite: true, scriptKind });
    this.hidden = standard(filePath);
    try {
      return project.createSourceFile(filePath, text, { scriptKind });
    } catch {
      // the path was not hidden after all (a spelling of it we did not foresee): the slow way
      return project.createSourceFile(filePath, text, { overwrite: true, scriptKind });
    } finally {
      this.hidden = undefined;
    }
  }
}

function standard(file: string): string {
  return path.resolve(file).replace(/\\/g, '/');
}
