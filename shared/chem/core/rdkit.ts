/**
 * RDKit MinimalLib (WASM) access for worker threads. The module is loaded once per thread;
 * a molecule lives in C++ memory and is only reachable through `withMol`, which deletes it
 * in `finally` whatever the callback does.
 */
import rdkitPackage from '@rdkit/rdkit';
import type { MainModule, Mol } from '@rdkit/rdkit';
import { AppError, invalidStructure } from '../../errors.ts';
import { KEEP_HS, skipsHydrogenRemoval } from './parse-fast-path.ts';
import { assertMolblockCounts } from './molblock-counts.ts';
import { assertWithinSize } from '../../structure-limits.ts';

export { MAX_STRUCTURE_CHARS, countHeavyAtoms } from '../../structure-limits.ts';

export { skipsHydrogenRemoval };

export type RDKit = MainModule;
export type { Mol };

let loading: Promise<RDKit> | undefined;
let fault: Error | undefined;
let memory: { buffer: ArrayBuffer } | undefined;

/** Bytes of this thread's RDKit WebAssembly memory (it never shrinks); 0 before it is loaded. */
export function wasmMemoryBytes(): number {
  return memory?.buffer.byteLength ?? 0;
}

export function loadRDKit(): Promise<RDKit> {
  // The package is CommonJS whose typings declare an ES default export; at run time the
  // imported value is the factory itself.
  const factory = rdkitPackage as unknown as () => Promise<RDKit>;
  loading ??= captureMemory(factory).then((rdkit) => {
    rdkit.disable_logging();
    watchFaults(rdkit);
    return rdkit;
  });
  return loading;
}

/**
 * The module keeps its WebAssembly.Memory private: the instantiation is observed while the
 * factory runs to find the exported memory (for the `natprod_wasm_memory_bytes` gauge).
 */
async function captureMemory(factory: () => Promise<RDKit>): Promise<RDKit> {
  const wasm = (globalThis as unknown as { WebAssembly: Record<string, unknown> }).WebAssembly;
  const Memory = wasm.Memory as abstract new (...a: never[]) => { buffer: ArrayBuffer };
  const originals = { instantiate: wasm.instantiate, instantiateStreaming: wasm.instantiateStreaming };
  for (const [name, fn] of Object.entries(originals)) {
    if (typeof fn !== 'function') continue;
    wasm[name] = async (...args: unknown[]) => {
      const result = (await (fn as (...a: unknown[]) => Promise<{ instance?: { exports: Record<string, unknown> } }>).apply(wasm, args));
      for (const v of Object.values(result?.instance?.exports ?? {})) if (v instanceof Memory) memory ??= v;
      return result;
    };
  }
  try {
    return await factory();
  } finally {
    Object.assign(wasm, originals);
  }
}

/**
 * A trap inside RDKit's WASM (its C++ stack exhausted by a deep recursion, say) leaves the
 * module's memory in an undefined state: afterwards even "CCO" may fail to parse, or a call may
 * loop for ever. Every entry point into the module is therefore wrapped to record such a fault;
 * a worker thread whose module faulted answers the task with an error and is replaced
 * (shared/threads/thread.ts). Call sites that catch parse errors cannot hide a fault this way.
 * The readers (`get_mol`, `get_qmol`) also refuse text over the heavy-atom limit, whoever calls
 * them, so the known cause of such faults never reaches the module.
 */
function watchFaults(rdkit: RDKit): void {
  const wrap = (owner: Record<string, unknown>, key: string) => {
    const fn = owner[key];
    if (typeof fn !== 'function' || key === 'constructor') return;
    const reader = key === 'get_mol' || key === 'get_qmol';
    const wrapper = function (this: unknown, ...args: unknown[]) {
      const text = args[0];
      // rdkitjson (the graph code's own output) is bounded by the input it was built from.
      if (reader && typeof text === 'string' && !text.trimStart().startsWith('{')) assertStructureSize(text);
      if (key === 'get_qmol' && typeof text === 'string') assertSmartsNesting(text);
      if (key === 'get_mol' && args.length === 1 && typeof text === 'string' && skipsHydrogenRemoval(text)) args = [text, KEEP_HS];
      try {
        return (fn as (...a: unknown[]) => unknown).apply(this, args);
      } catch (e) {
        if (isWasmFault(e)) fault ??= e as Error;
        throw e;
      }
    };
    // Embind's dispatcher for overloaded methods finds its overload table on the function
    // stored under the method's name, i.e. on this wrapper: carry such properties over.
    owner[key] = Object.assign(wrapper, fn);
  };
  const module = rdkit as unknown as Record<string, unknown>;
  for (const key of Object.keys(module)) if (/^get_|^molzip$/.test(key)) wrap(module, key);
  for (const cls of ['Mol', 'MolList', 'Reaction', 'SubstructLibrary', 'RGroupDecomposition']) {
    const proto = (module[cls] as { prototype?: Record<string, unknown> } | undefined)?.prototype;
    if (proto) for (const key of Object.getOwnPropertyNames(proto)) wrap(proto, key);
  }
}

// The project's TypeScript lib has no WebAssembly declarations; the runtime has the class.
const WasmRuntimeError = (globalThis as unknown as { WebAssembly: { RuntimeError: ErrorConstructor } }).WebAssembly.RuntimeError;

export function isWasmFault(e: unknown): boolean {
  return e instanceof WasmRuntimeError || (e instanceof RangeError && /call stack/i.test(e.message));
}

/** The first WASM fault of this thread's RDKit module, if any (the module is unusable after it). */
export function rdkitFault(): Error | undefined {
  return fault;
}

