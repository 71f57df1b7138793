/**
 * Cost of the chemistry behind `GET /chem/descriptors` (task generate_descriptors) on one
 * thread, over the LOTUS demo molecules, with a breakdown per component; then the two other hot
 * operations (canonical SMILES, InChIKey). After each operation the WASM heap size is printed
 * before and after many calls: it must stay flat (every JSMol / query deleted after use).
 * Prints figures; asserts nothing.
 *
 *   node --import tsx bench/descriptors.ts
 *   PASSES=3 HEAP_CALLS=20000 node --import tsx bench/descriptors.ts
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { loadRDKit, parseMol, withMol, type Mol, type RDKit } from '../shared/chem/core/rdkit.ts';
import { TASKS } from '../shared/ops/tasks.ts';
import { morganGraph, type MorganGraph } from '../shared/chem/core/morgan-env.ts';
import { qed } from '../shared/chem/scores/qed.ts';
import { vdwVolume } from '../shared/chem/descriptors/vdw-volume.ts';
import { detectSugarsInMol } from '../shared/chem/sugars/sugars.ts';
import { murckoFramework } from '../shared/chem/descriptors/murcko.ts';
import { npLikeness } from '../shared/chem/scores/nplikeness.ts';
import { molecularFormula } from '../shared/chem/core/formula.ts';
import { isPlainSmiles, MolView } from '../shared/chem/core/mol-view.ts';
import { rdkitProps } from '../shared/chem/descriptors/rdkit-props.ts';
import { npModel, qedData } from '../shared/ops/descriptors.tasks.ts';
import { taskContext } from '../test/helpers/task.ts';

const PASSES = Number(process.env.PASSES ?? 2);
const HEAP_CALLS = Number(process.env.HEAP_CALLS ?? 20_000);
const ONLY = process.env.ONLY ?? ''; // e.g. ONLY=descriptors to skip the conversion section

// The module keeps its WebAssembly.Memory private (no HEAP8 on the module object), so the
// instantiation is observed to find the exported memory. Installed before loadRDKit runs.
interface WasmMemory { buffer: ArrayBuffer }
const wasm = (globalThis as unknown as { WebAssembly: Record<string, unknown> }).WebAssembly;
const MemoryClass = wasm.Memory as new (...a: unknown[]) => WasmMemory;
let memory: WasmMemory | undefined;
for (const name of ['instantiate', 'instantiateStreaming']) {
  const original = wasm[name] as (...a: unknown[]) => Promise<{ instance?: { exports: Record<string, unknown> } }>;
  wasm[name] = async (...args: unknown[]) => {
    const result = await original(...args);
    for (const v of Object.values(result.instance?.exports ?? {})) if (v instanceof MemoryClass) memory = v;
    return result;
  };
}
const heapBytes = () => memory?.buffer.byteLength ?? Number.NaN;
const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;

const rdkit: RDKit = await loadRDKit();
const ctx = taskContext(rdkit);

// Live molecule count, a finer leak check than the heap size (a freed slot is reused, so a
// small leak may not grow the heap for a while): every JSMol the module hands out, minus
// those deleted. Compiled SMARTS queries stay alive on purpose; compare counts after warm-up.
let liveMols = 0;
const moduleFns = rdkit as unknown as Record<string, (...a: unknown[]) => unknown>;
for (const key of ['get_mol', 'get_qmol', 'get_mol_copy']) {
  const fn = moduleFns[key];
  // Embind finds overload tables on the function stored under the name: carry them over.
  moduleFns[key] = Object.assign(function (this: unknown, ...args: unknown[]) {
    const m = fn.apply(this, args);
    if (m) liveMols++;
    return m;
  }, fn);
}
const molProto = (rdkit as unknown as { Mol: { prototype: { delete(): void } } }).Mol.prototype;
const deleteMol = molProto.delete;
molProto.delete = function (this: unknown) {
  liveMols--;
  deleteMol.call(this);
};

/** structure_smiles of every row (structure_smiles_2D when empty), as api/catalog/import/lotus.ts reads them. */
function lotusSmiles(): string[] {
  const file = new URL('../api/catalog/data/lotus_sample_1000.tsv.gz', import.meta.url);
  const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n').filter((l) => l.trim() !== '');
  const head = lines[0].split('\t');
  const col = head.indexOf('structure_smiles');
  const col2D = head.indexOf('structure_smiles_2D');
  return lines.slice(1).map((l) => {
    const f = l.split('\t');
    return f[col]?.trim() || f[col2D]?.trim();
  }).filter((s): s is string => !!s);
}

const smiles = lotusSmiles();

function stats(samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return `mean ${mean.toFixed(3)}  p50 ${at(0.5).toFixed(3)}  p99 ${at(0.99).toFixed(3)} ms/molecule (n=${s.length})`;
}

/** Per-molecule wall time of a task over every molecule, PASSES times, after one warm-up pass. */
function timeTask(task: string, args: (s: string) => Record<string, unknown>): string {
  const handler = TASKS[task];
  return timeCalls((s) => handler(args(s), ctx));
}

function timeCalls(fn: (s: string) => unknown): string {
  const call = (s: string) => {
    try {
      fn(s);
    } catch {
      // Unreadable inputs answer 422; they count like the others.
    }
  };
  for (const s of smiles) call(s);
  const samples: number[] = [];
  for (let p = 0; p < PASSES; p++) {
    for (const s of smiles) {
      const t0 = performance.now();
      call(s);
      samples.push(performance.now() - t0);
    }
  }
  return stats(samples);
}

