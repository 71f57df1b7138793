/**
 * The CDK, Open Babel and native RDKit (3D embedding only) toolkits of one process: the process that runs chemistry (a worker, or
 * the api with the inline runner) builds one `Toolkits` in its composition root, attaches it to
 * its pool (tasks whose `toolkit` argument names a sidecar's toolkit go to the sidecar instead of
 * an RDKit thread: routes.ts), reports `health()` and closes it at shutdown. Each sidecar starts
 * at its first call and stops when idle (sidecar.ts). docs/toolkits.md tells the whole story.
 */
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import type { LocalTask } from '../threads/pool.ts';
import { Sidecar, SidecarError } from './sidecar.ts';
import { assertRouteInput, routeOf, type RdkitCall } from './routes.ts';
import {
  BRIDGE_CLASS, compileCdkBridge, INSTALL_HINT, JVM_OPTIONS, locateCdk, locateOpenBabel, locateRdkit, OPENBABEL_SCRIPT, RDKIT_SCRIPT,
  type CdkSetup, type PythonSetup, type ToolkitName,
} from './setup.ts';
import { delimiter } from 'node:path';

/** Signals a process raises on itself when it fails (abort(), a bad memory access, an arithmetic trap). */
const CRASH_SIGNALS = new Set(['SIGABRT', 'SIGSEGV', 'SIGBUS', 'SIGFPE', 'SIGILL', 'SIGTRAP', 'SIGSYS']);

export type ToolkitConfig = Pick<Config, 'CDK_JARS' | 'CDK_JAVA' | 'OPENBABEL_PYTHON' | 'RDKIT_PYTHON' | 'TOOLKIT_TIMEOUT_MS' | 'TOOLKIT_IDLE_MS' | 'TOOLKIT_QUEUE' | 'MAX_HEAVY_ATOMS'>;

export const TOOLKIT_LABEL: Record<ToolkitName, string> = { cdk: 'CDK', openbabel: 'Open Babel', rdkit: 'native RDKit' };
const TOOLKITS: readonly ToolkitName[] = ['cdk', 'openbabel', 'rdkit'];
/** Python sidecars: their script; each runs with its address space capped at 2 GB. */
const PYTHON_SCRIPT: Partial<Record<ToolkitName, string>> = { openbabel: OPENBABEL_SCRIPT, rdkit: RDKIT_SCRIPT };

export interface ToolkitHealth {
  available: boolean;
  /** `running` (its process is up), `idle` (starts at the next call), `failed` (its last start failed), `not installed`, `disabled`. */
  state: 'running' | 'idle' | 'failed' | 'not installed' | 'disabled';
  version: string | null;
  reason?: string;
  install?: string;
  stats?: { starts: number; answered: number; timeouts: number; deaths: number };
}

/** What the pool offers the toolkits: a route hook and RDKit tasks. */
export interface RoutablePool {
  route(fn: (task: string, args: unknown) => LocalTask | undefined): void;
  run(task: string, args: unknown, hooks: { timeoutMs: number; signal?: AbortSignal }): Promise<unknown>;
}

/** CDK's SMILES writer needs InChI numbers for canonical isomeric SMILES: cdk-inchi, or natprod's cdk/inchi/ on JNI-InChI. */
const NO_CDK_INCHI = /cdk-inchi module is not loaded/;

export class Toolkits {
  private readonly sidecars: Partial<Record<ToolkitName, Sidecar>> = {};
  private readonly cdk: CdkSetup;
  private readonly setups: Record<ToolkitName, CdkSetup | PythonSetup>;

  constructor(readonly config: ToolkitConfig, env: NodeJS.ProcessEnv = process.env) {
    this.cdk = locateCdk({ CDK_JARS: config.CDK_JARS, CDK_JAVA: config.CDK_JAVA, JAVA_HOME: env.JAVA_HOME, PATH: env.PATH });
    this.setups = {
      cdk: this.cdk,
      openbabel: locateOpenBabel({ OPENBABEL_PYTHON: config.OPENBABEL_PYTHON, PATH: env.PATH }),
      rdkit: locateRdkit({ RDKIT_PYTHON: config.RDKIT_PYTHON, PATH: env.PATH }),
    };
  }

  /** Route the pool's toolkit calls here; `rdkitTimeoutMs` bounds the RDKit tasks a route adds. */
  attach(pool: RoutablePool): this {
    pool.route((task, args) => {
      const hit = routeOf(task, args);
      if (!hit) return undefined;
      // async: a refused input is a rejected call, as every other failure of a task.
      return async (a, signal) => {
        assertRouteInput(task, a as Record<string, unknown>, this.config.MAX_HEAVY_ATOMS);
        const rdkit: RdkitCall = (t, x) => pool.run(t, x, { timeoutMs: this.config.TOOLKIT_TIMEOUT_MS * 2, signal });
        return hit.route.run(hit.toolkit, a as Record<string, unknown>, (tk, req) => this.call(tk, req), rdkit);
      };
    });
    return this;
  }

