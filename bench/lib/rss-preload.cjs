// Preloaded with `node --require` when GNU time is unavailable: records this process's peak RSS (KiB).
'use strict';
const fs = require('node:fs');
const target = process.env.BENCH_RSS_FILE;
if (target) {
  delete process.env.BENCH_RSS_FILE; // child processes of the measured tool must not overwrite it
  process.on('exit', () => {
    try {
      fs.writeFileSync(target, String(process.resourceUsage().maxRSS));
    } catch {
      /* nothing useful to do while exiting */
    }
  });
}
