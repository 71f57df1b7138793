/**
 * RDKit's descriptors in JavaScript (shared/chem/descriptors/rdkit-props.ts) against MinimalLib's
 * `get_descriptors()` on a set of molecules: how many differ (any key beyond 1e-9), how many are
 * outside the JavaScript domain, and the time of each per molecule (mean of 3 passes after a
 * warm-up, on molecules parsed once). Prints figures; exits 1 when a value differs.
 *
 *   node --import tsx bench/rdkit-props.ts                      (the LOTUS demo sample)
 *   node --import tsx bench/rdkit-props.ts /tmp/search-100k.smi (bench/data/build-search-set.py output)
 *
 * A file ending in .smi is read as `SMILES<TAB>name` lines; otherwise as the LOTUS demo TSV.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { loadRDKit, type Mol } from '../shared/chem/core/rdkit.ts';
import { readMolJson, type MolJson } from '../shared/chem/core/commonchem.ts';
import { rdkitProps, type RDKitProps } from '../shared/chem/descriptors/rdkit-props.ts';

const file = process.argv[2] ?? new URL('../api/catalog/data/lotus_sample_1000.tsv.gz', import.meta.url).pathname;
const text = file.endsWith('.gz') ? gunzipSync(readFileSync(file)).toString('utf8') : readFileSync(file, 'utf8');
let smiles: string[];
if (file.endsWith('.smi')) smiles = text.split('\n').map((l) => l.split('\t')[0]).filter(Boolean);
else {
  const [head, ...rows] = text.split('\n');
  const col = head.split('\t').indexOf('structure_smiles');
  smiles = rows.map((r) => r.split('\t')[col]).filter(Boolean);
}

const rdkit = await loadRDKit();
let compared = 0, outside = 0, unreadable = 0;
const wrong: string[] = [];
const kept: { mol: Mol; json: MolJson }[] = [];
for (const s of smiles) {
  const mol = rdkit.get_mol(s);
  if (!mol?.is_valid()) {
    mol?.delete();
    unreadable++;
    continue;
  }
  const json = readMolJson(mol);
  const js = rdkitProps(rdkit, json);
  if (!js) outside++;
  else {
    compared++;
    const ref = JSON.parse(mol.get_descriptors()) as Record<string, number>;
    const bad = (Object.keys(js) as (keyof RDKitProps)[]).filter((k) => !(Math.abs(js[k] - ref[k]) <= 1e-9));
    if (bad.length) wrong.push(`${s}: ${bad.map((k) => `${k} ${js[k]} vs ${ref[k]}`).join('; ')}`);
  }
  if (kept.length < 2000) kept.push({ mol, json });
  else mol.delete();
}
console.log(`${smiles.length} SMILES from ${file}: ${compared} compared, ${wrong.length} differ, ${outside} outside the domain, ${unreadable} unreadable`);
for (const w of wrong.slice(0, 20)) console.log(`  ${w}`);

const time = (f: (k: { mol: Mol; json: MolJson }) => unknown) => {
  for (const k of kept) f(k);
  const t = performance.now();
  for (let p = 0; p < 3; p++) for (const k of kept) f(k);
  return (((performance.now() - t) / (3 * kept.length)) * 1000).toFixed(0);
};
// get_descriptors() caches its Crippen and TPSA contributions on the molecule: its repeated
// figure is a lower bound of a first call.
console.log(`per molecule (${kept.length} molecules): rdkitProps ${time((k) => rdkitProps(rdkit, k.json))} µs, get_descriptors() ${time((k) => k.mol.get_descriptors())} µs`);
for (const k of kept) k.mol.delete();
process.exit(wrong.length ? 1 : 0);
