/**
 * The process's one OPSIN bridge, made from the configuration at first use (never at import), and
 * what /health says about it. The bridge lives in the process that runs the api-side handlers
 * (the api, or the MCP stdio server); docs/names.md explains why there and not in the workers.
 */
import { loadConfig } from '../config.ts';
import { OpsinProcess } from './opsin.ts';
import { locateOpsin, OPSIN_INSTALL_HINT, type OpsinSetup } from './opsin-setup.ts';

let shared: { key: string; bridge: OpsinProcess } | undefined;

interface Settings {
  setup: OpsinSetup;
  timeoutMs: number;
  idleMs: number;
}

function settings(): Settings {
  const c = loadConfig();
  return {
    setup: locateOpsin({ OPSIN_JAR: c.OPSIN_JAR, OPSIN_JAVA: c.OPSIN_JAVA, JAVA_HOME: process.env.JAVA_HOME, PATH: process.env.PATH }),
    timeoutMs: c.OPSIN_TIMEOUT_MS,
    idleMs: c.OPSIN_IDLE_MS,
  };
}

/**
 * The bridge, or why there is none. The configuration is read on every call and a changed one
 * replaces the bridge (tests change it; a running service never does).
 */
export function sharedOpsin(): { bridge?: OpsinProcess; setup: OpsinSetup } {
  const s = settings();
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
export function opsinHealth(): OpsinHealth {
  let s: Settings;
  try {
    s = settings();
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
