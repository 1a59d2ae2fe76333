import { readFileSync, writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { migrateSource } from '../../src/migrate.js';
it('scratch', async () => {
  process.env.MCP_REQUEST_STATE_KEY ??= 'x'.repeat(40);
  for (const file of (process.env.FILES ?? '').split(',').filter(Boolean)) {
    const r = await migrateSource(readFileSync(file, 'utf8'), file, {});
    const out = file.replace('.input.', '.output.');
    if (process.env.WRITE) writeFileSync(out, r.output ?? '');
    console.log(`===== ${file} (${r.status}) ${r.error ?? ''}\n${process.env.QUIET ? '' : r.output}`);
    for (const s of r.sites) console.log(`  ${s.line} ${s.method} ${s.status} ${s.reason ?? ''}`);
    for (const c of r.created) { console.log('CREATED', c.path); if (process.env.WRITE) writeFileSync(c.path, c.output ?? ''); }
  }
}, 120000);
