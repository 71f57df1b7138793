/**
 * osra (Debian's `osra`, 2.1.3: optical structure recognition) as a bounded child process, one per
 * picture, started by the chemistry thread that runs the task (so at most one osra per thread,
 * WORKERS per process). Each run gets a private temporary folder holding the picture, removed
 * afterwards, and three bounds:
 * - wall time: OCSR_TIMEOUT_MS, then SIGKILL and a 504;
 * - memory: its address space capped at OCSR_MEMORY_MB (`ulimit -v`), so a picture that makes it
 *   allocate more fails that call only (osra aborts: a 422 naming the cap);
 * - CPU time: `ulimit -t` a little over the wall limit, a kernel-side backstop that ends an osra
 *   left behind when its thread is killed before it could kill its child;
 * and runs single-threaded (OMP_NUM_THREADS=1: GraphicsMagick would otherwise take every core).
 * An osra killed from outside (SIGKILL it did not get from here: the OOM killer under load, an
 * operator) fails its own call with a 503, never another call. docs/ocsr.md tells the whole story.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../errors.ts';
import { findExecutable } from '../java-bridge.ts';
import type { ImageFormat } from './image.ts';

export const OSRA_INSTALL_HINT = 'install osra (Debian/Ubuntu: apt-get install osra)';

/** Signals a process raises on itself when it fails (abort(), a bad memory access, an arithmetic trap). */
const CRASH_SIGNALS = new Set(['SIGABRT', 'SIGSEGV', 'SIGBUS', 'SIGFPE', 'SIGILL', 'SIGTRAP', 'SIGSYS']);

export interface OsraLimits {
  /** OCSR_OSRA: unset = `osra` on PATH, `off` = disabled, else the binary's path. */
  osra?: string;
  timeoutMs: number;
  memoryMb: number;
}

/** The osra binary, or the 422 saying why there is none. */
export function locateOsra(setting: string | undefined, pathVar = process.env.PATH): string {
  if (setting === 'off') throw new AppError(422, 'Structure recognition from pictures is disabled here (OCSR_OSRA=off)', 'toolkit_unavailable');
  const found = findExecutable(setting || 'osra', pathVar ?? '');
  if (!found) {
    const what = setting ? `OCSR_OSRA=${setting} is not an executable file` : 'osra is not installed (not on PATH)';
    throw new AppError(422, `Structure recognition from pictures is not available here: ${what}; ${OSRA_INSTALL_HINT}`, 'toolkit_unavailable');
  }
  return found;
}

/** osra's own version line (`osra --version`), for health reports and the benchmark. */
export function osraVersion(osra: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(osra, ['--version'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', () => resolve(null));
    child.on('close', () => resolve(/version:?\s*([\w.]+)/i.exec(out)?.[1] ?? null));
  });
}

/** The SMILES osra prints, one structure a line (with options it may add fields after a space). */
export function parseOsraOutput(stdout: string): string[] {
  return stdout
    .split(/\r?\n/)
    .map((line) => line.trim().split(/\s+/)[0] ?? '')
    .filter((s) => s.length > 0);
}

/**
 * Read the structures in one picture: the SMILES osra finds, in its order (none for a picture
 * without a structure). `signal` aborts the run (the task's cancellation or time limit).
 */
export async function readPicture(bytes: Uint8Array, format: ImageFormat, limits: OsraLimits, signal?: AbortSignal): Promise<string[]> {
  const osra = locateOsra(limits.osra);
  const dir = await privateDir();
  try {
    const file = join(dir, `picture.${format === 'jpeg' ? 'jpg' : format}`);
    await writeFile(file, bytes, { mode: 0o600 });
    return await readPictureFile(osra, file, dir, limits, signal);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** osra over a picture already on disk (in `dir`, a private folder: a PDF's extracted figures). */
export async function readPictureFile(osra: string, file: string, dir: string, limits: OsraLimits, signal?: AbortSignal): Promise<string[]> {
  return parseOsraOutput(await runBounded({ label: 'osra', subject: 'this picture', file: osra, args: ['-f', 'can', file] }, dir, limits, signal));
}

/** A fresh folder only this user can read, for one call's files. */
export function privateDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'natprod-ocsr-'));
}

