// Builds the chemistry threads' bundle (see shared/threads/bundle.ts) and prints its path as JSON.
// Plain JavaScript and a process of its own: esbuild's plugins (needed to give each source file
// its own import.meta.url) only run in its asynchronous API, and a pool is created synchronously.
// Also run once while the Docker image is built (deploy/Dockerfile), where the app's
// node_modules is not writable at run time.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const cacheDir = `${root}node_modules/.cache/natprod`;

/** Each file's `import.meta.url` becomes that file's own URL (a bundle has only one). */
const ownUrls = {
  name: 'natprod-own-urls',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

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
  plugins: [ownUrls],
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
