/**
 * The web interface's browser bundles (docs/web.md): esbuild bundles `web/main.ts` (and the CSS it
 * imports) once per process, on first need, into memory: the first page's script, its stylesheet,
 * and the chunks loaded later (the structure editor: Ketcher, with its worker, WASM and stylesheet
 * from ./ketcher-assets.ts; OpenChemLib's editor as its fallback). Names carry a hash of their
 * contents, so they are served as immutable. Nothing is written to disk and nothing is committed:
 * `npm ci` + start works on a fresh machine, and a process run from the sources sees edits to
 * web/ after a restart.
 */
import { fileURLToPath } from 'node:url';
import { buildKetcherFiles } from './ketcher-assets.ts';

export interface WebAsset {
  body: Buffer;
  type: string;
  /** The body gzipped once (the editor's WASM), served to clients that accept gzip. */
  gzip?: Buffer;
  /** The asset's own Content-Security-Policy (the editor's worker). */
  csp?: string;
}

export interface WebBundle {
  /** Served name (no folder) → contents. */
  assets: Map<string, WebAsset>;
  /** The first page's script and stylesheet, as served names. */
  script: string;
  style: string;
  /** What a first visit loads before it can act: the script, the chunks it imports statically, the stylesheet. */
  first: string[];
  firstBytes: number;
  ms: number;
}

/** Where the bundles are served (under /static/, with the 3D viewer's script). */
export const ASSET_PREFIX = '/static/web/';
const ENTRY = fileURLToPath(new URL('../../web/main.ts', import.meta.url));
const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', map: 'application/json' };

let pending: Promise<WebBundle> | undefined;

/** The bundle, built on the first call (about a second) and shared by every later one. */
export function webBundle(): Promise<WebBundle> {
  pending ??= buildWeb().catch((err: unknown) => {
    pending = undefined; // the next request tries again
    throw err;
  });
  return pending;
}

async function buildWeb(): Promise<WebBundle> {
  const t0 = performance.now();
  const { build } = await import('esbuild');
  const out = '/natprod-web';
  const ketcher = await buildKetcherFiles();
  const result = await build({
    entryPoints: { main: ENTRY },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    minify: true,
    write: false,
    outdir: out,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: 'asset-[hash]',
    metafile: true,
    logLevel: 'silent',
    legalComments: 'none',
    // The editor chunk (Ketcher: React, ketcher-react, ketcher-standalone) expects a bundler's defines.
    // (ketcher-react reads process.env.INDIGO_VERSION and HELP_LINK with fallbacks: an empty env.)
    define: { 'process.env.NODE_ENV': '"production"', 'process.env': '{}', global: 'globalThis', ...ketcher.define },
    loader: { '.svg': 'dataurl', '.png': 'dataurl', '.woff': 'dataurl', '.woff2': 'dataurl', '.ttf': 'dataurl' },
    plugins: [ketcher.plugin],
  });
  const assets = new Map<string, WebAsset>(ketcher.assets);
  for (const f of result.outputFiles) {
    const name = f.path.slice(out.length + 1);
    assets.set(name, { body: Buffer.from(f.contents), type: TYPES[name.split('.').at(-1)!] ?? 'application/octet-stream' });
  }
  const entry = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint && o.entryPoint.endsWith('web/main.ts'));
  if (!entry) throw new Error('the web bundle has no entry output');
  const script = entry[0].slice(entry[0].lastIndexOf('/') + 1);
  const style = entry[1].cssBundle ? entry[1].cssBundle.slice(entry[1].cssBundle.lastIndexOf('/') + 1) : '';
  // The first page's bytes: its script, the chunks it imports statically, its stylesheet.
  const first = new Set<string>();
  const walk = (path: string) => {
    if (first.has(path)) return;
    first.add(path);
    for (const i of result.metafile.outputs[path]?.imports ?? []) if (i.kind === 'import-statement') walk(i.path);
  };
  walk(entry[0]);
  if (entry[1].cssBundle) first.add(entry[1].cssBundle);
  const firstNames = [...first].map((p) => p.slice(p.lastIndexOf('/') + 1));
  const firstBytes = firstNames.reduce((n, f) => n + (assets.get(f)?.body.length ?? 0), 0);
  return { assets, script, style, first: firstNames, firstBytes, ms: performance.now() - t0 };
}
