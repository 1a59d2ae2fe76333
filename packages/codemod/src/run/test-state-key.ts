/**
 * The test-environment stage: when the run creates the state module, the project's own vitest
 * config gets the setup file that gives its test runs a random key (engine/test-state-key.ts); where
 * that cannot be done by a plain edit, the state module's result says which tests need the key and
 * how to set it (without a vitest config, the summary's secret lines say to set it for the tests).
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_STATE_KEY_ENV } from '@mcp-mrtr/surface';
import { STATE_MODULE_BASENAME } from '../engine/rewrite/state-module.js';
import { namesSetupFile, setupFileName, setupFileText, vitestConfigCandidates, withSetupFile } from '../engine/test-state-key.js';
import type { FileResult } from '../types.js';
import type { RunState } from './state.js';

export function testStateKeyStage({ env, results, options }: Pick<RunState, 'env' | 'results' | 'options'>): void {
  if (!env.manifests) return;
  const keyEnv = options.stateKeyEnv ?? DEFAULT_STATE_KEY_ENV;
  const codecs = [...results.values()].filter((f) => f.status === 'created' && path.basename(f.path).startsWith(`${STATE_MODULE_BASENAME}.`));
  const done = new Set<string>();
  for (const codec of codecs) {
    const dir = packageDir(path.dirname(codec.path), path.resolve(options.cwd ?? process.cwd()));
    if (!dir || done.has(dir)) continue;
    done.add(dir);
    const configPath = vitestConfigCandidates(dir).find((p) => fs.existsSync(p));
    const why = (what: string) => `tests that create the migrated server, or start it with their environment, need ${keyEnv} (the server refuses to start without it): ${what}`;
    // no vitest config: the summary's secret lines already say to set the key for the tests too
    if (!configPath) continue;
    const existing = results.get(configPath);
    const text = existing?.output ?? existing?.original ?? fs.readFileSync(configPath, 'utf8');
    if (namesSetupFile(text)) continue;
    const setupPath = path.join(dir, setupFileName(configPath));
    const edit = withSetupFile(configPath, text, `./${path.basename(setupPath)}`);
    if ('refused' in edit) {
      note(results, codec, why(`${path.basename(configPath)} was not changed (${edit.refused}); add a setup file doing process.env.${keyEnv} ||= randomBytes(32).toString('base64url') to its test.setupFiles`));
      continue;
    }
    results.set(configPath, {
      ...(existing ?? { path: configPath, sites: [] }),
      status: existing?.status === 'flagged' ? 'flagged' : 'changed',
      original: existing?.original ?? text,
      output: edit.text,
    });
    if (!fs.existsSync(setupPath)) results.set(setupPath, { path: setupPath, status: 'created', sites: [], output: setupFileText(keyEnv) });
  }
}

/**
 * The folder of the nearest package.json at or above `dir`, never above the run's root: a package
 * that holds the project (a temp project made inside another repository, a monorepo root above the
 * folder the user ran in) is not the user's to change.
 */
function packageDir(dir: string, root: string): string | undefined {
  const relative = path.relative(root, dir);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, 'package.json'))) return d;
    if (d === root || path.dirname(d) === d) return undefined;
  }
}

function note(results: Map<string, FileResult>, file: FileResult, text: string): void {
  results.set(file.path, { ...file, notes: [...(file.notes ?? []), text] });
}