  /** The sidecar (started on first use) of a toolkit, or the 422 saying what to install. */
  sidecar(toolkit: ToolkitName): Sidecar {
    const existing = this.sidecars[toolkit];
    if (existing) return existing;
    const setup = this.setups[toolkit];
    if (!setup.ok) {
      throw new AppError(422, `toolkit=${toolkit} is not available here: ${setup.problem}${setup.disabled ? '' : `; ${INSTALL_HINT[toolkit]}`}`, 'toolkit_unavailable');
    }
    const c = this.config;
    const command =
      toolkit === 'cdk'
        ? async () => {
            const jars = this.cdk.jars!;
            const classes = await compileCdkBridge(this.cdk.java!, jars);
            return { file: this.cdk.java!, args: [...JVM_OPTIONS, '-cp', [classes, ...jars].join(delimiter), BRIDGE_CLASS] };
          }
        : async () => ({ file: (setup as PythonSetup).python!, args: ['-u', '-B', PYTHON_SCRIPT[toolkit]!], env: { ...process.env, NATPROD_SIDECAR_MEMORY_MB: '2048' } });
    const s = new Sidecar({ name: TOOLKIT_LABEL[toolkit], command, timeoutMs: c.TOOLKIT_TIMEOUT_MS, idleMs: c.TOOLKIT_IDLE_MS, maxQueue: c.TOOLKIT_QUEUE, maxInFlight: 4 });
    this.sidecars[toolkit] = s;
    return s;
  }

  /** One request to a toolkit; answers its value or throws the AppError a client sees. */
  async call(toolkit: ToolkitName, request: Record<string, unknown>): Promise<unknown> {
    const label = `${TOOLKIT_LABEL[toolkit]} (toolkit=${toolkit})`;
    let answer;
    try {
      answer = await this.sidecar(toolkit).call(request);
    } catch (e) {
      if (!(e instanceof SidecarError)) throw e;
      if (e.kind === 'timeout') throw new AppError(504, `${label}: ${e.message}`, 'timeout');
      // A toolkit that aborted or faulted while it worked on this call crashed on its input (an
      // allocation past the sidecar's 2 GB, a bug of the toolkit): a 422, as a WASM fault of RDKit
      // is. Killed from outside (SIGKILL: the OOM killer, an operator) it is the service's fault: 503.
      if (e.kind === 'died' && e.signal && CRASH_SIGNALS.has(e.signal)) throw new AppError(422, `${label} crashed on this input: ${e.message}`, 'invalid_input');
      throw new AppError(503, `${label} is unavailable: ${e.message}`, 'toolkit_failed');
    }
    if (answer.ok) return answer.value;
    if (NO_CDK_INCHI.test(answer.message)) {
      throw new AppError(
        422,
        `${label} cannot write canonical isomeric SMILES here: CDK numbers atoms with InChI (its cdk-inchi module, which Debian's libcdk-java is built without; ` +
          'natprod brings its own on JNI-InChI): apt-get install libjni-inchi-java libinchi1 (Debian/Ubuntu), or use toolkit=rdkit or toolkit=openbabel (docs/toolkits.md).',
        'toolkit_unsupported',
      );
    }
    const what = answer.kind === 'invalid_input' ? answer.message : `${TOOLKIT_LABEL[toolkit]} failed on this input: ${answer.message}`;
    throw new AppError(422, what, 'invalid_input');
  }

  health(): Record<ToolkitName, ToolkitHealth> {
    const one = (toolkit: ToolkitName): ToolkitHealth => {
      const setup = this.setups[toolkit];
      if (!setup.ok) {
        return { available: false, state: setup.disabled ? 'disabled' : 'not installed', version: null, reason: setup.problem, ...(setup.disabled ? {} : { install: INSTALL_HINT[toolkit] }) };
      }
      const s = this.sidecars[toolkit];
      const version = s?.version ?? setup.version ?? null;
      if (s?.startFailure && !s.running) return { available: false, state: 'failed', version, reason: s.startFailure.message, install: INSTALL_HINT[toolkit], stats: { ...s.stats } };
      return { available: true, state: s?.running ? 'running' : 'idle', version, ...(s ? { stats: { ...s.stats } } : {}) };
    };
    return Object.fromEntries(TOOLKITS.map((k) => [k, one(k)])) as Record<ToolkitName, ToolkitHealth>;
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.sidecars).map((s) => s.close()));
  }
}

export { locateCdk, locateOpenBabel, locateRdkit, INSTALL_HINT, type ToolkitName } from './setup.ts';
