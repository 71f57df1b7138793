// Builds the chemistry threads' bundle for a process run from the TypeScript sources (development,
// tests; see shared/threads/bundle.ts) and prints its path as JSON. A process run from dist/ uses
// the one scripts/build.mjs built instead. Plain JavaScript and a process of its own: esbuild's
// plugins (needed to give each source file its own import.meta.url) only run in its asynchronous
// API, and a pool is created synchronously.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ownUrls } from '../../scripts/own-urls.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cacheDir = `${root}node_modules/.cache/natprod`;

const out = await build({
  entryPoints: [fileURLToPath(new URL('./thread.ts', import.meta.url))],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  write: false,
  sourcemap: 'inline',
  sourcesContent: false,
  logLevel: 'silent',
  // Absolute URLs: node_modules (and this cache) may be another checkout's, through a symlink.
  plugins: [ownUrls()],
});
const text = out.outputFiles[0].text;
const file = `${cacheDir}/thread-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.mjs`;
if (!existsSync(file)) {
  mkdirSync(cacheDir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}
// Bundles of earlier sources (one per edit of the thread code): the 8 most recently used are
// kept, so that a process still running on an older one can start a replacement thread.
utimesSync(file, new Date(), new Date());
const older = readdirSync(cacheDir)
  .filter((name) => /^thread-[0-9a-f]{16}\.mjs$/.test(name) && `${cacheDir}/${name}` !== file)
  .map((name) => ({ path: `${cacheDir}/${name}`, used: statSync(`${cacheDir}/${name}`).mtimeMs }))
  .sort((a, b) => b.used - a.used);
for (const { path } of older.slice(7)) {
  try {
    unlinkSync(path);
  } catch {
    // removed by another process meanwhile
  }
}
process.stdout.write(`${JSON.stringify({ file })}\n`);
