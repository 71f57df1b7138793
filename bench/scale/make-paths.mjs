// Request lists for the scaling and capacity benchmarks: N distinct LOTUS SMILES (CC0, the demo
// files the repository ships in api/catalog/data/), one request per line, shuffled with a fixed
// seed so that consecutive requests ask for different molecules.
//   node bench/scale/make-paths.mjs [N=2000] [outdir=.]
// Writes paths-<route>.txt for canonical, inchikey, descriptors (GET lines: a path) and similarity
// (POST lines: "POST <path> <json body>", read by paths.lua).
import { gunzipSync } from 'node:zlib';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DATA = fileURLToPath(new URL('../../api/catalog/data/', import.meta.url));
const n = Number(process.argv[2] ?? 2000);
const out = process.argv[3] ?? '.';

function column(file, name) {
  const [head, ...rows] = gunzipSync(readFileSync(DATA + file)).toString('utf8').split('\n');
  const i = head.split('\t').indexOf(name);
  if (i < 0) throw new Error(`${file} has no column ${name}`);
  return rows.map((r) => (r.split('\t')[i] ?? '').trim()).filter(Boolean);
}

const seen = new Set([
  ...column('lotus_sample_1000.tsv.gz', 'structure_smiles'),
  ...column('lotus_manually_validated_413.tsv.gz', 'structureCleanedSmiles'),
  ...column('lotus_sample_1000.tsv.gz', 'structure_smiles_2D'),
]);
const smiles = [...seen];
// Fisher-Yates with a small fixed-seed generator (mulberry32), so every run sends the same order
let s = 20261127;
const rand = () => {
  s = (s + 0x6d2b79f5) | 0;
  let t = Math.imul(s ^ (s >>> 15), 1 | s);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
for (let i = smiles.length - 1; i > 0; i--) {
  const j = Math.floor(rand() * (i + 1));
  [smiles[i], smiles[j]] = [smiles[j], smiles[i]];
}
const pick = smiles.slice(0, n);
const q = encodeURIComponent;
const routes = {
  canonical: (m) => `/latest/convert/canonicalsmiles?smiles=${q(m)}&toolkit=rdkit`,
  inchikey: (m) => `/latest/convert/inchikey?smiles=${q(m)}&toolkit=rdkit`,
  descriptors: (m) => `/latest/chem/descriptors?smiles=${q(m)}`,
  similarity: (m) => `POST /api/search ${JSON.stringify({ type: 'similarity', query: m, limit: 10 })}`,
};
mkdirSync(out, { recursive: true });
for (const [name, line] of Object.entries(routes)) writeFileSync(`${out}/paths-${name}.txt`, pick.map(line).join('\n') + '\n');
console.log(`${seen.size} distinct LOTUS SMILES; ${pick.length} written per route to ${out}`);
