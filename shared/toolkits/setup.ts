/**
 * Where the toolkits are (CDK, Open Babel, and native RDKit for the 3D embedding its WebAssembly
 * build lacks), what to spawn for each sidecar, and what to install when one is missing.
 * `locate*` only look at files (so /health can call them freely); `cdkCommand` compiles the CDK
 * bridge (shared/toolkits/cdk/*.java) at its first start, with the compiler inside the Java
 * runtime, and caches the classes by source, jars and java binary (as the OPSIN bridge does).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileJavaBridge, findExecutable as findExecutableOn, findJava } from '../java-bridge.ts';

/** A sidecar's toolkit; `rdkit` is native RDKit, used only where the WASM threads cannot answer (3D embedding). */
export type ToolkitName = 'cdk' | 'openbabel' | 'rdkit';

export const INSTALL_HINT: Record<ToolkitName, string> = {
  cdk: 'install a Java runtime and the CDK: on Debian/Ubuntu `apt-get install default-jre-headless libcdk-java` (and `libjni-inchi-java libinchi1` for its InChI, InChIKey and canonical SMILES); elsewhere set CDK_JARS to a directory of CDK 2.8 jars and their dependencies, and CDK_JAVA to a java binary if java is not on PATH',
  openbabel: 'install Open Babel for Python: on Debian/Ubuntu `apt-get install python3-openbabel`; elsewhere set OPENBABEL_PYTHON to a python with the openbabel module',
  rdkit: 'install native RDKit for Python (3D embedding): on Debian/Ubuntu `apt-get install python3-rdkit`; elsewhere set RDKIT_PYTHON to a python with the rdkit module',
};

export interface ToolkitEnv {
  CDK_JARS?: string;
  CDK_JAVA?: string;
  OPENBABEL_PYTHON?: string;
  RDKIT_PYTHON?: string;
  JAVA_HOME?: string;
  PATH?: string;
}

export interface Located {
  ok: boolean;
  disabled?: boolean;
  /** Why it cannot run. */
  problem?: string;
  /** The version the files say (the running sidecar reports its own). */
  version?: string;
}
export interface CdkSetup extends Located { java?: string; jars?: string[] }
export interface PythonSetup extends Located { python?: string }

const OFF = new Set(['off', 'none', 'false', '0']);
const DEBIAN_JAVA_DIR = '/usr/share/java';
/** Beyond the CDK modules: the libraries they load (Debian's libbeam-java, libvecmath-java, libguava-java). */
const CDK_DEPENDENCIES = ['beam-core', 'beam-func', 'vecmath', 'guava'];
const BRIDGE_DIR = fileURLToPath(new URL('./cdk/', import.meta.url));
/** JNI-InChI's jar; with it the bridge also compiles cdk/inchi/*.java (CDK's InChI on InChI 1.03). */
const JNI_INCHI_JAR = 'jni-inchi.jar';
export const BRIDGE_CLASS = 'NatprodCdk';

/** As shared/java-bridge.ts's, with no PATH when `env` has none. */
const findExecutable = (command: string, pathVar = '') => findExecutableOn(command, pathVar);

export function locateCdk(env: ToolkitEnv = process.env): CdkSetup {
  const jarVar = env.CDK_JARS?.trim();
  if (jarVar && OFF.has(jarVar.toLowerCase())) return { ok: false, disabled: true, problem: 'CDK is disabled (CDK_JARS=off)' };
  const javaVar = env.CDK_JAVA?.trim();
  const java = findJava(javaVar, { JAVA_HOME: env.JAVA_HOME, PATH: env.PATH ?? '' });
  const dir = jarVar || DEBIAN_JAVA_DIR;
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    /* reported below */
  }
  // One jar per module: the unversioned links Debian installs, else the versioned files.
  const cdk = names.filter((n) => /^cdk-[a-z0-9]+\.jar$/.test(n) && !/^cdk-(slf4j|log4j)\.jar$/.test(n));
  const versioned = names.find((n) => /^cdk-core-[\d.]+\.jar$/.test(n));
  const deps = CDK_DEPENDENCIES.map((d) => names.find((n) => n === `${d}.jar`) ?? names.find((n) => n.startsWith(`${d}-`) && n.endsWith('.jar')));
  const problems: string[] = [];
  if (!java) problems.push(javaVar ? `CDK_JAVA=${javaVar} is not an executable` : 'no Java runtime found (CDK_JAVA, $JAVA_HOME/bin/java or java on PATH)');
  if (!cdk.includes('cdk-core.jar') && !versioned) problems.push(`no CDK jars in ${dir}`);
  else if (deps.some((d) => !d)) problems.push(`missing in ${dir}: ${CDK_DEPENDENCIES.filter((_, i) => !deps[i]).join(', ')}`);
  // Optional: JNI-InChI (Debian's libjni-inchi-java) for CDK's InChI and absolute SMILES (shared/toolkits/cdk/inchi/).
  const inchi = names.find((n) => n === JNI_INCHI_JAR) ?? names.find((n) => /^jni-inchi-[\d.]+\.jar$/.test(n));
  const jars = [
    ...(cdk.length ? cdk : names.filter((n) => /^cdk-[a-z0-9]+-[\d.]+\.jar$/.test(n) && !/slf4j|log4j/.test(n))),
    ...deps.filter((d): d is string => !!d),
    ...(inchi ? [inchi] : []),
  ].map((n) => join(dir, n));
  return {
    ok: problems.length === 0,
    ...(problems.length ? { problem: problems.join('; ') } : {}),
    ...(java ? { java } : {}),
    jars,
    ...(versioned ? { version: `CDK ${versioned.slice(9, -4)}` } : {}),
  };
}

