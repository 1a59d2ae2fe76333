import path from 'node:path';

/** `file` relative to `cwd` with forward slashes (reports are read on every OS and by GitHub). */
export function displayPath(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  return (rel === '' ? path.basename(file) : rel).split(path.sep).join('/');
}
