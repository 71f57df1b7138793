/**
 * One long-lived child process speaking one request and one answer a line: line-delimited JSON by
 * default (a toolkit sidecar: the CDK JVM, the Open Babel Python), or the `protocol` it is given
 * (the OPSIN bridge, api/names/opsin.ts: tab-separated, one name at a time with `maxInFlight: 1`).
 * Requests are pipelined (up to `maxInFlight` written ahead, so the child never waits for the next
 * line) and a request that was only queued behind a fault is sent again to the next child.
 *
 * - Started on the first call; a start that fails fails the waiting calls (`unavailable`) and,
 *   for START_COOLDOWN_MS, later calls at once.
 * - The child answers in order, each answer carrying its request's id; a wrong id kills it.
 * - Time limit per call, counted from when the call reaches the head of the line (the child
 *   works on one request at a time): past it the child is killed, that call fails (`timeout`)
 *   and the calls written behind it go to a fresh child. A child that dies fails the call it was
 *   working on (`died`) and the rest likewise go to a fresh child (each at most MAX_RESENDS
 *   times, so an input that kills every child cannot loop).
 * - At most `maxQueue` calls wait; more fail at once (`busy`).
 * - Idle for `idleMs`, the child is stopped; while idle its handles never keep this process
 *   alive, and its stdin closing (this process ending, however) ends it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { JSON_LINES, sidecarMessages, type SidecarAnswer, type SidecarMessages, type SidecarProtocol } from './sidecar-protocol.ts';

export type SidecarFailure = 'timeout' | 'died' | 'unavailable' | 'busy' | 'closed' | 'protocol';

/** The child gave no answer (as opposed to the toolkit refusing the input); `signal`: what ended a child that `died`. */
export class SidecarError extends Error {
  constructor(readonly kind: SidecarFailure, message: string, readonly signal?: string) {
    super(message);
    this.name = 'SidecarError';
  }
}

export interface SidecarOptions<Req = Record<string, unknown>, Ans = SidecarAnswer> {
  /** For messages: `CDK`, `Open Babel`. */
  name: string;
  /** What to spawn (may prepare first: the CDK bridge is compiled at its first start). */
  command: () => Promise<{ file: string; args: string[]; env?: NodeJS.ProcessEnv }>;
  timeoutMs: number;
  /** Stop the child after this long without work (0 = never). */
  idleMs: number;
  startTimeoutMs?: number;
  maxInFlight?: number;
  maxQueue?: number;
  protocol?: SidecarProtocol<Req, Ans>;
  messages?: Partial<SidecarMessages>;
}

export const START_COOLDOWN_MS = 10_000;
const MAX_RESENDS = 2;

interface Call<Ans> {
  id: string;
  line: string;
  timeoutMs: number;
  resends: number;
  resolve: (a: Ans) => void;
  reject: (e: SidecarError) => void;
  timer?: NodeJS.Timeout;
}

const live = new Set<ChildProcessWithoutNullStreams>();
let exitHook = false;
function track(child: ChildProcessWithoutNullStreams) {
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => live.forEach((c) => c.kill('SIGKILL')));
  }
}

export class Sidecar<Req = Record<string, unknown>, Ans = SidecarAnswer> {
  private child?: ChildProcessWithoutNullStreams;
  private ready = false;
  private starting?: Promise<void>;
  private queue: Call<Ans>[] = [];
  private inflight: Call<Ans>[] = [];
  private buffer = '';
  private stderrTail = '';
  private idleTimer?: NodeJS.Timeout;
  private seq = 0;
  private closed = false;
  startFailure?: { message: string; at: number };
  version?: string;
  readonly stats = { starts: 0, timeouts: 0, deaths: 0, answered: 0 };
  private readonly protocol: SidecarProtocol<Req, Ans>;
  private readonly say: SidecarMessages;

  constructor(readonly options: SidecarOptions<Req, Ans>) {
    this.protocol = options.protocol ?? (JSON_LINES as unknown as SidecarProtocol<Req, Ans>);
    this.say = { ...sidecarMessages(options.name), ...options.messages };
  }

  get running(): boolean {
    return !!this.child && this.ready;
  }
  get pid(): number | undefined {
    return this.child?.pid;
  }

