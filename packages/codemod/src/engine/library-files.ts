/**
 * Parsed declaration files shared by ts-morph projects: TypeScript's lib files and the `.d.ts`
 * files of installed packages (anything under a `node_modules` folder) are parsed once and handed to
 * every project given the same `LibraryFiles`, as TypeScript's own language service shares source
 * files between the projects of one editor. A run builds more than one project (verify's second one
 * for the upgrade's own errors) and a caller running many small migrations (the fixture suite, one
 * run per case) would otherwise parse lib.dom.d.ts, @types/node and the SDK again for every run.
 *
 * Sharing is safe where TypeScript's is: a file is handed out only to projects whose compiler
 * settings give the same document-registry key (what the parse and the binder depend on), and only
 * when its text is the text that was parsed. The projects' own files never go through here: the
 * engine edits them.
 *
 * ts-morph (pinned) has no option for a shared registry; `share` wraps the two methods of its
 * per-project registry through which every source file is created. When that shape is missing
 * (another ts-morph), the project keeps its own registry: slower, never wrong.
 * test/library-files.test.ts fails when sharing stops happening.
 */
import { ts, type Project } from 'ts-morph';
import type { SharedResolutions } from './dependency-resolutions.js';

const DECLARATION_IN_PACKAGE = /\/node_modules\/.+\.d\.[cm]?ts$/;

interface Entry {
  text: string;
  sourceFile: ts.SourceFile;
}

/** The part of ts-morph's per-project document registry this module wraps. */
interface ProjectRegistry {
  createOrUpdateSourceFile(fileName: string, settings: ts.CompilerOptions, snapshot: ts.IScriptSnapshot, scriptKind: ts.ScriptKind | undefined): ts.SourceFile;
  acquireDocument(fileName: string, settings: ts.CompilerOptions, snapshot: ts.IScriptSnapshot, version: string, scriptKind: ts.ScriptKind | undefined): ts.SourceFile;
}

export class LibraryFiles {
  private readonly entries: Map<string, Entry>;
  private readonly keys: ts.DocumentRegistry;
  /** Source files handed out again instead of parsed (tests read it). */
  reused = 0;
  /** Imports made inside dependencies, resolved by one run and handed to the next (engine/dependency-resolutions.ts). */
  readonly resolutions: SharedResolutions = new Map();

  /**
   * `parsedFrom`: another cache whose parsed files this one shares, not its resolutions: for a caller
   * whose runs are on unrelated projects (the test suite: each test file's own projects), a file's
   * parse depends only on its text and settings, which every lookup checks.
   */
  constructor(parsedFrom?: LibraryFiles) {
    this.entries = parsedFrom?.entries ?? new Map();
    this.keys = parsedFrom?.keys ?? ts.createDocumentRegistry();
  }

  /** Makes `project` take its declaration files from (and add them to) this cache. Returns whether it could. */
  share(project: Project): boolean {
    const registry = registryOf(project);
    if (!registry) return false;
    const create = registry.createOrUpdateSourceFile.bind(registry);
    const acquire = registry.acquireDocument.bind(registry);
    registry.createOrUpdateSourceFile = (fileName, settings, snapshot, scriptKind) =>
      this.lookup(fileName, settings, snapshot, scriptKind, (parseSettings) => create(fileName, parseSettings, snapshot, scriptKind));
    registry.acquireDocument = (fileName, settings, snapshot, version, scriptKind) =>
      this.lookup(fileName, settings, snapshot, scriptKind, (parseSettings) => acquire(fileName, parseSettings, snapshot, version, scriptKind));
    return true;
  }

  private lookup(fileName: string, settings: ts.CompilerOptions, snapshot: ts.IScriptSnapshot, scriptKind: ts.ScriptKind | undefined, parse: (settings: ts.CompilerOptions) => ts.SourceFile): ts.SourceFile {
    const standardName = fileName.replace(/\\/g, '/');
    if (!DECLARATION_IN_PACKAGE.test(standardName)) return parse(settings);
    const key = `${this.keys.getKeyForCompilationSettings(settings)}|${scriptKind ?? ''}|${standardName}`;
    const text = snapshot.getText(0, snapshot.getLength());
    const entry = this.entries.get(key);
    if (entry && entry.text === text) {
      this.reused++;
      return entry.sourceFile;
    }
    const sourceFile = parse(declarationParse(settings));
    this.entries.set(key, { text, sourceFile });
    return sourceFile;
  }
}

/**
 * The settings a package's declaration file is parsed with: its JSDoc comments only where type
 * errors can depend on them (`@see` / `@link` in a TypeScript file), as tsc itself parses every
 * file. Nothing the engine asks of a package's declarations reads their documentation, and on a
 * project whose tsconfig loads every `@types` package (engine/automatic-types.ts) parsing it all
 * was a large part of building the first program (@types/node alone is 2.2 MB, two thirds of it comments).
 *
 * ts-morph's registry hands `settings.target` on as the parse's language version, which
 * TypeScript also takes as an options object (`ts.CreateSourceFileOptions`): the same language
 * version, with the JSDoc mode. Only the parse sees it; the cache key is read from the settings as
 * given.
 */
function declarationParse(settings: ts.CompilerOptions): ts.CompilerOptions {
  const options: ts.CreateSourceFileOptions = { languageVersion: settings.target ?? ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseForTypeErrors };
  return { ...settings, target: options as unknown as ts.ScriptTarget };
}

function registryOf(project: Project): ProjectRegistry | undefined {
  const registry = (project as unknown as { _context?: { compilerFactory?: { documentRegistry?: Partial<ProjectRegistry> } } })._context?.compilerFactory?.documentRegistry;
  if (typeof registry?.createOrUpdateSourceFile !== 'function' || typeof registry.acquireDocument !== 'function') return undefined;
  return registry as ProjectRegistry;
}
