/**
 * Ketcher's files beside the web bundle (docs/web.md, "Structure editor"): ketcher-standalone's
 * `binaryWasm` build runs Indigo (WebAssembly) in a module worker that it starts with
 * `new Worker(new URL("indigoWorker-<hash>.js", import.meta.url))`, and the worker fetches
 * `new URL("indigo-ketcher-<version>.wasm", import.meta.url)`. esbuild does not follow those URLs,
 * so this builds them first: the worker bundled on its own (its bare imports resolved), the WASM
 * renamed by a hash of its bytes (and gzipped once, so it is not compressed per request), and
 * ketcher-react's stylesheet (linked by the editor chunk when it mounts). The main build then
 * rewrites the worker's name in ketcher-standalone and defines the stylesheet's name
 * (`ketcherPlugin`). All served from this origin under /static/web/, so the editor works offline.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'esbuild';

export interface KetcherAsset {
  body: Buffer;
  type: string;
  /** The body gzipped, for clients that accept it (the WASM: 9 MB, not compressed per request). */
  gzip?: Buffer;
  /** A Content-Security-Policy of its own (the worker: its policy comes from its own response). */
  csp?: string;
}

export interface KetcherFiles {
  assets: Map<string, KetcherAsset>;
  worker: string;
  style: string;
  wasm: string;
  /** Rewrites ketcher-standalone's worker URL and defines the stylesheet's name for the main build. */
  plugin: Plugin;
  define: Record<string, string>;
}

/**
 * The worker's own policy (a worker's policy is the one its own script is served with, not the
 * page's): it runs this origin's script, compiles the WASM ('wasm-unsafe-eval') and fetches the
 * WASM from this origin. Indigo's glue (Emscripten's embind, built with dynamic execution) makes
 * its C++ bindings with `new Function(...)` from the WASM's own signatures, so the worker also needs
 * 'unsafe-eval'; the worker has no DOM, no cookies' page, and no text from the network reaches
 * those calls. The pages themselves keep `script-src 'self'`.
 */
export const WORKER_CSP = "default-src 'none'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'; connect-src 'self'";

const require = createRequire(import.meta.url);
const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex').slice(0, 10);

export async function buildKetcherFiles(): Promise<KetcherFiles> {
  const { build } = await import('esbuild');
  const standalone = dirname(require.resolve('ketcher-standalone/dist/binaryWasm'));
  const reactCss = require.resolve('ketcher-react/dist/index.css');
  const files = readdirSync(standalone);
  const workerSrc = files.find((f) => /^indigoWorker-[\w]+\.js$/.test(f));
  const wasmSrc = files.find((f) => /^indigo-ketcher-[\d.]+\.wasm$/.test(f));
  if (!workerSrc || !wasmSrc) throw new Error(`ketcher-standalone's binaryWasm build has no worker or WASM (${standalone})`);
  const assets = new Map<string, KetcherAsset>();

  const wasmBytes = readFileSync(join(standalone, wasmSrc));
  const wasm = `indigo-${hash(wasmBytes)}.wasm`;
  assets.set(wasm, { body: wasmBytes, type: 'application/wasm', gzip: gzipSync(wasmBytes, { level: 6 }) });

  const worker = await build({
    entryPoints: [join(standalone, workerSrc)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    minify: true,
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
    plugins: [rewrite(/indigoWorker-[\w]+\.js$/, JSON.stringify(wasmSrc), JSON.stringify(wasm))],
  });
  const workerBody = Buffer.from(worker.outputFiles[0]!.contents);
  const workerName = `ketcher-worker-${hash(workerBody)}.js`;
  assets.set(workerName, { body: workerBody, type: 'text/javascript; charset=utf-8', csp: WORKER_CSP });

  const css = await build({
    entryPoints: [reactCss],
    bundle: true,
    minify: true,
    write: false,
    logLevel: 'silent',
    loader: { '.svg': 'dataurl', '.png': 'dataurl', '.woff': 'dataurl', '.woff2': 'dataurl', '.ttf': 'dataurl' },
  });
  const cssBody = Buffer.from(css.outputFiles[0]!.contents);
  const style = `ketcher-${hash(cssBody)}.css`;
  assets.set(style, { body: cssBody, type: 'text/css; charset=utf-8' });

  return {
    assets,
    worker: workerName,
    style,
    wasm,
    plugin: rewrite(/ketcher-standalone[\\/]dist[\\/]binaryWasm[\\/]main\.js$/, JSON.stringify(workerSrc), JSON.stringify(workerName)),
    define: { __KETCHER_CSS__: JSON.stringify(style) },
  };
}

/** An esbuild plugin replacing one string literal in the file matching `file` (failing if absent). */
function rewrite(file: RegExp, from: string, to: string): Plugin {
  return {
    name: `rewrite ${from}`,
    setup(b) {
      b.onLoad({ filter: file }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes(from)) return { errors: [{ text: `${from} not found in ${args.path}` }] };
        return { contents: text.split(from).join(to), loader: 'js' };
      });
    },
  };
}
