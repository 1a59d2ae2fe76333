import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { migrateInPlace, tempProject } from '../security/temp-project.js';
const SERVER = readFileSync('/tmp/t11/server.ts', 'utf8');
const TEST = readFileSync('/tmp/t11/server.test.ts', 'utf8');
it('scratch', async () => {
  const dir = tempProject('scratch', { 'prefs.ts': SERVER, 'prefs.test.ts': TEST });
  const result = await migrateInPlace(dir);
  console.log(JSON.stringify(result.files.map((f) => ({ path: f.path, sites: f.sites })), null, 1));
  console.log(readFileSync(join(dir, 'prefs.ts'), 'utf8'));
  console.log(readFileSync(join(dir, 'prefs.test.ts'), 'utf8'));
}, 120000);
