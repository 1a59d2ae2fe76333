/**
 * package.json dependency changes of a v1 project: `@modelcontextprotocol/sdk` out, the v2 packages
 * the migrated files import (`@modelcontextprotocol/server`, `/client` when used, ...) in. A package
 * that only test files import goes to devDependencies. The SDK stays while any source file of the
 * package still imports it, including files this run did not cover (`migrate src/` leaves `test/`
 * on v1). Only planned here; written by the caller (fs/atomic-write) like every other file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import { LEGACY_SDK_PACKAGE, TARGET_SERVER_PACKAGE, TARGET_SERVER_VERSION, V2_PACKAGE_VERSIONS, V2_PACKAGES } from '@mcp-mrtr/surface';
import type { PackageJsonChange } from '../types.js';
import { discoverFiles } from '../discover.js';
import { looksLikeTestFile } from './test-mocks/index.js';
import { isRepositoryRoot, nearestPackageDir } from './package-dir.js';
import { zodBelowFloor, zodFloorCause, type ZodFloor } from './zod-floor.js';

const SECTIONS = ['dependencies', 'devDependencies'] as const;

const LEGACY_MOCK = new RegExp(`\\.(?:mock|doMock|unstable_mockModule)\\(\\s*['"\`]${LEGACY_SDK_PACKAGE.replace('/', '\\/')}(?:/|['"\`])`);

/**
 * The text loads the v1 SDK: an import, re-export, `require()`, `import()` or a test runner's module
 * mock of it. A mere string naming it (a bundler's `external` list, a comment) is not a use.
 */
export function importsV1Sdk(text: string): boolean {
  if (!text.includes(LEGACY_SDK_PACKAGE)) return false;
  const { importedFiles } = ts.preProcessFile(text, true, true);
  if (importedFiles.some((f) => f.fileName === LEGACY_SDK_PACKAGE || f.fileName.startsWith(`${LEGACY_SDK_PACKAGE}/`))) return true;
  return LEGACY_MOCK.test(text);
}

/** Files of the package outside this run that still import the v1 SDK (relative paths, a few). */
function v1ImportersOutside(manifestPath: string, inRun: ReadonlySet<string>): string[] {
  const dir = path.dirname(manifestPath);
  const found: string[] = [];
  for (const file of discoverFiles([dir], { cwd: dir }).files) {
    if (inRun.has(file)) continue;
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    if (importsV1Sdk(text)) found.push(path.relative(dir, file));
    if (found.length >= 3) break;
  }
  return found;
}

