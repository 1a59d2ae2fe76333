/**
 * `npm run demo` (after the build): the built demo migrates the bundled v1 server with the built CLI
 * and completes every tool and the prompt against a real 2026-07-28 client, printing each round.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt, packageRoot, repoRoot } from './helpers.js';
import { CHILD_PROCESS_TIMEOUT_MS } from '../child-timeouts.js';

describe('demo', () => {
  it('migrates the demo server and runs it over MRTR rounds', () => {
    assertBuilt();
    const run = spawnSync(process.execPath, [path.join(packageRoot, 'dist', 'demo.js')], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', MCP_REQUEST_STATE_KEY: '' },
      timeout: CHILD_PROCESS_TIMEOUT_MS,
    });
    expect(run.status, run.stderr + run.stdout.slice(-3000)).toBe(0);
    const out = run.stdout;
    // the diff and the report of the real CLI run
    expect(out).toContain('--- a/src/server.ts');
    expect(out).toContain('+++ b/src/server.ts');
    expect(out).toMatch(/mcp-mrtr migrate: \d+ legacy sites/);
    expect(out).toMatch(/Not migrated \(1\)[^\n]*\n\s+src\/server\.ts:\d+\s+roots\/list/);
    expect(out).toContain("Find every site left to do: grep -rn --exclude-dir=node_modules --include='*.[jt]s' --include='*.[jt]sx' --include='*.[cm][jt]s' '@mcp-mrtr-todo' .");
    // the conversation: every step completes, the wizard takes three rounds with sealed state
    expect(out).toContain('connected: protocol 2026-07-28');
    expect(out).toContain('← result: Deleted notes/old.md.');
    expect(out).toContain('← result: Deployment of api cancelled.');
    expect(out).toMatch(/round 3 → tools\/call create_project[\s\S]*← result: Created atlas \(typescript\) from template web-app\./);
    expect(out).toMatch(/input_required keys \[\w+\], requestState \d+ chars \(sealed\)/);
    expect(out).toContain('← result: Summary (demo-llm): MRTR moves server questions into tool results.');
    expect(out).toContain('← result: root atlas: file:///home/ada/atlas');
    expect(out).toContain('← prompt: Review this code for security');
    expect(out).toContain('Every tool and the prompt completed over MRTR rounds.');
    const dir = /Migrated project: (\S+)/.exec(out)![1]!;
    fs.rmSync(path.resolve(repoRoot, dir), { recursive: true, force: true });
  });
});
