/**
 * The test-environment stage: when the run creates the state module, the project's own test
 * runner config gets the setup file that gives its test runs a random key (engine/test-state-key.ts):
 * a vitest config's `test.setupFiles`, else a jest config's `setupFiles` (jest.config.*, else
 * package.json's "jest", whose edit the package.json stage applies to the manifest it writes); where
 * that cannot be done by a plain edit, the state module's result says which tests need the key and
 * how to set it (without a config, the summary's secret lines say to set it for the tests).
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_STATE_KEY_ENV } from '@mcp-mrtr/surface';
import { packageDirWithin } from '../engine/package-dir.js';
import { STATE_MODULE_BASENAME } from '../engine/generated-names.js';
import { isJestConfig, jestConfigCandidates, namesSetupFile, setupFileName, setupFileText, vitestConfigCandidates, withJestSetupFile, withJestSetupFileInPackageJson, withSetupFile } from '../engine/test-state-key.js';
import type { FileResult, PackageJsonChange } from '../types.js';
import type { RunState } from './state.js';

export function testStateKeyStage({ env, results, options, jestManifestSetups }: Pick<RunState, 'env' | 'results' | 'options'> & Partial<Pick<RunState, 'jestManifestSetups'>>): void {
  if (!env.manifests) return;
  const keyEnv = options.stateKeyEnv ?? DEFAULT_STATE_KEY_ENV;
  const codecs = [...results.values()].filter((f) => f.status === 'created' && path.basename(f.path).startsWith(`${STATE_MODULE_BASENAME}.`));
  const done = new Set<string>();
  for (const codec of codecs) {
    const dir = packageDirWithin(path.dirname(codec.path), path.resolve(options.cwd ?? process.cwd()));
    if (!dir || done.has(dir)) continue;
    done.add(dir);
    const configPath = testConfigOf(dir);
    // no test runner config: the summary's secret lines already say to set the key for the tests too
    if (!configPath) continue;
    const existing = results.get(configPath);
    const text = existing?.output ?? existing?.original ?? fs.readFileSync(configPath, 'utf8');
    if (namesSetupFile(text)) continue;
    const setupPath = path.join(dir, setupFileName(configPath));
    const jest = isJestConfig(configPath);
    const manifest = path.basename(configPath) === 'package.json';
    const edit = manifest ? withJestSetupFileInPackageJson(configPath, text, setupPath) : jest ? withJestSetupFile(configPath, text, setupPath) : withSetupFile(configPath, text, `./${path.basename(setupPath)}`);
    if ('refused' in edit) {
      const option = jest ? 'setupFiles' : 'test.setupFiles';
      note(results, codec, `tests that create the migrated server, or start it with their environment, need ${keyEnv} (the server refuses to start without it): ${path.basename(configPath)} was not changed (${edit.refused}); add a setup file doing process.env.${keyEnv} ||= randomBytes(32).toString('base64url') to its ${option}`);
      continue;
    }
    // the package.json stage writes the manifest, with this edit on the text it computes
    if (manifest) jestManifestSetups?.set(configPath, setupPath);
    else {
      results.set(configPath, {
        ...(existing ?? { path: configPath, sites: [] }),
        status: existing?.status === 'flagged' ? 'flagged' : 'changed',
        original: existing?.original ?? text,
        output: edit.text,
      });
    }
    if (!fs.existsSync(setupPath)) results.set(setupPath, { path: setupPath, status: 'created', sites: [], output: setupFileText(keyEnv, jest) });
  }
}

/**
 * The package.json changes with the jest setup file added to the "jest" config of the manifests the
 * stage chose, on the text the package.json stage computed (its dependency changes kept), or on the
 * manifest as it is when the stage left it unchanged.
 */
export function withJestManifestSetups(changes: PackageJsonChange[], setups: ReadonlyMap<string, string> | undefined): PackageJsonChange[] {
  if (!setups || setups.size === 0) return changes;
  const out = [...changes];
  for (const [manifest, setupFile] of setups) {
    const index = out.findIndex((c) => c.path === manifest);
    const change = index >= 0 ? out[index]! : { path: manifest, removed: {}, added: {}, original: fs.readFileSync(manifest, 'utf8'), output: '' };
    const edit = withJestSetupFileInPackageJson(manifest, change.output || change.original, setupFile);
    // the stage tried the same edit on the manifest: only a manifest changed on disk since refuses now
    if ('refused' in edit) continue;
    const next = { ...change, output: edit.text };
    if (index >= 0) out[index] = next;
    else out.push(next);
  }
  return out;
}

/** The package's test runner config: a vitest config, else a jest config file, else a package.json with a "jest" key. */
function testConfigOf(dir: string): string | undefined {
  const file = [...vitestConfigCandidates(dir), ...jestConfigCandidates(dir)].find((p) => fs.existsSync(p));
  if (file) return file;
  const manifest = path.join(dir, 'package.json');
  try {
    return 'jest' in (JSON.parse(fs.readFileSync(manifest, 'utf8')) as object) ? manifest : undefined;
  } catch {
    return undefined;
  }
}

function note(results: Map<string, FileResult>, file: FileResult, text: string): void {
  results.set(file.path, { ...file, notes: [...(file.notes ?? []), text] });
}