/** WASM heap before and after `calls` task calls cycling over the molecules. */
function heapAfter(task: string, args: (s: string) => Record<string, unknown>, calls = HEAP_CALLS): string {
  const handler = TASKS[task];
  const before = heapBytes();
  const molsBefore = liveMols;
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) {
    try {
      handler(args(smiles[i % smiles.length]), ctx);
    } catch {
      // as above
    }
  }
  const s = ((performance.now() - t0) / 1000).toFixed(1);
  const after = heapBytes();
  const grew = after > before ? `  GREW by ${mib(after - before)}` : '';
  return `WASM heap ${mib(before)} → ${mib(after)} after ${calls} calls (${s} s)${grew}; JSMol objects alive ${molsBefore} → ${liveMols}`;
}

interface State {
  smiles: string;
  mol: Mol;
  desc: Parameters<typeof qed>[3];
  view: MolView;
  graph: MorganGraph;
}
type Step = [name: string, run: (st: State) => unknown];

/**
 * The pieces of the descriptor task in the order coconutDescriptors runs them, each timed on
 * its own but inside the per-molecule sequence: timed in isolation loops, RDKit calls look
 * cheaper than they are (hot loops keep one WASM function in cache). The SMARTS-screen inventory is built
 * by the first query (QED).
 */
const STEPS: Step[] = [
  ['parse (get_mol)', (st) => (st.mol = parseMol(rdkit, st.smiles))],
  ['molecule JSON (get_json, once)', (st) => (st.view = new MolView(rdkit, st.mol, isPlainSmiles(st.smiles))).json],
  // RDKit's descriptors in JavaScript (rdkit-props.ts); MinimalLib's get_descriptors() for the rest.
  ['RDKit descriptors (rdkitProps)', (st) => (st.desc = rdkitProps(rdkit, st.view.json) ?? JSON.parse(st.mol.get_descriptors()))],
  ['morganGraph', (st) => (st.graph = morganGraph(rdkit, st.mol, st.view.json))],
  ['ring data', (st) => st.view.json.rings],
  ['vdW volume', (st) => vdwVolume(st.graph, st.view.json.rings, st.view.json.aromaticAtoms)],
  ['QED', (st) => qed(rdkit, st.mol, st.graph, st.desc, qedData(), st.view)],
  ['sugars', (st) => detectSugarsInMol(rdkit, st.mol, {}, st.view)],
  ['Murcko', (st) => murckoFramework(rdkit, st.mol, st.view)],
  ['NP-likeness', (st) => npLikeness(rdkit, st.mol, npModel(), st.graph)],
  ['formula', (st) => molecularFormula(st.graph)],
  ['delete', (st) => st.mol.delete()],
];

/** Mean ms per molecule of each step, over PASSES passes after a warm-up pass. */
function timeComponents(): void {
  const total = new Float64Array(STEPS.length);
  let molecules = 0;
  for (let p = 0; p <= PASSES; p++) {
    for (const smiles1 of smiles) {
      const st = { smiles: smiles1 } as State;
      let t = performance.now();
      try {
        for (let k = 0; k < STEPS.length; k++) {
          STEPS[k][1](st);
          const now = performance.now();
          if (p > 0) total[k] += now - t;
          t = now;
        }
        if (p > 0) molecules++;
      } catch {
        // An unreadable input: nothing to time (and nothing parsed to delete).
      }
    }
  }
  const width = Math.max(...STEPS.map(([name]) => name.length));
  STEPS.forEach(([name], k) => console.log(`    ${name.padEnd(width)}  ${(total[k] / molecules).toFixed(3)} ms`));
  console.log(`    ${'sum'.padEnd(width)}  ${(total.reduce((a, b) => a + b, 0) / molecules).toFixed(3)} ms`);
}

const descriptorArgs = (s: string) => ({ smiles: s, format: 'json', toolkit: 'rdkit' });
const smilesArgs = (s: string) => ({ smiles: s, toolkit: 'rdkit' });

console.log(`${smiles.length} LOTUS molecules, ${PASSES} timed passes, one thread; WASM heap at start ${mib(heapBytes())}`);
if (ONLY === '' || ONLY === 'descriptors') {
  console.log('\ngenerate_descriptors (format json, toolkit rdkit)');
  // What the task is compared with: parsing plus MinimalLib's own descriptor call.
  console.log(`  reference, get_mol + get_descriptors: ${timeCalls((s) => withMol(rdkit, s, (m) => JSON.parse(m.get_descriptors())))}`);
  console.log(`  total: ${timeTask('generate_descriptors', descriptorArgs)}`);
  console.log('  components, timed in sequence (mean ms/molecule):');
  timeComponents();
  console.log(`  ${heapAfter('generate_descriptors', descriptorArgs)}`);
}
if (ONLY === '' || ONLY === 'convert') {
  for (const task of ['generate_canonical_smiles', 'generate_inchikey']) {
    console.log(`\n${task}`);
    console.log(`  total: ${timeTask(task, smilesArgs)}`);
    console.log(`  ${heapAfter(task, smilesArgs)}`);
  }
}