/** Debian's python3-openbabel and python3-rdkit live in the system python, not in a pyenv or venv one first on PATH. */
const PYTHONS = ['/usr/bin/python3', 'python3'];

/** A python sidecar's interpreter: `variable` names one or `off`; else Debian's, which must have `module`. */
function locatePython(label: string, name: string, value: string | undefined, module: string, pathVar: string | undefined): PythonSetup {
  const v = value?.trim();
  if (v && OFF.has(v.toLowerCase())) return { ok: false, disabled: true, problem: `${label} is disabled (${name}=off)` };
  if (v) {
    const python = findExecutable(v, pathVar);
    return python ? { ok: true, python } : { ok: false, problem: `${name}=${v} is not an executable` };
  }
  const python = PYTHONS.map((p) => findExecutable(p, pathVar)).find(Boolean);
  if (!python) return { ok: false, problem: 'no python3 found' };
  const file = `/usr/lib/python3/dist-packages/${module}/__init__.py`;
  if (python.startsWith('/usr/bin/') && !existsSync(file)) return { ok: false, python, problem: `the ${module} module is not installed (${file})` };
  return { ok: true, python };
}

/** A version from the names in a directory (`pattern`'s first group), if one matches. */
function versionIn(dir: string, pattern: RegExp): string | undefined {
  try {
    for (const n of readdirSync(dir)) {
      const m = pattern.exec(n);
      if (m) return m[1];
    }
  } catch {
    /* another layout: the sidecar says its version */
  }
  return undefined;
}

export function locateOpenBabel(env: ToolkitEnv = process.env): PythonSetup {
  const setup = locatePython('Open Babel', 'OPENBABEL_PYTHON', env.OPENBABEL_PYTHON, 'openbabel', env.PATH);
  const version = setup.ok && !env.OPENBABEL_PYTHON?.trim() ? versionIn('/usr/lib/x86_64-linux-gnu/openbabel', /^(\d+\.\d+\.\d+)$/) : undefined;
  return { ...setup, ...(version ? { version: `Open Babel ${version}` } : {}) };
}

/** Native RDKit (Debian's python3-rdkit), for the 3D embedding MinimalLib lacks. */
export function locateRdkit(env: ToolkitEnv = process.env): PythonSetup {
  const setup = locatePython('Native RDKit', 'RDKIT_PYTHON', env.RDKIT_PYTHON, 'rdkit', env.PATH);
  // Debian's librdkit1 installs libRDKitGraphMol.so.1.<release>.
  const version = setup.ok && !env.RDKIT_PYTHON?.trim() ? versionIn('/usr/lib', /^libRDKitGraphMol\.so\.\d+\.(\d{4}\.\d+\.\d+)$/) : undefined;
  return { ...setup, ...(version ? { version: `RDKit ${version}` } : {}) };
}

export const OPENBABEL_SCRIPT = fileURLToPath(new URL('./openbabel/natprod_openbabel.py', import.meta.url));
export const RDKIT_SCRIPT = fileURLToPath(new URL('./rdkit/natprod_rdkit.py', import.meta.url));

/** JVM flags: one small serial heap, C1 only, no perf-data files (as the OPSIN JVM). */
export const JVM_OPTIONS = ['-XX:+UseSerialGC', '-Xmx512m', '-Xss16m', '-XX:TieredStopAtLevel=1', '-XX:ReservedCodeCacheSize=48m', '-XX:-UsePerfData', '-Djava.awt.headless=true', '-Dfile.encoding=UTF-8'];

/** The directory of the compiled CDK bridge, compiled now if needed (shared/java-bridge.ts). */
export async function compileCdkBridge(java: string, jars: string[], cacheRoot?: string, timeoutMs?: number): Promise<string> {
  const javaFiles = (d: string) => readdirSync(d).filter((n) => n.endsWith('.java')).sort().map((n) => join(d, n));
  const withInchi = jars.some((j) => /(^|\/)jni-inchi(-[\d.]+)?\.jar$/.test(j));
  const sources = [...javaFiles(BRIDGE_DIR), ...(withInchi ? javaFiles(join(BRIDGE_DIR, 'inchi')) : [])];
  return compileJavaBridge({ label: 'CDK', prefix: 'cdk', mainClass: BRIDGE_CLASS, sources, classPath: jars }, java, cacheRoot, timeoutMs);
}
