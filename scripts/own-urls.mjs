// An esbuild plugin for bundles of natprod's TypeScript sources (scripts/build.mjs for dist/,
// shared/threads/build-thread-bundle.mjs for the development threads' bundle): each source file's
// `import.meta.url` becomes that file's own URL, as if it had not been bundled (a bundle has only
// one), so that `new URL('../data/x.json', import.meta.url)` still finds the data files, which stay
// in the repository next to the sources.
//
// With `outDir`, the URL is written relative to the bundle's own (`new URL('../shared/...',
// import.meta.url)`), so a checkout can be moved after it was built; without, as an absolute file
// URL (the development bundle: its cache may be reached through a symlinked node_modules).
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/** @param {{ outDir?: string }} [options] the folder the bundles will be read from (their final place) */
export function ownUrls({ outDir } = {}) {
  return {
    name: 'natprod-own-urls',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const url = outDir
          ? `new URL(${JSON.stringify(relative(outDir, args.path).split(sep).join('/'))}, import.meta.url).href`
          : JSON.stringify(pathToFileURL(args.path).href);
        return { contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', url), loader: 'ts' };
      });
    },
  };
}