  call(request: Req, timeoutMs = this.options.timeoutMs): Promise<Ans> {
    if (this.closed) return Promise.reject(new SidecarError('closed', `${this.options.name} is shut down`));
    if (this.startFailure && !this.child && Date.now() - this.startFailure.at < START_COOLDOWN_MS) {
      return Promise.reject(new SidecarError('unavailable', this.startFailure.message));
    }
    if (this.queue.length >= (this.options.maxQueue ?? 1000)) return Promise.reject(new SidecarError('busy', this.say.busy));
    const id = String((this.seq = (this.seq + 1) % 1e9));
    return new Promise((resolve, reject) => {
      this.queue.push({ id, line: `${this.protocol.encode(request, id)}\n`, timeoutMs, resends: 0, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    const why = new SidecarError('closed', `${this.options.name} is shut down`);
    for (const c of [...this.inflight.splice(0), ...this.queue.splice(0)]) this.settle(c, () => c.reject(why));
    await this.stopChild();
  }

  /** Stop the child now (the next call starts a new one). */
  async stopChild(): Promise<void> {
    const child = this.detach();
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => child.kill('SIGKILL'), 2000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.stdin.end();
    });
  }

  private pump(): void {
    if (this.closed || this.queue.length === 0) return;
    if (!this.child || !this.ready) {
      void this.start();
      return;
    }
    clearTimeout(this.idleTimer);
    this.hold(true);
    while (this.queue.length && this.inflight.length < (this.options.maxInFlight ?? 4)) {
      const call = this.queue.shift()!;
      this.inflight.push(call);
      this.child.stdin.write(call.line);
    }
    this.armHead();
  }

  private armHead(): void {
    const head = this.inflight[0];
    if (head && !head.timer) head.timer = setTimeout(() => this.onTimeout(head), head.timeoutMs);
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
        this.startFailure = { message: `${this.options.name} could not start: ${e.message}`, at: Date.now() };
        const err = new SidecarError('unavailable', this.startFailure.message);
        for (const c of this.queue.splice(0)) c.reject(err);
      },
    );
    return this.starting;
  }

  private async launch(): Promise<void> {
    const limit = this.options.startTimeoutMs ?? 60_000;
    const t0 = Date.now();
    const { file, args, env } = await this.options.command();
    if (this.closed) throw new Error('shut down');
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'], ...(env ? { env } : {}) });
    track(child);
    Object.assign(this, { child, ready: false, buffer: '', stderrTail: '' });
    this.stats.starts++;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => this.onData(child, d));
    child.stderr.on('data', (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString()).slice(-2000);
    });
    child.stdin.on('error', () => {}); // EPIPE after a death; 'exit' reports it
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(this.say.readyTimeout(limit))), Math.max(1, limit - (Date.now() - t0)));
      const done = (e?: Error) => {
        clearTimeout(timer);
        child.off('exit', onExit);
        if (e) reject(e);
        else resolve();
      };
      const onExit = (code: number | null, signal: string | null) => done(new Error(this.say.startEnded(file, code, signal, this.stderrTail.trim())));
      child.once('error', (e) => done(new Error(this.say.startError(file, e))));
      child.once('exit', onExit);
      this.onReady = () => done();
    });
    this.onReady = undefined;
    child.on('exit', (code, signal) => this.onExit(child, signal ? `killed by ${signal}` : `exit code ${code}`, signal ?? undefined));
    child.on('error', (e) => this.onExit(child, `could not run ${file}: ${e.message}`)); // a failed kill, say
  }

  private onReady?: () => void;

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
    const msg = this.protocol.decode(line);
    if (!this.ready) {
      if (msg.ready) {
        this.ready = true;
        this.version = msg.version;
        this.onReady?.();
      }
      return; // anything a library prints before the ready line is noise
    }
    const head = this.inflight[0];
    if (!head || msg.id !== head.id) {
      this.fault(head, new SidecarError('protocol', this.say.outOfStep(head?.id, line)));
      return;
    }
    this.inflight.shift();
    this.stats.answered++;
    this.settle(head, () => head.resolve(msg.answer!));
  }

  private onTimeout(call: Call<Ans>): void {
    if (this.inflight[0] !== call) return;
    this.stats.timeouts++;
    this.fault(call, new SidecarError('timeout', this.say.timeout(call.timeoutMs)));
  }

  private onExit(child: ChildProcessWithoutNullStreams, how: string, signal?: string): void {
    if (child !== this.child) return; // stopped or replaced on purpose
    this.stats.deaths++;
    this.fault(this.inflight[0], new SidecarError('died', this.say.died(how, this.stderrTail.trim()), signal));
  }

  /** Kill the child; `culprit` fails with `e`, the calls behind it wait for a fresh child. */
  private fault(culprit: Call<Ans> | undefined, e: SidecarError): void {
    this.detach()?.kill('SIGKILL');
    const rest = this.inflight.splice(0).filter((c) => c !== culprit);
    for (const c of rest) {
      clearTimeout(c.timer);
      c.timer = undefined;
    }
    const again = rest.filter((c) => c.resends++ < MAX_RESENDS);
    for (const c of rest.filter((x) => !again.includes(x))) c.reject(e);
    this.queue.unshift(...again);
    if (culprit) this.settle(culprit, () => culprit.reject(e));
    else this.pump();
  }

  private detach(): ChildProcessWithoutNullStreams | undefined {
    const child = this.child;
    this.child = undefined;
    this.ready = false;
    return child;
  }

  private settle(call: Call<Ans>, finish: () => void): void {
    clearTimeout(call.timer);
    finish();
    if (this.queue.length || this.inflight.length) {
      this.pump();
      this.armHead();
      return;
    }
    this.hold(false);
    if (this.options.idleMs > 0 && this.child && !this.closed) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => void this.stopChild(), this.options.idleMs);
      this.idleTimer.unref();
    }
  }

  /** Busy: the child's handles keep this process alive until the answers; idle: they do not. */
  private hold(busy: boolean): void {
    const c = this.child;
    if (!c) return;
    for (const h of [c, c.stdin, c.stdout, c.stderr] as unknown as { ref?: () => void; unref?: () => void }[]) {
      if (busy) h.ref?.();
      else h.unref?.();
    }
  }
}
