/**
 * The process's one OPSIN bridge, made from the configuration at first use (never at import), and
 * what /health says about it. The bridge lives in the process that runs the api-side handlers
 * (the api, or the MCP stdio server); docs/names.md explains why there and not in the workers.
 * The configuration is the process's own, passed in by the callers (`ApiContext.config`, the
 * health route's services).
 */
import type { Config } from '../../shared/config.ts';
import { OpsinProcess } from './opsin.ts';
import { locateOpsin, OPSIN_INSTALL_HINT, type OpsinSetup } from './opsin-setup.ts';

let shared: { key: string; bridge: OpsinProcess } | undefined;

interface Settings {
  setup: OpsinSetup;
  timeoutMs: number;
  idleMs: number;
}

/** The settings of OPSIN in the configuration. */
export type OpsinConfig = Pick<Config, 'OPSIN_JAR' | 'OPSIN_JAVA' | 'OPSIN_TIMEOUT_MS' | 'OPSIN_IDLE_MS'>;

function settings(c: OpsinConfig): Settings {
  return {
    setup: locateOpsin({ OPSIN_JAR: c.OPSIN_JAR, OPSIN_JAVA: c.OPSIN_JAVA, JAVA_HOME: process.env.JAVA_HOME, PATH: process.env.PATH }),
    timeoutMs: c.OPSIN_TIMEOUT_MS,
    idleMs: c.OPSIN_IDLE_MS,
  };
}

/**
 * The bridge, or why there is none. A call with other settings than the bridge's replaces it
 * (tests do that; a running service never does).
 */
export function sharedOpsin(config: OpsinConfig): { bridge?: OpsinProcess; setup: OpsinSetup } {
  const s = settings(config);
  if (!s.setup.java || !s.setup.jar) {
    if (shared) void closeSharedOpsin();
    return { setup: s.setup };
  }
  const key = JSON.stringify([s.setup.java, s.setup.jar, s.timeoutMs, s.idleMs]);
  if (shared?.key !== key) {
    void shared?.bridge.close();
    shared = { key, bridge: new OpsinProcess({ java: s.setup.java, jar: s.setup.jar, timeoutMs: s.timeoutMs, idleMs: s.idleMs }) };
  }
  return { bridge: shared.bridge, setup: s.setup };
}

export async function closeSharedOpsin(): Promise<void> {
  const b = shared?.bridge;
  shared = undefined;
  await b?.close();
}

export interface OpsinHealth {
  available: boolean;
  /** The JVM is up now (it starts at the first name and stops after OPSIN_IDLE_MS idle). */
  running?: boolean;
  version?: string | null;
  jar?: string;
  java?: string;
  reason?: string;
  install?: string;
}

/** For /health: whether names can be read by OPSIN, and if not, why and what to install. */
export function opsinHealth(config: OpsinConfig): OpsinHealth {
  let s: Settings;
  try {
    s = settings(config);
  } catch (e) {
    return { available: false, reason: (e as Error).message };
  }
  if (!s.setup.java || !s.setup.jar) {
    return { available: false, reason: s.setup.problem, ...(s.setup.disabled ? {} : { install: OPSIN_INSTALL_HINT }) };
  }
  const bridge = shared?.bridge;
  if (bridge?.startFailure && !bridge.running) {
    return { available: false, running: false, jar: s.setup.jar, java: s.setup.java, reason: bridge.startFailure.message, install: OPSIN_INSTALL_HINT };
  }
  return { available: true, running: !!bridge?.running, version: bridge?.version ?? null, jar: s.setup.jar, java: s.setup.java };
}
