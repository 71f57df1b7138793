/**
 * (Over 300 lines on purpose: one state machine (start, serve, time out, restart, idle stop) whose states only make sense together.)
 *
 * OPSIN in ONE long-lived JVM per process (the bridge NatprodOpsin.java, line protocol described
 * there), never one JVM per name: a JVM costs about a second to start and ~100 MB to keep.
 *
 * - Names are serialized: one is in the JVM at a time, the rest wait in order. A name's time
 *   limit runs from the moment it is sent, so a slow name cannot eat the others' budgets.
 * - Every answer carries the id of its request; an answer for another id (which would mean the
 *   streams got out of step) kills the JVM rather than hand anyone a wrong structure.
 * - A name that outlives its limit: the JVM is killed (SIGKILL), that name fails with `timeout`,
 *   and the names behind it go to a fresh JVM. A JVM that dies fails the name it was reading
 *   (`died`) and is restarted for the next ones.
 * - A JVM that cannot start (no runtime, bad jar, compile error) fails the waiting names with
 *   `unavailable`; for START_COOLDOWN_MS later names fail at once instead of retrying every time.
 * - Idle for `idleMs`, the JVM is stopped; the next name starts it again. While idle its handles
 *   are unref'd, so it never keeps a process alive on its own; its stdin closing (this process
 *   ending, however) ends it too.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { BRIDGE_CLASS, bridgeClassPath, compileBridge } from './opsin-setup.ts';

export type OpsinAnswer =
  | { ok: true; smiles: string; warning?: string }
  | { ok: false; message: string };

export type OpsinFailure = 'timeout' | 'died' | 'unavailable' | 'busy' | 'protocol' | 'closed';

/** The JVM could not give an answer (as opposed to OPSIN not understanding the name). */
export class OpsinError extends Error {
  constructor(readonly kind: OpsinFailure, message: string) {
    super(message);
    this.name = 'OpsinError';
  }
}

export interface OpsinOptions {
  java: string;
  jar: string;
  /** Per-name limit in ms. */
  timeoutMs: number;
  /** Stop the JVM after this long without work (0 = never). */
  idleMs: number;
  /** Limit of a start (compile if needed, JVM start, parser warm-up), ms. */
  startTimeoutMs?: number;
  /** Where the compiled bridge is cached (default: the OS temp dir). */
  cacheDir?: string;
  /** Names waiting beyond this many are refused (`busy`). */
  maxQueue?: number;
  /** Instead of compiling and running the bridge, spawn this (tests: a fake speaking the protocol). */
  command?: { file: string; args: string[] };
}

/** JVM flags: one small serial heap (the parser needs little), no perf-data files in /tmp. */
export const JVM_OPTIONS = ['-XX:+UseSerialGC', '-Xmx256m', '-Xss16m', '-XX:TieredStopAtLevel=1', '-XX:ReservedCodeCacheSize=32m', '-XX:-UsePerfData', '-Dfile.encoding=UTF-8'];
export const START_COOLDOWN_MS = 10_000;

interface Pending {
  id: string;
  name: string;
  timeoutMs: number;
  resolve: (a: OpsinAnswer) => void;
  reject: (e: OpsinError) => void;
  timer?: NodeJS.Timeout;
}

const live = new Set<ChildProcessWithoutNullStreams>();
let exitHook = false;
function track(child: ChildProcessWithoutNullStreams) {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const c of live) c.kill('SIGKILL');
    });
  }
}

export class OpsinProcess {
  private child?: ChildProcessWithoutNullStreams;
  private ready = false;
  private starting?: Promise<void>;
  private readyWaiter?: { resolve: () => void; reject: (e: Error) => void };
  private queue: Pending[] = [];
  private current?: Pending;
  private buffer = '';
  private stderrTail = '';
  private idleTimer?: NodeJS.Timeout;
  private seq = 0;
  private closed = false;
  /** The last start failure and when it happened (cooldown). */
  startFailure?: { message: string; at: number };
  /** OPSIN's version, from the bridge's READY line. */
  version?: string;
  readonly stats = { starts: 0, timeouts: 0, deaths: 0, answered: 0 };

  constructor(readonly options: OpsinOptions) {}

