/**
 * What a PNG depiction costs on a chemistry thread (target: at most 20 ms for a 50-atom molecule).
 *
 *   node --import tsx bench/png.ts                 (N renders per figure, default 300)
 *   N=1000 SIZE=1024 SMILES='...' node --import tsx bench/png.ts
 *
 * A one-thread pool (shared/threads/pool.ts, as the api's), one task at a time, after WARM
 * (default 50) untimed calls of each. Milliseconds per call, p50 and p99, end to end from this
 * thread (posting, the thread, the answer):
 * - svg: generate_2d_depiction with format=svg (RDKit's drawing alone);
 * - svg→png: the internal task svg_to_png of that SVG (resvg on the thread, plus base64);
 * - png: generate_2d_depiction with format=png (the whole operation: drawing and rendering).
 * and CPU ms per call of the whole process (both threads; process.cpuUsage), which a busy
 * machine inflates less than the wall-clock figures.
 * The molecule is erythromycin A (51 heavy atoms) unless SMILES says otherwise, drawn SIZE
 * pixels square (default 512, the operation's default). Prints figures, asserts nothing.
 */
import { loadRDKit, withMol } from '../shared/chem/core/rdkit.ts';
import { loadConfig, threadConfig } from '../shared/config.ts';
import { createPool } from '../shared/threads/pool.ts';

const N = Number(process.env.N ?? 300);
const WARM = Number(process.env.WARM ?? 50);
const SIZE = Number(process.env.SIZE ?? 512);
const SMILES = process.env.SMILES
  ?? 'CC[C@@H]1[C@@]([C@@H]([C@H](C(=O)[C@@H](C[C@@]([C@@H]([C@H]([C@@H]([C@H](C(=O)O1)C)O[C@H]2C[C@@]([C@H]([C@@H](O2)C)O)(C)OC)C)O[C@H]3[C@@H]([C@H](C[C@H](O3)C)N(C)C)O)(C)O)C)C)O)(C)O';

const rdkit = await loadRDKit();
const heavy = withMol(rdkit, SMILES, (m) => (JSON.parse(m.get_json()) as { molecules: { atoms: unknown[] }[] }).molecules[0]!.atoms.length);

const pool = createPool(1, threadConfig(loadConfig()));
const opts = { timeoutMs: 60_000 };
const depiction = (format: 'svg' | 'png') => ({ smiles: SMILES, toolkit: 'rdkit', format, width: SIZE, height: SIZE, scale: 1, rotate: 0, CIP: false, unicolor: false, highlight: 'COSN' });
const svg = (await pool.run('generate_2d_depiction', depiction('svg'), opts)) as string;

const steps: Record<string, () => Promise<unknown>> = {
  svg: () => pool.run('generate_2d_depiction', depiction('svg'), opts),
  'svg→png': () => pool.run('svg_to_png', { svg }, opts),
  png: () => pool.run('generate_2d_depiction', depiction('png'), opts),
};

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
console.log(`PNG depiction on a chemistry thread: ${heavy} heavy atoms, ${SIZE}×${SIZE} px, ${N} calls each, Node ${process.version}`);
for (const [name, step] of Object.entries(steps)) {
  for (let i = 0; i < WARM; i++) await step();
  const ms: number[] = [];
  let bytes = 0;
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    const out = await step();
    ms.push(performance.now() - t);
    bytes = typeof out === 'string' ? out.length : Buffer.byteLength((out as { body: string }).body, 'base64');
  }
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000 / N;
  console.log(`  ${name.padEnd(8)} p50 ${pct(ms, 50).toFixed(2).padStart(6)} ms   p99 ${pct(ms, 99).toFixed(2).padStart(6)} ms   CPU ${cpuMs.toFixed(2).padStart(6)} ms/call   (${bytes} bytes)`);
}
await pool.destroy();
