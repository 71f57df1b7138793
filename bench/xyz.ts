/**
 * Cost of the XYZ bond perception (/convert/xyz, toolkit=rdkit; docs/convert.md) on one thread of
 * this process: the 40 LOTUS frames of test/fixtures/convert311/lotus_xyz.tsv (15-40 heavy atoms,
 * hydrogens as atoms), perceived and written as SMILES, InChI, InChIKey and molblock, ROUNDS times.
 * Prints figures; asserts nothing.   npx tsx bench/xyz.ts   (ROUNDS=5)
 */
import { readFileSync } from 'node:fs';
import { loadRDKit } from '../shared/chem/core/rdkit.ts';
import { convertXyzFrame } from '../shared/chem/convert/xyz.ts';
import { connectTheDots, determineBondOrders } from '../shared/chem/convert/xyz-bonds.ts';
import { parseXyzFrame } from '../shared/chem/convert/xyz.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const rows = readFileSync(new URL('../test/fixtures/convert311/lotus_xyz.tsv', import.meta.url), 'utf8').trim().split('\n').slice(2);
const frames = rows.map((l) => l.split('\t')[2].replaceAll('\\n', '\n'));
const rdkit = await loadRDKit();

for (const f of frames) convertXyzFrame(rdkit, f, 0); // warm-up
let t0 = performance.now();
for (let r = 0; r < ROUNDS; r++) for (const f of frames) {
  const { atoms } = parseXyzFrame(f);
  determineBondOrders(atoms.map((a) => a.z), connectTheDots(atoms), 0);
}
const perceive = (performance.now() - t0) / (ROUNDS * frames.length);
t0 = performance.now();
for (let r = 0; r < ROUNDS; r++) for (const f of frames) convertXyzFrame(rdkit, f, 0);
const whole = (performance.now() - t0) / (ROUNDS * frames.length);
const atoms = frames.map((f) => Number(f.split('\n', 1)[0]));
console.log(`${frames.length} frames (${Math.min(...atoms)}-${Math.max(...atoms)} atoms with H), ${ROUNDS} rounds`);
console.log(`bond perception (connectivity + bond orders): ${perceive.toFixed(2)} ms per frame`);
console.log(`whole frame (perception + RDKit SMILES, InChI, InChIKey, molblock): ${whole.toFixed(2)} ms per frame`);