  get running(): boolean {
    return !!this.child && this.ready;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** OPSIN's reading of one name; rejects with OpsinError when the JVM gives no answer. */
  parse(name: string, timeoutMs = this.options.timeoutMs): Promise<OpsinAnswer> {
    const text = name.trim();
    // The protocol is one line per name: a name never contains line breaks or other controls.
    if (text === '' || /[\x00-\x1f\x7f]/.test(text)) return Promise.resolve({ ok: false, message: 'a name is one line of text without control characters' });
    if (this.closed) return Promise.reject(new OpsinError('closed', 'OPSIN is shut down'));
    if (this.startFailure && Date.now() - this.startFailure.at < START_COOLDOWN_MS && !this.child) {
      return Promise.reject(new OpsinError('unavailable', this.startFailure.message));
    }
    if (this.queue.length >= (this.options.maxQueue ?? 1000)) return Promise.reject(new OpsinError('busy', 'too many names waiting for OPSIN'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: String(++this.seq), name: text, timeoutMs, resolve, reject });
      this.pump();
    });
  }

  /** Stop the JVM and refuse further names; waiting names fail with `closed`. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    for (const p of this.queue.splice(0)) p.reject(new OpsinError('closed', 'OPSIN is shut down'));
    if (this.current) this.fail(this.current, new OpsinError('closed', 'OPSIN is shut down'));
    await this.stopChild();
  }

  /** Stop the JVM now (the next name starts a new one). */
  async stopChild(): Promise<void> {
    const child = this.detach();
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => child.kill('SIGKILL'), 2000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.stdin.end(); // the bridge ends at end of input
    });
  }

  private pump(): void {
    if (this.current || this.queue.length === 0 || this.closed) return;
    if (!this.child || !this.ready) {
      void this.start();
      return;
    }
    clearTimeout(this.idleTimer);
    const job = this.queue.shift()!;
    this.current = job;
    this.hold(true);
    job.timer = setTimeout(() => this.onTimeout(job), job.timeoutMs);
    this.child.stdin.write(`${job.id}\t${job.name}\n`);
  }

  private start(): Promise<void> {
    this.starting ??= this.launch().then(
      () => {
        this.startFailure = undefined;
        this.starting = undefined;
        this.pump();
      },
      (e: Error) => {
        this.starting = undefined;
        this.detach()?.kill('SIGKILL');
        this.startFailure = { message: `OPSIN could not start: ${e.message}`, at: Date.now() };
        for (const p of this.queue.splice(0)) p.reject(new OpsinError('unavailable', this.startFailure.message));
      },
    );
    return this.starting;
  }

  private async launch(): Promise<void> {
    const o = this.options;
    const limit = o.startTimeoutMs ?? 60_000;
    const t0 = Date.now();
    let file = o.java;
    let args: string[];
    if (o.command) {
      ({ file, args } = o.command);
    } else {
      const classDir = await compileBridge(o.java, o.jar, o.cacheDir, limit);
      args = [...JVM_OPTIONS, '-cp', bridgeClassPath(classDir, o.jar), BRIDGE_CLASS];
    }
    if (this.closed) throw new Error('shut down');
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    track(child);
    this.child = child;
    this.ready = false;
    this.buffer = '';
    this.stderrTail = '';
    this.stats.starts++;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => this.onData(child, d));
    child.stderr.on('data', (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString()).slice(-2000);
    });
    child.stdin.on('error', () => {}); // EPIPE after a death; 'exit' reports it
    child.on('error', (e) => this.onExit(child, `could not run ${file}: ${e.message}`));
    child.on('exit', (code, signal) => this.onExit(child, signal ? `killed by ${signal}` : `exit code ${code}`));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no READY from the JVM within ${limit} ms`)), Math.max(1, limit - (Date.now() - t0)));
      this.readyWaiter = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
    });
  }

  private onData(child: ChildProcessWithoutNullStreams, chunk: string): void {
    if (child !== this.child) return;
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0 && child === this.child) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      this.onLine(line);
    }
  }

  private onLine(line: string): void {
    if (!this.ready) {
      // Anything a library prints before the bridge is ready is noise.
      if (line.startsWith('READY')) {
        this.ready = true;
        this.version = line.slice(5).trim() || undefined;
        this.readyWaiter?.resolve();
        this.readyWaiter = undefined;
      }
      return;
    }
    const [id, status, a = '', b = ''] = line.split('\t');
    const job = this.current;
    if (!job || id !== job.id) {
      // Out of step: no answer can be trusted any more.
      this.detach()?.kill('SIGKILL');
      if (job) this.fail(job, new OpsinError('protocol', `OPSIN answered out of step (expected ${job.id}, got ${JSON.stringify(line.slice(0, 80))}); its JVM was restarted`));
      this.pump();
      return;
    }
    const answer: OpsinAnswer =
      status === 'OK' ? { ok: true, smiles: a } : status === 'WARN' ? { ok: true, smiles: a, warning: b } : { ok: false, message: a || 'OPSIN could not interpret the name' };
    this.settle(job, () => job.resolve(answer));
    this.stats.answered++;
  }

  private onTimeout(job: Pending): void {
    if (this.current !== job) return;
    this.stats.timeouts++;
    this.detach()?.kill('SIGKILL');
    this.fail(job, new OpsinError('timeout', `OPSIN did not answer within ${job.timeoutMs} ms (its JVM was restarted)`));
  }

  private onExit(child: ChildProcessWithoutNullStreams, how: string): void {
    if (child !== this.child) return; // a JVM we stopped or replaced on purpose
    const starting = this.readyWaiter;
    this.readyWaiter = undefined;
    this.detach();
    this.stats.deaths++;
    const why = `the OPSIN JVM ended (${how})${this.stderrTail.trim() ? `: ${this.stderrTail.trim().slice(-500)}` : ''}`;
    if (starting) {
      starting.reject(new Error(why));
      return; // start() fails the queue
    }
    if (this.current) this.fail(this.current, new OpsinError('died', `${why}; it is restarted for the next name`));
    else this.pump();
  }

  /** Forget the current JVM (its later events are ignored) and return it. */
  private detach(): ChildProcessWithoutNullStreams | undefined {
    const child = this.child;
    this.child = undefined;
    this.ready = false;
    if (this.readyWaiter) {
      this.readyWaiter.reject(new Error('the JVM was stopped while starting'));
      this.readyWaiter = undefined;
    }
    return child;
  }

  private fail(job: Pending, e: OpsinError): void {
    this.settle(job, () => job.reject(e));
  }

  private settle(job: Pending, finish: () => void): void {
    clearTimeout(job.timer);
    if (this.current === job) this.current = undefined;
    finish();
    if (this.queue.length > 0) {
      this.pump();
      return;
    }
    this.hold(false);
    if (this.options.idleMs > 0 && this.child && !this.closed) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => void this.stopChild(), this.options.idleMs);
      this.idleTimer.unref();
    }
  }

  /** Busy: the JVM's handles keep this process alive until the answer; idle: they do not. */
  private hold(busy: boolean): void {
    const c = this.child;
    if (!c) return;
    for (const h of [c, c.stdin, c.stdout, c.stderr] as unknown as { ref?: () => void; unref?: () => void }[]) {
      if (busy) h.ref?.();
      else h.unref?.();
    }
  }
}
