/**
 * v1 → v2 upgrade through the official `@modelcontextprotocol/codemod` package (a dependency, not a
 * copy): its `v1-to-v2` migration's transforms are applied to the SourceFiles of our one project.
 */
import { getMigration, type TransformContext } from '@modelcontextprotocol/codemod';
import { Node, SyntaxKind, type SourceFile, type Type } from 'ts-morph';
import { diffArrays } from 'diff';
import { LEGACY_SDK_PACKAGE, MCP_PACKAGE_PREFIX, TARGET_CLIENT_PACKAGE, TARGET_SERVER_PACKAGE } from '@mcp-mrtr/surface';
import { restoreComments } from './comments.js';
import { buildLineMap } from './line-map.js';
import { importStyleOf } from './rewrite/import-style.js';
import { layoutWrittenImports } from './rewrite/imports.js';
import { scriptKindOf } from './script-kind.js';
import { moduleQuote } from './source-text.js';
import { assertServerCapabilities } from './upgrade-capabilities.js';
import { repairUpgrade } from './upgrade-repairs.js';

export type ProjectType = TransformContext['projectType'];

export interface UpgradeOutcome {
  changed: boolean;
  /** What the upgrade leaves a person to check (`line: message`): the official codemod's diagnostics, then our repairs of its output and the comments it dropped. */
  notes: string[];
  /** Those of `notes` that are the official codemod's own diagnostics: the report credits them to it, the rest to this tool. */
  officialNotes: string[];
  /** Set when a transform threw; the file is then restored to its pre-upgrade text. */
  error?: string;
}

const V1_IMPORT = new RegExp(`['"]${LEGACY_SDK_PACKAGE.replace('/', '\\/')}(/[^'"]*)?['"]`);

export function isV1Source(text: string): boolean {
  return V1_IMPORT.test(text);
}

/** Client/server/both, as the official runner infers it: manifest first, then v1 import paths. */
export function detectProjectType(manifest: Record<string, unknown> | undefined, texts: Iterable<string>): ProjectType {
  if (manifest) {
    const deps = { ...(manifest.dependencies as object | undefined), ...(manifest.devDependencies as object | undefined) };
    const client = TARGET_CLIENT_PACKAGE in deps;
    const server = TARGET_SERVER_PACKAGE in deps;
    if (client && server) return 'both';
    if (client) return 'client';
    if (server) return 'server';
  }
  let client = false;
  let server = false;
  for (const text of texts) {
    if (!text.includes(LEGACY_SDK_PACKAGE)) continue;
    if (text.includes(`${LEGACY_SDK_PACKAGE}/client`)) client = true;
    if (text.includes(`${LEGACY_SDK_PACKAGE}/server`)) server = true;
    if (client && server) return 'both';
  }
  return client ? 'client' : server ? 'server' : 'unknown';
}

export function upgradeV1Source(sourceFile: SourceFile, projectType: ProjectType): UpgradeOutcome {
  const migration = getMigration('v1-to-v2');
  if (!migration) return { changed: false, notes: [], officialNotes: [], error: 'the official v1-to-v2 migration is not available' };
  const before = sourceFile.getFullText();
  // read from the imports as written, before the transforms rebuild them
  importStyleOf(sourceFile);
  const officialNotes: string[] = [];
  const repairNotes: string[] = [];
  let changes = 0;
  try {
    const shield = shieldNonServerCalls(sourceFile);
    for (const transform of migration.transforms) {
      const result = transform.apply(sourceFile, { projectType });
      changes += result.changesCount;
      // what a person must check (warnings, errors); `info` only describes what the transform did
      for (const d of result.diagnostics) if (!d.advisoryOnly && String(d.level) !== 'info') officialNotes.push(`${d.line}: ${d.message}`);
    }
    shield.restore();
    if (changes > 0) repairNotes.push(...repairUpgrade(sourceFile));
  } catch (error) {
    sourceFile.replaceWithText(before);
    return { changed: false, notes: [...officialNotes, ...repairNotes], officialNotes, error: `v1-to-v2 upgrade failed: ${(error as Error).message}` };
  }
  keepQuoteStyle(sourceFile, before);
  keepIndentation(sourceFile, before);
  // after the indentation is put back: its line diff would pair the literal's closing line, now
  // followed by the assertion, with the enclosing object's, and move that one
  if (changes > 0) repairNotes.push(...assertServerCapabilities(sourceFile, (line) => buildLineMap(before, sourceFile.getFullText()).toOriginal(line)));
  const notes = [...officialNotes, ...repairNotes];
  keepComments(sourceFile, before, notes);
  layoutWrittenImports(sourceFile, before);
  return { changed: changes > 0 && sourceFile.getFullText() !== before, notes, officialNotes };
}

/** v1 McpServer registration methods the official transforms rename (`.tool(` → `.registerTool(`, ...). */
const LEGACY_REGISTRATION_METHODS = new Set(['tool', 'prompt', 'resource']);
const SHIELD_PREFIX = '__mcpMrtrKept_';

/**
 * In a file that imports McpServer, the official transforms rewrite every `.tool(` / `.prompt(` /
 * `.resource(` call whatever its receiver: a project logger's `log.tool(name, event, data)` would
 * become `log.registerTool(name, { description: event }, data)`, a method the logger does not have.
 * Calls whose receiver the type checker shows is not an McpServer are hidden from the transforms
 * (the method name gets a prefix no transform matches) and given back their name afterwards.
 */
