/**
 * Where OPSIN and its Java runtime are, and the compiled bridge (NatprodOpsin.java) they run.
 * Nothing here starts a JVM except `compileBridge`; `locateOpsin` only looks at files, so /health
 * can call it freely.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A command name resolved on PATH, or a path checked as is. */
export function findExecutable(command: string, pathVar = process.env.PATH ?? ''): string | null {
  if (command.includes('/')) return executable(command) ? command : null;
  for (const dir of pathVar.split(delimiter)) {
    if (dir && executable(join(dir, command))) return join(dir, command);
  }
  return null;
}

export function locateOpsin(env: OpsinEnv = process.env): OpsinSetup {
  const jarVar = env.OPSIN_JAR?.trim();
  if (jarVar && ['off', 'none', 'false', '0'].includes(jarVar.toLowerCase())) {
    return { java: null, jar: null, disabled: true, problem: 'OPSIN is disabled (OPSIN_JAR=off)' };
  }
  const javaVar = env.OPSIN_JAVA?.trim();
  const java = javaVar
    ? findExecutable(javaVar, env.PATH)
    : (env.JAVA_HOME && findExecutable(join(env.JAVA_HOME, 'bin', 'java'))) || findExecutable('java', env.PATH);
  const jar = jarVar ? (existsSync(jarVar) ? jarVar : null) : DEBIAN_JARS.find((j) => existsSync(j)) ?? null;
  const problems: string[] = [];
  if (!java) problems.push(javaVar ? `OPSIN_JAVA=${javaVar} is not an executable` : 'no Java runtime found (OPSIN_JAVA, $JAVA_HOME/bin/java or java on PATH)');
  if (!jar) problems.push(jarVar ? `OPSIN_JAR=${jarVar} does not exist` : `no OPSIN jar found (OPSIN_JAR, or ${DEBIAN_JARS.join(' / ')})`);
  return { java, jar, disabled: false, ...(problems.length ? { problem: problems.join('; ') } : {}) };
}

/** Runs a command to its end; rejects with its output when it fails or outlives `timeoutMs`. */
function run(file: string, args: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (d: Buffer) => {
      output = (output + d.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${file} ${args.slice(0, 2).join(' ')} failed (${signal ?? `exit ${code}`}): ${output.trim()}`));
    });
  });
}

/** A directory only this user can have written (a shared temp dir must not hand us someone's classes). */
function ownDirectory(dir: string): boolean {
  try {
    const s = statSync(dir);
    return s.isDirectory() && (typeof process.getuid !== 'function' || s.uid === process.getuid()) && (s.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * The directory holding the compiled bridge, compiled now if needed (javac inside the runtime:
 * `java -m jdk.compiler/...`, which Debian's default-jre-headless has, so no JDK is required).
 * Keyed by the source, the jar and the java binary; several processes may race, the first
 * rename wins and the others use its result.
 */
export async function compileBridge(java: string, jar: string, cacheRoot = tmpdir(), timeoutMs = 120_000): Promise<string> {
  const source = readFileSync(BRIDGE_SOURCE);
  const key = createHash('sha256').update(source).update(`\0${jar}\0${java}`).digest('hex').slice(0, 16);
  const dir = join(cacheRoot, `natprod-opsin-${key}`);
  const compiled = (d: string) => ownDirectory(d) && existsSync(join(d, `${BRIDGE_CLASS}.class`));
  if (compiled(dir)) return dir;
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(tmp, { recursive: true, mode: 0o700 });
  try {
    await run(java, ['-m', 'jdk.compiler/com.sun.tools.javac.Main', '-encoding', 'UTF-8', '-nowarn', '-cp', jar, '-d', tmp, BRIDGE_SOURCE], timeoutMs);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`cannot compile the OPSIN bridge: ${(e as Error).message}`);
  }
  try {
    renameSync(tmp, dir);
  } catch {
    // Another process got there first (or a stale directory that is not ours is in the way).
    if (compiled(dir)) {
      rmSync(tmp, { recursive: true, force: true });
      return dir;
    }
    return tmp;
  }
  return dir;
}

/** Class path of the bridge: its own classes, then the OPSIN jar (whose manifest names the rest). */
export const bridgeClassPath = (classDir: string, jar: string) => `${classDir}${delimiter}${jar}`;
