// Preloaded with `node --require` when GNU time is unavailable: records this process's peak RSS (KiB) and CPU time (µs).
'use strict';
const fs = require('node:fs');
const target = process.env.BENCH_RSS_FILE;
if (target) {
  delete process.env.BENCH_RSS_FILE; // child processes of the measured tool must not overwrite it
  process.on('exit', () => {
    try {
      const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();
      fs.writeFileSync(target, JSON.stringify({ maxRSS, userCPUTime, systemCPUTime }));
    } catch {
      /* nothing useful to do while exiting */
    }
  });
}
