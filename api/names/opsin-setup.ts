/**
 * Where OPSIN and its Java runtime are, and the compiled bridge (NatprodOpsin.java) they run.
 * Nothing here starts a JVM except `compileBridge`; `locateOpsin` only looks at files, so /health
 * can call it freely.
 */
import { existsSync } from 'node:fs';
import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileJavaBridge, findJava } from '../../shared/java-bridge.ts';

export { findExecutable } from '../../shared/java-bridge.ts';

/** What to install when OPSIN is missing (said by /health and by the 422 of an unread name). */
export const OPSIN_INSTALL_HINT =
  'install a Java runtime (11 or newer) and OPSIN: on Debian/Ubuntu `apt-get install default-jre-headless libopsin-java`; ' +
  'elsewhere set OPSIN_JAR to an OPSIN jar with its dependencies (opsin-cli-<version>-jar-with-dependencies.jar) ' +
  'and OPSIN_JAVA to a java binary if java is not on PATH';

export const BRIDGE_SOURCE = fileURLToPath(new URL('./NatprodOpsin.java', import.meta.url));
export const BRIDGE_CLASS = 'NatprodOpsin';

/** Debian's libopsin-java: the CLI jar's manifest Class-Path pulls in opsin-core and its dependencies. */
export const DEBIAN_JARS = ['/usr/share/java/opsin-cli.jar', '/usr/share/java/opsin.jar'];

export interface OpsinSetup {
  java: string | null;
  jar: string | null;
  /** OPSIN_JAR=off */
  disabled: boolean;
  /** Why OPSIN cannot run, when it cannot. */
  problem?: string;
}

export interface OpsinEnv {
  OPSIN_JAR?: string;
  OPSIN_JAVA?: string;
  JAVA_HOME?: string;
  PATH?: string;
}

export function locateOpsin(env: OpsinEnv = process.env): OpsinSetup {
  const jarVar = env.OPSIN_JAR?.trim();
  if (jarVar && ['off', 'none', 'false', '0'].includes(jarVar.toLowerCase())) {
    return { java: null, jar: null, disabled: true, problem: 'OPSIN is disabled (OPSIN_JAR=off)' };
  }
  const javaVar = env.OPSIN_JAVA?.trim();
  const java = findJava(javaVar, env);
  const jar = jarVar ? (existsSync(jarVar) ? jarVar : null) : DEBIAN_JARS.find((j) => existsSync(j)) ?? null;
  const problems: string[] = [];
  if (!java) problems.push(javaVar ? `OPSIN_JAVA=${javaVar} is not an executable` : 'no Java runtime found (OPSIN_JAVA, $JAVA_HOME/bin/java or java on PATH)');
  if (!jar) problems.push(jarVar ? `OPSIN_JAR=${jarVar} does not exist` : `no OPSIN jar found (OPSIN_JAR, or ${DEBIAN_JARS.join(' / ')})`);
  return { java, jar, disabled: false, ...(problems.length ? { problem: problems.join('; ') } : {}) };
}

/**
 * The directory holding the compiled bridge, compiled now if needed (shared/java-bridge.ts: javac
 * inside the runtime, cached by the source, the jar and the java binary).
 */
export const compileBridge = (java: string, jar: string, cacheRoot?: string, timeoutMs?: number): Promise<string> =>
  compileJavaBridge({ label: 'OPSIN', prefix: 'opsin', mainClass: BRIDGE_CLASS, sources: [BRIDGE_SOURCE], classPath: [jar] }, java, cacheRoot, timeoutMs);

/** Class path of the bridge: its own classes, then the OPSIN jar (whose manifest names the rest). */
export const bridgeClassPath = (classDir: string, jar: string) => `${classDir}${delimiter}${jar}`;
