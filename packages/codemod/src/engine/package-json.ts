/**
 * package.json dependency changes of a v1 project: `@modelcontextprotocol/sdk` out, the v2 packages
 * the migrated files import (`@modelcontextprotocol/server`, `/client` when used, ...) in, in the
 * same section. Only planned here; written by the caller (fs/atomic-write) like every other file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LEGACY_SDK_PACKAGE, TARGET_SERVER_VERSION, V2_PACKAGE_VERSIONS, V2_PACKAGES } from '@mcp-mrtr/surface';
import type { PackageJsonChange } from '../types.js';
import { isV1Source } from './upgrade.js';

const SECTIONS = ['dependencies', 'devDependencies'] as const;

export function planPackageJsonChanges(files: Array<{ path: string; text: string }>): PackageJsonChange[] {
  const owned = new Map<string, string[]>();
  const cache = new Map<string, string | undefined>();
  for (const file of files) {
    const manifest = nearestManifest(path.dirname(file.path), cache);
    if (!manifest) continue;
    const list = owned.get(manifest) ?? [];
    list.push(file.text);
    owned.set(manifest, list);
  }
  const changes: PackageJsonChange[] = [];
  for (const [manifestPath, texts] of owned) {
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
    // A file still importing the v1 SDK (e.g. a v1 CommonJS file the official codemod does not upgrade) keeps it declared.
    const keepLegacy = texts.some(isV1Source);
    const removed: Record<string, string> = keepLegacy ? {} : { [LEGACY_SDK_PACKAGE]: deps[LEGACY_SDK_PACKAGE]! };
    const added: Record<string, string> = {};
    const used = usedV2Packages(texts);
    const declared = (name: string) => SECTIONS.some((s) => isRecord(json[s]) && name in (json[s] as Record<string, string>));
    for (const name of used) if (!declared(name)) added[name] = V2_PACKAGE_VERSIONS[name] ?? TARGET_SERVER_VERSION;
    if (keepLegacy && Object.keys(added).length === 0) continue;
    const wasSorted = isSorted(Object.keys(deps));
    const next: Record<string, string> = {};
    for (const [name, range] of Object.entries(deps)) if (keepLegacy || name !== LEGACY_SDK_PACKAGE) next[name] = range;
    Object.assign(next, added);
    json[section] = wasSorted ? Object.fromEntries(Object.entries(next).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : next;
    const indent = /^[ \t]+(?=")/m.exec(original)?.[0] ?? '  ';
    let output = JSON.stringify(json, null, indent);
    if (original.endsWith('\n')) output += original.endsWith('\r\n') ? '\r\n' : '\n';
    if (original.includes('\r\n')) output = output.replace(/\r?\n/g, '\r\n');
    changes.push({ path: manifestPath, removed, added, original, output });
  }
  return changes;
}

/** v2 packages imported by the (migrated) texts; the server package whenever the SDK was used. */
function usedV2Packages(texts: string[]): string[] {
  const used = new Set<string>();
  for (const text of texts) {
    for (const name of V2_PACKAGES) {
      if (text.includes(`'${name}'`) || text.includes(`"${name}"`) || text.includes(`'${name}/`) || text.includes(`"${name}/`)) used.add(name);
    }
  }
  return [...used].sort();
}

function nearestManifest(start: string, cache: Map<string, string | undefined>): string | undefined {
  if (cache.has(start)) return cache.get(start);
  const candidate = path.join(start, 'package.json');
  let found: string | undefined;
  if (fs.existsSync(candidate)) found = candidate;
  // A manifest above the repository root belongs to another project (e.g. a temp project created
  // inside this monorepo): never rewrite it.
  else if (fs.existsSync(path.join(start, '.git'))) found = undefined;
  else {
    const parent = path.dirname(start);
    found = parent === start ? undefined : nearestManifest(parent, cache);
  }
  cache.set(start, found);
  return found;
}

function isRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSorted(keys: string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}
