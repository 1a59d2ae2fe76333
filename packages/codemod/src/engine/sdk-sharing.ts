/**
 * Which imports between project files carry an MCP SDK object or type. A file held on the v1 SDK
 * (run/v1-hold-back.ts) and a file the run moves to v2 can sit on the two sides of an import only
 * when nothing of the SDK crosses it: a `registerX(server: McpServer)` that a v1 file calls with its
 * v1 server, a module-level `server` imported by a v2 file, a result type of one SDK major handed to
 * the other, none of these work across majors (the classes differ, and a v1 server cannot serve what
 * a v2 handler returns). An import of a plain helper (`formatDate(d: Date): string`) can.
 *
 * Read with the type checker on the texts the files have when it runs (their v1 texts, before the
 * upgrade): every binding an import takes (or a re-export passes on) is looked up among the
 * exporting file's declarations, and its type is searched for a type declared in an MCP SDK package:
 * the binding's own type, a function's parameters and result, type arguments (`Promise<McpServer>`),
 * union members, and the properties of object types the project declares. A type the checker does
 * not know (`any`, an unresolved import) may be anything: it counts as carrying the SDK, as does an
 * import the checker does not resolve to declarations (`require`, `import()`).
 */
import { MCP_PACKAGE_PREFIX } from '@mcp-mrtr/surface';
import { Node, type SourceFile, type ts, type Type } from 'ts-morph';
import { relativeImports } from './prefilter.js';

export interface SdkSharingEdge {
  importer: string;
  exporter: string;
  /** 1-based line of the import in the importer's current text. */
  line: number;
  /** The binding that carries the SDK (`registerTools`), or `*` for a namespace import or `export *`. */
  binding: string;
  /** What of the SDK it carries, for a reason: `McpServer`, or `an untyped value`. */
  carries: string;
}

export interface SharingFile {
  path: string;
  sourceFile: SourceFile;
  /** The text the relative-import scan reads (the file's v1 text). */
  text: string;
}

const SDK_DECLARATION_DIR = `/node_modules/${MCP_PACKAGE_PREFIX}`;
const UNTYPED = 'an untyped value';
const MAX_DEPTH = 4;
const MAX_PROPERTIES = 60;

/**
 * The imports among `files` that carry the SDK, importer and exporter both in `known`. Only the
 * imports of `importers` (default: every file) are read.
 */
export function sdkSharingEdges(files: readonly SharingFile[], known: ReadonlySet<string>, importers: ReadonlySet<string> = new Set(files.map((f) => f.path))): SdkSharingEdge[] {
  const edges: SdkSharingEdge[] = [];
  const knownSet = new Set(known);
  for (const file of files) {
    if (!importers.has(file.path)) continue;
    const declared = new Set<string>();
    for (const decl of [...file.sourceFile.getImportDeclarations(), ...file.sourceFile.getExportDeclarations()]) {
      const target = decl.getModuleSpecifierSourceFile();
      const exporter = target?.getFilePath() as string | undefined;
      if (!target || !exporter || !knownSet.has(exporter) || exporter === file.path) continue;
      declared.add(exporter);
      const carried = carriedBinding(decl, target);
      if (carried) edges.push({ importer: file.path, exporter, line: decl.getStartLineNumber(), ...carried });
    }
    // `require('./x')`, `import('./x')`, `jest.mock('./x')`: no declarations to read, so anything may cross
    for (const exporter of new Set(relativeImports(file.path, file.text, knownSet))) {
      if (declared.has(exporter) || exporter === file.path) continue;
      edges.push({ importer: file.path, exporter, line: lineOfSpecifier(file.sourceFile, exporter), binding: '*', carries: UNTYPED });
    }
  }
  return edges;
}

