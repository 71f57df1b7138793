/**
 * The chemistry threads' code as one plain JavaScript module, so that threads need no TypeScript
 * loader. Where it comes from depends on how the process runs:
 *
 * - From dist/ (`npm start`, the Docker image; scripts/build.mjs): the build wrote it beside the
 *   process's own bundle (dist/thread-<hash>.mjs) and told this file where
 *   (`__NATPROD_DIST_THREAD__`, defined by the build): nothing is built or written at start.
 * - From the TypeScript sources through tsx (development, tests): built by esbuild when a process
 *   first starts a pool and kept under node_modules/.cache/natprod (named by a hash of its text,
 *   so an edited source gives a new file and processes never read a half-written one), in a short
 *   child process (shared/threads/build-thread-bundle.mjs, ~0.3 s) because esbuild runs plugins
 *   only in its asynchronous API and a pool starts synchronously.
 *
 * Why: a thread that loads the TypeScript sources itself (tsx's loader, registered in the
 * thread) starts a loader thread of its own and sends every one of its ~120 modules through it.
 * Measured on 2 cores: a 2-thread pool took 3.0-3.8 s of CPU to answer its first task that way,
 * 1.4 s with the bundle and no loader in the threads (`new ChemPool(2)` and one canonical-SMILES
 * call on each thread; docs/performance.md, 2026-11-27). That time is paid again whenever a thread is replaced after a WASM
 * fault or a time limit.
 *
 * Packages stay external (RDKit finds its .wasm next to its own script; pdfjs-dist is imported
 * on a thread's first PDF task, by Node's own loader as before), so the file must live where
 * node_modules resolves: inside the project. `import.meta.url` is replaced by each source file's
 * own URL (scripts/own-urls.mjs), so that data files are still found relative to the file that
 * names them. Where the cache cannot be written (a read-only install), the threads load the
 * sources through tsx as before (shared/threads/thread-entry.mjs).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** In a bundle of dist/: the threads' module built with it, relative to this source file (scripts/build.mjs). */
declare const __NATPROD_DIST_THREAD__: string | undefined;
const DIST_THREAD = typeof __NATPROD_DIST_THREAD__ === 'string' ? new URL(__NATPROD_DIST_THREAD__, import.meta.url) : undefined;

const BUILDER = new URL('./build-thread-bundle.mjs', import.meta.url);
/** Loads the TypeScript sources through tsx (the fallback). */
export const SOURCE_ENTRY = new URL('./thread-entry.mjs', import.meta.url).href;

export interface ThreadModule {
  /** URL of the module Piscina loads in each thread. */
  url: string;
  /** Whether it is the bundle (threads need no TypeScript loader) or the sources through tsx. */
  bundled: boolean;
  /** Why the bundle is not used, when it is not. */
  reason?: string;
}

let built: ThreadModule | undefined;

/**
 * The threads' module, found or built once per process; never throws. `builder`: tests only.
 * A process run from dist/ uses the module built with it; should that be gone, it builds one as
 * a process run from the sources does.
 */
export function threadModule(builder?: URL): ThreadModule {
  if (builder) return build(builder);
  return (built ??= (DIST_THREAD && fromDist(DIST_THREAD)) || build(BUILDER));
}

/** The threads' module of a build in dist/, when it is there. */
export function fromDist(file: URL): ThreadModule | undefined {
  return existsSync(file) ? { url: file.href, bundled: true } : undefined;
}

function build(builder: URL): ThreadModule {
  try {
    // Its own short process (shared/threads/build-thread-bundle.mjs): ~0.3 s, once per process.
    const out = execFileSync(process.execPath, [builder.pathname], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
    const { file } = JSON.parse(out.trim().split('\n').at(-1)!) as { file: string };
    return { url: pathToFileURL(file).href, bundled: true };
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim().split('\n').at(-1);
    return { url: SOURCE_ENTRY, bundled: false, reason: stderr || (err instanceof Error ? err.message.split('\n')[0] : String(err)) };
  }
}

/**
 * Node options that a worker thread accepts and that matter to it (module loading, warnings,
 * diagnostics). A Worker given `execArgv` refuses V8 options (`--max-old-space-size`,
 * `--trace-gc`) and per-process ones (`--title`): those apply to the whole process anyway.
 */
const PER_THREAD = /^--(?:import|require|loader|experimental-loader|conditions|enable-source-maps|no-warnings|trace-warnings|no-deprecation|trace-deprecation|throw-deprecation|pending-deprecation|trace-uncaught|unhandled-rejections|cpu-prof|cpu-prof-[a-z]+|heap-prof|heap-prof-[a-z]+|diagnostic-dir|preserve-symlinks|preserve-symlinks-main)(?:=|$)/;
/** Options whose value may be the next argument. */
const TAKES_VALUE = /^(?:--import|--require|-r|--loader|--experimental-loader|--conditions|-C|--unhandled-rejections|--cpu-prof-[a-z]+|--heap-prof-[a-z]+|--diagnostic-dir)$/;
const TSX = /^tsx(?:\/.*)?$/;

/** This process's Node options for a bundled thread: the per-thread ones, without tsx's loader. */
export function threadExecArgv(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i]!;
    const separate = TAKES_VALUE.test(a) && i + 1 < execArgv.length;
    const value = separate ? execArgv[i + 1]! : a.includes('=') ? a.slice(a.indexOf('=') + 1) : undefined;
    if (separate) i++;
    const name = a.startsWith('--') ? a.split('=')[0]! : a === '-r' ? '--require' : a === '-C' ? '--conditions' : a;
    if (!PER_THREAD.test(name)) continue;
    if (/^--(?:import|require|loader|experimental-loader)$/.test(name) && value !== undefined && TSX.test(value)) continue;
    out.push(value === undefined ? name : `${name}=${value}`);
  }
  return out;
}