/** `zodRaised`: the run raised the project's zod (run/zod-raise.ts), its code analysed with v2's. */
export function planPackageJsonChanges(files: Array<{ path: string; text: string }>, inRun: ReadonlySet<string> = new Set(files.map((f) => f.path)), zodRaised?: ZodFloor): PackageJsonChange[] {
  const owned = new Map<string, Array<{ path: string; text: string }>>();
  const cache = new Map<string, string | undefined>();
  for (const file of files) {
    const manifest = nearestManifest(path.dirname(file.path), cache);
    if (!manifest) continue;
    const list = owned.get(manifest) ?? [];
    list.push(file);
    owned.set(manifest, list);
  }
  const changes: PackageJsonChange[] = [];
  for (const [manifestPath, owners] of owned) {
    const texts = owners.map((f) => f.text);
    let original: string;
    let json: Record<string, Record<string, string> | unknown>;
    try {
      original = fs.readFileSync(manifestPath, 'utf8');
      json = JSON.parse(original) as typeof json;
    } catch {
      continue;
    }
    const section = SECTIONS.find((s) => isRecord(json[s]) && LEGACY_SDK_PACKAGE in (json[s] as Record<string, string>));
    if (!section) continue;
    const deps = json[section] as Record<string, string>;
    // A file still importing the v1 SDK (e.g. a v1 CommonJS file the official codemod does not upgrade,
    // or a file this run did not cover) keeps it declared.
    const notes: string[] = [];
    const inside = owners.filter((f) => importsV1Sdk(f.text)).map((f) => path.relative(path.dirname(manifestPath), f.path));
    let keepLegacy = inside.length > 0;
    if (keepLegacy) notes.push(`${LEGACY_SDK_PACKAGE} kept: ${inside.slice(0, 3).join(', ')}${inside.length > 3 ? ', ...' : ''} still import it after this run; migrate them, then remove it`);
    if (!keepLegacy) {
      const outside = v1ImportersOutside(manifestPath, inRun);
      if (outside.length > 0) {
        keepLegacy = true;
        notes.push(`${LEGACY_SDK_PACKAGE} kept: ${outside.join(', ')}${outside.length >= 3 ? ', ...' : ''} (not in this run) still import it; migrate them too, then remove it`);
      }
    }
    const removed: Record<string, string> = keepLegacy ? {} : { [LEGACY_SDK_PACKAGE]: deps[LEGACY_SDK_PACKAGE]! };
    const added: Record<string, string> = {};
    const addedTo: Record<string, (typeof SECTIONS)[number]> = {};
    const declared = (name: string) => SECTIONS.some((s) => isRecord(json[s]) && name in (json[s] as Record<string, string>));
    for (const name of usedV2Packages(texts)) {
      if (declared(name)) continue;
      added[name] = V2_PACKAGE_VERSIONS[name] ?? TARGET_SERVER_VERSION;
      const onlyTests = owners.filter((f) => usedV2Packages([f.text]).includes(name)).every((f) => looksLikeTestFile(f.path, f.text));
      addedTo[name] = onlyTests ? 'devDependencies' : section;
    }
    const zod = zodRaised ? zodBump(json, manifestPath, usedV2Packages(texts)) : undefined;
    if (zod) {
      removed.zod = zod.from;
      notes.push(zod.note);
    }
    if (keepLegacy && Object.keys(added).length === 0 && !zod) {
      if (notes.length > 0) changes.push({ path: manifestPath, removed: {}, added: {}, notes, original, output: original });
      continue;
    }
    for (const target of SECTIONS) {
      const current = isRecord(json[target]) ? (json[target] as Record<string, string>) : undefined;
      const adding = Object.keys(added).filter((name) => addedTo[name] === target);
      if (!current && adding.length === 0) continue;
      const wasSorted = isSorted(Object.keys(current ?? {}));
      const next: Record<string, string> = {};
      for (const [name, range] of Object.entries(current ?? {})) if (keepLegacy || name !== LEGACY_SDK_PACKAGE) next[name] = range;
      for (const name of adding) next[name] = added[name]!;
      if (zod?.section === target) next.zod = zod.to;
      json[target] = wasSorted ? Object.fromEntries(Object.entries(next).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : next;
    }
    const indent = /^[ \t]+(?=")/m.exec(original)?.[0] ?? '  ';
    let output = JSON.stringify(json, null, indent);
    if (original.endsWith('\n')) output += original.endsWith('\r\n') ? '\r\n' : '\n';
    if (original.includes('\r\n')) output = output.replace(/\r?\n/g, '\r\n');
    changes.push({ path: manifestPath, removed, added: zod ? { ...added, zod: zod.to } : added, ...(notes.length > 0 ? { notes } : {}), original, output });
  }
  return changes;
}

interface ZodBump {
  section: (typeof SECTIONS)[number];
  from: string;
  to: string;
  note: string;
}

/**
 * zod raised to the range the v2 server declares when the run raised it (a registration of the
 * upgraded code does not compile on v2 with the project's zod, run/zod-raise.ts), the migrated texts
 * load the server and the installed zod is below it: v2 types registerTool/registerPrompt schemas
 * with that zod, so a zod 3 schema misses every overload. The run analysed and verified the code
 * with that zod (zod-floor.ts).
 */
function zodBump(json: Record<string, unknown>, manifestPath: string, used: string[]): ZodBump | undefined {
  if (!used.includes(TARGET_SERVER_PACKAGE)) return undefined;
  const section = SECTIONS.find((s) => isRecord(json[s]) && 'zod' in (json[s] as Record<string, string>));
  const floor = section ? zodBelowFloor(path.dirname(manifestPath)) : undefined;
  if (!section || !floor) return undefined;
  const from = (json[section] as Record<string, string>).zod!;
  const note = `zod ${from} -> ${floor.range}: ${zodFloorCause(floor)} (its registerTool/registerPrompt take zod 4 schemas; a zod 3 schema misses every overload), so the migration was analysed and verified with zod ${floor.range}; run npm install, and adapt the code zod 4 changed where tsc reports it`;
  return { section, from, to: floor.range, note };
}

/**
 * The text loads the v2 server package (a module specifier, as usedV2Packages reads them): a file the
 * run moves to v2. Only when some migrated text does, package.json's zod follows the run's raise
 * (zodBump), the raise is decided (run/zod-raise.ts) and zod 4's API errors are reported.
 */
export function loadsV2Server(text: string): boolean {
  return usedV2Packages([text]).includes(TARGET_SERVER_PACKAGE);
}

/** v2 packages imported by the (migrated) texts; the server package whenever the SDK was used. */
/**
 * The v2 packages the texts load (imports, re-exports, `require()`, `import()`): module specifiers
 * only, so a package named in a comment (a marker's advice: "serveStdio from
 * '@modelcontextprotocol/server/stdio'") adds no dependency.
 */
function usedV2Packages(texts: string[]): string[] {
  const used = new Set<string>();
  for (const text of texts) {
    if (!V2_PACKAGES.some((name) => text.includes(name))) continue;
    const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
    for (const name of V2_PACKAGES) {
      if (specifiers.some((s) => s === name || s.startsWith(`${name}/`))) used.add(name);
    }
  }
  return [...used].sort();
}

/**
 * The package.json a file's folder belongs to. A manifest above the repository root belongs to
 * another project (e.g. a temp project created inside this monorepo): never rewrite it.
 */
function nearestManifest(start: string, cache: Map<string, string | undefined>): string | undefined {
  const dir = nearestPackageDir(start, isRepositoryRoot, cache);
  return dir === undefined ? undefined : path.join(dir, 'package.json');
}

function isRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSorted(keys: string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}