export interface BoundedCommand {
  /** For messages: `osra`, `pdfimages`. */
  label: string;
  /** What it reads, for messages: `this picture`, `this PDF`. */
  subject: string;
  file: string;
  args: string[];
}

/** One bounded run (osra, or pdfimages for a PDF's figures); answers its standard output or throws the AppError a client sees. */
export function runBounded(command: BoundedCommand, cwd: string, limits: Omit<OsraLimits, 'osra'>, signal?: AbortSignal): Promise<string> {
  const { label, subject } = command;
  signal?.throwIfAborted();
  const cpuSeconds = Math.ceil(limits.timeoutMs / 1000) + 5;
  const memoryKb = limits.memoryMb * 1024;
  // sh sets the limits on itself, then becomes osra ("$0" "$@": no quoting of paths needed).
  const script = `ulimit -v ${memoryKb} && ulimit -t ${cpuSeconds} && exec "$0" "$@"`;
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, TMPDIR: cwd, OMP_NUM_THREADS: '1', LC_ALL: 'C' };
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', script, command.file, ...command.args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let stoppedBy: 'timeout' | 'abort' | undefined;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.length > 1_000_000) stdout = stdout.slice(0, 1_000_000);
    });
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    const stop = (why: 'timeout' | 'abort') => {
      stoppedBy ??= why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop('timeout'), limits.timeoutMs);
    const onAbort = () => stop('abort');
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (e) => {
      done();
      reject(new AppError(503, `${label} could not be started: ${e.message}`, 'toolkit_failed'));
    });
    child.on('close', (code, sig) => {
      done();
      const tail = lastLines(stderr);
      if (stoppedBy === 'abort') return reject(AppError.from(signal?.reason) ?? new AppError(499, `The OCSR call was cancelled while ${label} ran`, 'cancelled'));
      if (stoppedBy === 'timeout' || sig === 'SIGXCPU') {
        return reject(new AppError(504, `${label} took longer than ${limits.timeoutMs} ms (OCSR_TIMEOUT_MS) over ${subject} and was stopped`, 'timeout'));
      }
      if (code === 0) return resolve(stdout);
      if (sig && CRASH_SIGNALS.has(sig)) {
        const mb = `${limits.memoryMb} MB, OCSR_MEMORY_MB`;
        // An allocation past the cap aborts osra, mostly without a word on its error output.
        const memory = /bad_alloc|memory/i.test(stderr) ? ` (it ran out of its ${mb})` : sig === 'SIGABRT' ? ` (a damaged picture, or one that needs more than its ${mb})` : '';
        return reject(new AppError(422, `${label} could not read ${subject}: it ended with ${sig}${memory}${tail ? `: ${tail}` : ''}`, 'invalid_input'));
      }
      if (sig) {
        return reject(new AppError(503, `${label} was killed from outside (${sig}) while it read ${subject} (out of memory on the machine, or stopped by an operator); try again`, 'toolkit_failed'));
      }
      // 126/127: sh could not run the command at all (for instance its libraries do not fit under the memory cap).
      if (code === 126 || code === 127) return reject(new AppError(503, `${label} could not be started (exit ${code})${tail ? `: ${tail}` : ''}`, 'toolkit_failed'));
      reject(new AppError(422, `${label} could not read ${subject} (exit ${code})${tail ? `: ${tail}` : ''}`, 'invalid_input'));
    });
  });
}

/** The last two meaningful lines of an error output, without the noise poppler (inside osra) prints about non-PDF input. */
function lastLines(stderr: string): string {
  return stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('poppler/error'))
    .slice(-2)
    .join('; ')
    .slice(0, 300);
}