/** The first binding the declaration takes from `target` that carries the SDK, with what it carries. */
function carriedBinding(decl: Node, target: SourceFile): { binding: string; carries: string } | undefined {
  const names: string[] = [];
  let everything = false;
  if (Node.isImportDeclaration(decl)) {
    const clause = decl.getImportClause();
    if (!clause) return undefined; // `import './x.js'`: runs the module, takes nothing from it
    if (clause.getDefaultImport()) names.push('default');
    if (clause.getNamespaceImport()) everything = true;
    for (const spec of clause.getNamedImports()) names.push(spec.getNameNode().getText());
  } else if (Node.isExportDeclaration(decl)) {
    if (decl.isNamespaceExport() || decl.getNamedExports().length === 0) everything = true;
    for (const spec of decl.getNamedExports()) names.push(spec.getNameNode().getText());
  }
  const exported = target.getExportedDeclarations();
  for (const name of everything ? [...exported.keys()] : names) {
    const declarations = exported.get(name);
    // a name the checker cannot find among the exports: unknown, so it may be anything
    if (!declarations || declarations.length === 0) return { binding: everything ? '*' : name, carries: UNTYPED };
    for (const declaration of declarations) {
      const carries = sdkTypeIn(declaration.getType(), new Set(), 0);
      if (carries) return { binding: everything ? `* (${name})` : name, carries };
    }
  }
  return undefined;
}

/** The name of an SDK type the type contains, `an untyped value` for an unknown one near the top, or undefined. */
export function sdkTypeIn(type: Type, seen: Set<ts.Type>, depth: number): string | undefined {
  // the checker's own type objects: one per type, where ts-morph's wrappers are made per call
  if (seen.has(type.compilerType) || depth > MAX_DEPTH) return undefined;
  seen.add(type.compilerType);
  // the binding itself, or a function's parameter or result, of unknown type
  if (type.isAny() && depth <= 1) return UNTYPED;
  for (const symbol of [type.getAliasSymbol(), type.getSymbol()]) {
    if (symbol?.getDeclarations().some((d) => d.getSourceFile().getFilePath().includes(SDK_DECLARATION_DIR))) return symbol.getName();
  }
  const parts = [...(type.isUnion() ? type.getUnionTypes() : []), ...(type.isIntersection() ? type.getIntersectionTypes() : []), ...type.getAliasTypeArguments(), ...safeTypeArguments(type)];
  for (const part of parts) {
    const found = sdkTypeIn(part, seen, depth + 1);
    if (found) return found;
  }
  for (const signature of [...type.getCallSignatures(), ...type.getConstructSignatures()]) {
    for (const parameter of signature.getParameters()) {
      const declaration = parameter.getValueDeclaration() ?? parameter.getDeclarations()[0];
      if (!declaration) continue;
      const found = sdkTypeIn(parameter.getTypeAtLocation(declaration), seen, depth + 1);
      if (found) return found;
    }
    const found = sdkTypeIn(signature.getReturnType(), seen, depth + 1);
    if (found) return found;
  }
  if (type.isObject() && declaredInProject(type)) {
    for (const property of type.getProperties().slice(0, MAX_PROPERTIES)) {
      const declaration = property.getValueDeclaration() ?? property.getDeclarations()[0];
      if (!declaration) continue;
      const found = sdkTypeIn(property.getTypeAtLocation(declaration), seen, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

function safeTypeArguments(type: Type): Type[] {
  return type.isObject() ? type.getTypeArguments() : [];
}

/** An object type the project declares (an anonymous object type, an interface or class of its own), not one of a library. */
function declaredInProject(type: Type): boolean {
  const declarations = (type.getAliasSymbol() ?? type.getSymbol())?.getDeclarations() ?? [];
  return declarations.length > 0 && declarations.every((d) => !d.getSourceFile().getFilePath().includes('/node_modules/') && !d.getSourceFile().isDeclarationFile());
}

function lineOfSpecifier(sourceFile: SourceFile, exporter: string): number {
  const base = exporter.replace(/\.[cm]?[jt]sx?$/, '').split('/').pop()!;
  const text = sourceFile.getFullText();
  const at = text.search(new RegExp(`['"][^'"]*\\b${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\.[cm]?[jt]sx?)?['"]`));
  return at < 0 ? 1 : sourceFile.getLineAndColumnAtPos(at).line;
}
