import fs from 'node:fs';
import path from 'node:path';

/** The TypeScript files under `dir` (.ts, .tsx, .mts, .cts; declaration files left out), for the repository checks that read the code. */
export function typeScriptFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(full);
    return /\.[cm]?tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}
