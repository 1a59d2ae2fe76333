/**
 * v1 → v2 upgrade through the official `@modelcontextprotocol/codemod` package (a dependency, not a
 * copy): its `v1-to-v2` migration's transforms are applied to the SourceFiles of our one project.
 */
import { getMigration, type TransformContext } from '@modelcontextprotocol/codemod';
import type { SourceFile } from 'ts-morph';
import { LEGACY_SDK_PACKAGE, MCP_PACKAGE_PREFIX, TARGET_CLIENT_PACKAGE, TARGET_SERVER_PACKAGE } from '@mcp-mrtr/surface';

export type ProjectType = TransformContext['projectType'];

export interface UpgradeOutcome {
  changed: boolean;
  /** The official codemod's diagnostics (`line: message`), kept for the report. */
  notes: string[];
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
  if (!migration) return { changed: false, notes: [], error: 'the official v1-to-v2 migration is not available' };
  const before = sourceFile.getFullText();
  const notes: string[] = [];
  let changes = 0;
  try {
    for (const transform of migration.transforms) {
      const result = transform.apply(sourceFile, { projectType });
      changes += result.changesCount;
      // what a person must check (warnings, errors); `info` only describes what the transform did
      for (const d of result.diagnostics) if (!d.advisoryOnly && String(d.level) !== 'info') notes.push(`${d.line}: ${d.message}`);
    }
  } catch (error) {
    sourceFile.replaceWithText(before);
    return { changed: false, notes, error: `v1-to-v2 upgrade failed: ${(error as Error).message}` };
  }
  keepQuoteStyle(sourceFile, before);
  return { changed: changes > 0 && sourceFile.getFullText() !== before, notes };
}

/** The official transforms write `"@modelcontextprotocol/..."`; keep the file's own quote style. */
function keepQuoteStyle(sourceFile: SourceFile, before: string): void {
  const singles = (before.match(/\bfrom\s+'/g) ?? []).length + (before.match(/require\('/g) ?? []).length;
  const doubles = (before.match(/\bfrom\s+"/g) ?? []).length + (before.match(/require\("/g) ?? []).length;
  const quote = singles >= doubles ? "'" : '"';
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
