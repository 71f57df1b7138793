/**
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
 *
 * The state machine is the generic one of the toolkit sidecars (shared/toolkits/sidecar.ts), with
 * one name in flight at a time, this bridge's line protocol and OPSIN's own failure texts.
 */
import { Sidecar, SidecarError } from '../../shared/toolkits/sidecar.ts';
import type { SidecarMessages, SidecarProtocol } from '../../shared/toolkits/sidecar-protocol.ts';
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
export { START_COOLDOWN_MS } from '../../shared/toolkits/sidecar.ts';

/** `<id> TAB <name>` out; `READY <version>` once, then `<id> TAB OK|WARN|FAIL TAB ...` back. */
const PROTOCOL: SidecarProtocol<string, OpsinAnswer> = {
  encode: (name, id) => `${id}\t${name}`,
  decode(line) {
    // Anything a library prints before the bridge is ready is noise.
    if (line.startsWith('READY')) return { ready: true, version: line.slice(5).trim() || undefined };
    const [id, status, a = '', b = ''] = line.split('\t');
    const answer: OpsinAnswer =
      status === 'OK' ? { ok: true, smiles: a } : status === 'WARN' ? { ok: true, smiles: a, warning: b } : { ok: false, message: a || 'OPSIN could not interpret the name' };
    return { id, answer };
  },
};

const tail = (stderr: string) => (stderr ? `: ${stderr.slice(-500)}` : '');
const MESSAGES: SidecarMessages = {
  busy: 'too many names waiting for OPSIN',
  timeout: (ms) => `OPSIN did not answer within ${ms} ms (its JVM was restarted)`,
  died: (how, stderr) => `the OPSIN JVM ended (${how})${tail(stderr)}; it is restarted for the next name`,
  outOfStep: (expected, line) => `OPSIN answered out of step (expected ${expected}, got ${JSON.stringify(line.slice(0, 80))}); its JVM was restarted`,
  startEnded: (_, code, signal, stderr) => `the OPSIN JVM ended (${signal ? `killed by ${signal}` : `exit code ${code}`})${tail(stderr)}`,
  startError: (file, e) => `the OPSIN JVM ended (could not run ${file}: ${e.message})`,
  readyTimeout: (ms) => `no READY from the JVM within ${ms} ms`,
};

export class OpsinProcess {
  private readonly sidecar: Sidecar<string, OpsinAnswer>;

  constructor(readonly options: OpsinOptions) {
    const o = options;
    const command = async () => {
      if (o.command) return o.command;
      const classDir = await compileBridge(o.java, o.jar, o.cacheDir, o.startTimeoutMs ?? 60_000);
      return { file: o.java, args: [...JVM_OPTIONS, '-cp', bridgeClassPath(classDir, o.jar), BRIDGE_CLASS] };
    };
    this.sidecar = new Sidecar({ name: 'OPSIN', command, timeoutMs: o.timeoutMs, idleMs: o.idleMs, startTimeoutMs: o.startTimeoutMs, maxInFlight: 1, maxQueue: o.maxQueue, protocol: PROTOCOL, messages: MESSAGES });
  }

  get running(): boolean {
    return this.sidecar.running;
  }

  get pid(): number | undefined {
    return this.sidecar.pid;
  }

  /** The last start failure and when it happened (cooldown). */
  get startFailure(): { message: string; at: number } | undefined {
    return this.sidecar.startFailure;
  }

  /** OPSIN's version, from the bridge's READY line. */
  get version(): string | undefined {
    return this.sidecar.version;
  }

  get stats(): { starts: number; timeouts: number; deaths: number; answered: number } {
    return this.sidecar.stats;
  }

  /** OPSIN's reading of one name; rejects with OpsinError when the JVM gives no answer. */
  parse(name: string, timeoutMs = this.options.timeoutMs): Promise<OpsinAnswer> {
    const text = name.trim();
    // The protocol is one line per name: a name never contains line breaks or other controls.
    if (text === '' || /[\x00-\x1f\x7f]/.test(text)) return Promise.resolve({ ok: false, message: 'a name is one line of text without control characters' });
    return this.sidecar.call(text, timeoutMs).catch((e: unknown) => {
      throw e instanceof SidecarError ? new OpsinError(e.kind, e.message) : e;
    });
  }

  /** Stop the JVM and refuse further names; waiting names fail with `closed`. */
  close(): Promise<void> {
    return this.sidecar.close();
  }

  /** Stop the JVM now (the next name starts a new one). */
  stopChild(): Promise<void> {
    return this.sidecar.stopChild();
  }
}
