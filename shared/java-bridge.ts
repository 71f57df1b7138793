/**
 * What the Java bridges (OPSIN's api/names/NatprodOpsin.java, the CDK's shared/toolkits/cdk/*.java)
 * share: finding a java binary, and compiling a bridge at its first start with the compiler inside
 * the Java runtime (`java -m jdk.compiler/...`, which Debian's default-jre-headless has, so no JDK
 * is required), cached in a per-hash directory of the temp dir.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

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

/** The java binary: `javaVar` when set (checked), else $JAVA_HOME/bin/java, else java on PATH. */
export function findJava(javaVar: string | undefined, env: { JAVA_HOME?: string; PATH?: string }): string | null {
  if (javaVar) return findExecutable(javaVar, env.PATH);
  return (env.JAVA_HOME && findExecutable(join(env.JAVA_HOME, 'bin', 'java'))) || findExecutable('java', env.PATH);
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

export interface JavaBridge {
  /** For messages: `OPSIN`, `CDK`. */
  label: string;
  /** The cache directory is `natprod-<prefix>-<hash>`. */
  prefix: string;
  /** The class whose .class file says the compile is done. */
  mainClass: string;
  sources: string[];
  /** The jars the sources compile against. */
  classPath: string[];
}

/**
 * The directory holding a compiled bridge, compiled now if needed. Keyed by the sources, the
 * class path and the java binary; several processes may race, the first rename wins and the
 * others use its result.
 */
export async function compileJavaBridge(bridge: JavaBridge, java: string, cacheRoot = tmpdir(), timeoutMs = 120_000): Promise<string> {
  const classPath = bridge.classPath.join(delimiter);
  const hash = createHash('sha256');
  for (const s of bridge.sources) hash.update(readFileSync(s));
  const key = hash.update(`\0${classPath}\0${java}`).digest('hex').slice(0, 16);
  const dir = join(cacheRoot, `natprod-${bridge.prefix}-${key}`);
  const compiled = (d: string) => ownDirectory(d) && existsSync(join(d, `${bridge.mainClass}.class`));
  if (compiled(dir)) return dir;
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(tmp, { recursive: true, mode: 0o700 });
  try {
    await run(java, ['-m', 'jdk.compiler/com.sun.tools.javac.Main', '-encoding', 'UTF-8', '-nowarn', '-cp', classPath, '-d', tmp, ...bridge.sources], timeoutMs);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`cannot compile the ${bridge.label} bridge: ${(e as Error).message}`);
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