function shieldNonServerCalls(sourceFile: SourceFile): { restore(): void } {
  const none = { restore() {} };
  const text = sourceFile.getFullText();
  if (text.includes(SHIELD_PREFIX)) return none;
  const names: Array<{ start: number; end: number; name: string }> = [];
  for (const call of sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || !LEGACY_REGISTRATION_METHODS.has(callee.getName())) continue;
    let type: Type;
    try {
      type = callee.getExpression().getType();
    } catch {
      continue;
    }
    if (!notAnMcpServer(type, callee.getName())) continue;
    const nameNode = callee.getNameNode();
    names.push({ start: nameNode.getStart(), end: nameNode.getEnd(), name: nameNode.getText() });
  }
  if (names.length === 0) return none;
  let shielded = text;
  for (const n of names.sort((a, b) => b.start - a.start)) shielded = shielded.slice(0, n.start) + SHIELD_PREFIX + n.name + shielded.slice(n.end);
  sourceFile.replaceWithText(shielded);
  return {
    restore() {
      const current = sourceFile.getFullText();
      if (current.includes(SHIELD_PREFIX)) sourceFile.replaceWithText(current.split(SHIELD_PREFIX).join(''));
    },
  };
}

/**
 * The receiver is provably not an McpServer: its type (every member of a union) has no registerTool
 * and implements the method itself in project code (an object literal's or a class's method). A
 * receiver typed by an interface may still be an McpServer at run time: left to the transforms.
 */
function notAnMcpServer(type: Type, method: string): boolean {
  if (type.isAny() || type.isUnknown() || type.isTypeParameter()) return false;
  if (type.isUnion()) return type.getUnionTypes().every((t) => notAnMcpServer(t, method));
  const apparent = type.getApparentType();
  if ((apparent.getSymbol() ?? apparent.getAliasSymbol())?.getName() === 'McpServer' || apparent.getProperty('registerTool')) return false;
  const declarations = apparent.getProperty(method)?.getDeclarations() ?? [];
  return (
    declarations.length > 0 &&
    declarations.every((d) => {
      if (d.getSourceFile().isDeclarationFile()) return false;
      if (Node.isMethodDeclaration(d)) return d.getBody() !== undefined;
      const value = Node.isPropertyAssignment(d) || Node.isPropertyDeclaration(d) ? d.getInitializer() : undefined;
      return value !== undefined && (Node.isArrowFunction(value) || Node.isFunctionExpression(value));
    })
  );
}

/** The official transforms write `"@modelcontextprotocol/..."`; keep the file's own quote style. */
function keepQuoteStyle(sourceFile: SourceFile, before: string): void {
  const quote = moduleQuote(before);
  // One text edit for all specifiers: a node-by-node replaceWithText re-parses the file each time.
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const decl of [...sourceFile.getImportDeclarations(), ...sourceFile.getExportDeclarations()]) {
    const specifier = decl.getModuleSpecifier();
    if (!specifier) continue;
    const text = specifier.getText();
    if (text[0] !== quote && specifier.getLiteralValue().startsWith(MCP_PACKAGE_PREFIX)) edits.push({ start: specifier.getStart(), end: specifier.getEnd(), text: quote + specifier.getLiteralValue() + quote });
  }
  if (edits.length === 0) return;
  let text = sourceFile.getFullText();
  for (const edit of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  sourceFile.replaceWithText(text);
}

/**
 * The transforms rebuild import declarations and re-print handlers: a comment on an import (a
 * file-header doc comment included) can be dropped or left above another statement. Every comment
 * goes back next to the code it documented.
 */
function keepComments(sourceFile: SourceFile, before: string, notes: string[]): void {
  const after = sourceFile.getFullText();
  const outcome = restoreComments(before, after, scriptKindOf(sourceFile.getFilePath()), { move: true });
  if (outcome.text !== after) sourceFile.replaceWithText(outcome.text);
  for (const comment of outcome.lost) notes.push(`the v1-to-v2 upgrade dropped a comment that could not be put back: ${abbreviateComment(comment)}`);
}

export function abbreviateComment(comment: string): string {
  const flat = comment.replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

/**
 * The transforms re-print a migrated registration's callback with their own indentation (a body
 * indented two levels deeper than before). Lines they left as they were get their original
 * indentation back; the lines they changed keep theirs.
 */
function keepIndentation(sourceFile: SourceFile, before: string): void {
  const after = sourceFile.getFullText();
  const eol = after.includes('\r\n') ? '\r\n' : '\n';
  const a = before.split(/\r?\n/);
  const b = after.split(/\r?\n/);
  const indentOf = (line: string) => /^[ \t]*/.exec(line)![0];
  let i = 0;
  let j = 0;
  const next = [...b];
  const reindent = (from: number, to: number) => {
    if (b[to]!.trim() !== '') next[to] = indentOf(a[from]!) + b[to]!.trimStart();
  };
  const changes = diffArrays(
    a.map((l) => l.trim()),
    b.map((l) => l.trim()),
  );
  for (let c = 0; c < changes.length; c++) {
    const change = changes[c]!;
    const count = change.count ?? change.value.length;
    const following = changes[c + 1];
    if (change.removed && following?.added && (following.count ?? following.value.length) === count) {
      // a line the transforms rewrote in place (McpError → ProtocolError): its original indentation
      for (let k = 0; k < count; k++) reindent(i + k, j + k);
      i += count;
      j += count;
      c++;
    } else if (change.added) j += count;
    else if (change.removed) i += count;
    else for (let k = 0; k < count; k++, i++, j++) reindent(i, j);
  }
  const text = next.join(eol);
  if (text !== after) sourceFile.replaceWithText(text);
}