export type InputFormat = 'smiles' | 'cxsmiles' | 'molblock-v2000' | 'molblock-v3000';

/**
 * Recognise the notation of a structure string. Returns undefined for notations we do not
 * read (InChI, SDF with several records, PDB ...), so callers can answer 422 naming it.
 */
export function detectFormat(text: string): InputFormat | { unsupported: string } {
  const t = text.trim();
  if (/^InChI=/i.test(t)) return { unsupported: 'InChI' };
  if (/^[A-Z]{14}-[A-Z]{10}-[A-Z]$/.test(t)) return { unsupported: 'InChIKey' };
  if (t.includes('\n') || /M {2}END/.test(t)) {
    if (/V3000/.test(t)) return 'molblock-v3000';
    if (/V2000/.test(t)) return 'molblock-v2000';
    if (/^(HEADER|ATOM|HETATM)\b/m.test(t)) return { unsupported: 'PDB' };
    return { unsupported: 'unrecognised multi-line text (expected a V2000 or V3000 molblock)' };
  }
  if (/\s\|.*\|\s*$/.test(t)) return 'cxsmiles';
  return 'smiles';
}

/** Query-string decoding turns `+` into space; SMILES never contain spaces before a CX block. */
export function normaliseSmiles(smiles: string): string {
  const bar = smiles.indexOf(' |');
  if (bar >= 0) return smiles.slice(0, bar).replaceAll(' ', '+') + smiles.slice(bar);
  return smiles.trim().replaceAll(' ', '+');
}

/**
 * Most heavy atoms in one input: MAX_HEAVY_ATOMS, set once per thread by `configureRDKit` (400
 * when never set). RDKit's C++ recurses along chains of atoms and its WASM build has a fixed
 * stack, which a long chain exhausts (measured: a linear alkane's canonical SMILES fails from
 * about 590 carbons, a conjugated polyene's collection pre-processing from about 470 atoms). 400
 * leaves a margin and is far above natural products (maitotoxin, among the largest: 234 atoms).
 */
let atomLimit = 400;
let lastAccepted: string | undefined;
export const maxHeavyAtoms = (): number => atomLimit;
export function configureRDKit(opts: { maxHeavyAtoms: number }): void {
  [atomLimit, lastAccepted] = [opts.maxHeavyAtoms, undefined];
}

/**
 * Most levels of recursive SMARTS (`$(...)` inside `$(...)`). Matching a query nested about 200
 * deep leaves the thread's RDKit module broken without a trap: every later call of some
 * functions (canonical SMILES among them) throws a C++ exception, so the fault watch above
 * never sees it and the thread answers 500 for ever. Real queries nest two or three levels.
 */
export const MAX_SMARTS_NESTING = 16;

/** 422 before parsing a SMARTS whose recursive queries nest deeper than MAX_SMARTS_NESTING. */
export function assertSmartsNesting(text: string): void {
  if (!text.includes('$(')) return;
  const open: boolean[] = []; // for each open parenthesis: does it start a recursive query?
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') {
      const recursive = text[i - 1] === '$';
      open.push(recursive);
      if (recursive && ++depth > MAX_SMARTS_NESTING) {
        throw new AppError(422, `SMARTS too deeply nested: recursive queries $(...) nest more than ${MAX_SMARTS_NESTING} levels`, 'invalid_input');
      }
    } else if (c === ')' && open.pop()) depth--;
  }
}

/**
 * 422 before parsing when a structure text is longer than MAX_STRUCTURE_CHARS, has more heavy
 * atoms than RDKit's WASM stack can take, or is a V3000 molblock whose counts exceed its blocks.
 */
export function assertStructureSize(text: string): void {
  // parseMol checks its text, then the get_mol wrapper checks the same string again: the last
  // text that passed is remembered (one string, no growth) so the count runs once per parse.
  if (text === lastAccepted) return;
  assertWithinSize(text, maxHeavyAtoms());
  if (text.includes('\n')) assertMolblockCounts(text);
  lastAccepted = text;
}

export function parseMol(rdkit: RDKit, input: string, what = 'smiles'): Mol {
  if (typeof input !== 'string' || input.trim() === '') throw invalidStructure(String(input ?? ''), what);
  const text = input.includes('\n') ? input : normaliseSmiles(input);
  assertStructureSize(text);
  let mol: Mol | null = null;
  try {
    mol = rdkit.get_mol(text);
  } catch {
    mol = null;
  }
  // A text without atoms (a molblock with an empty atom block, CXSMILES extensions alone) parses
  // to a valid empty molecule, on which RDKit functions such as get_json throw C++ exceptions.
  if (!mol || !mol.is_valid() || mol.get_num_atoms() === 0) {
    mol?.delete();
    throw invalidStructure(input.includes('\n') ? 'molblock' : text, what);
  }
  return mol;
}

/** Parse, run, delete. The only sanctioned way to touch a molecule. */
export function withMol<T>(rdkit: RDKit, input: string, fn: (mol: Mol) => T, what = 'smiles'): T {
  const mol = parseMol(rdkit, input, what);
  try {
    return fn(mol);
  } finally {
    mol.delete();
  }
}

/** Same for SMARTS queries; returns undefined (not an error) when the pattern does not parse. */
export function withQuery<T>(rdkit: RDKit, smarts: string, fn: (q: Mol) => T): T | undefined {
  let q: Mol | null = null;
  try {
    q = rdkit.get_qmol(smarts);
  } catch {
    q = null;
  }
  if (!q || !q.is_valid()) {
    q?.delete();
    return undefined;
  }
  try {
    return fn(q);
  } finally {
    q.delete();
  }
}
