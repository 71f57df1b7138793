/**
 * Structure family (issue 4): molecules per second of each operation on the fixture molecules,
 * on one thread and on the Piscina pool, then agreement with the committed references, compared
 * as the tests in test/chem/ compare them:
 *  - canonical tautomers vs native RDKit, every row of test/fixtures/tautomer_reference.tsv
 *    (both sides re-canonicalised with MinimalLib, as tautomer.test.ts);
 *  - stereoisomer sets vs native RDKit (stereoisomers_reference.tsv, as stereoisomers.test.ts),
 *    and alkane stereoisomer counts vs OEIS A000628 for C1-C12 (the test stops at C10;
 *    A000628: 345 for C11, 900 for C12; constitutional isomers OEIS A000602: 159, 355);
 *  - SELFIES vs the Python `selfies` 2.2 pairs of selfies_reference_pairs.csv: encoder strings,
 *    decoder strings, and round trips keeping the RDKit InChIKey (as selfies.test.ts).
 * Operations not yet in the registry or the task table are listed as such. Prints figures;
 * asserts nothing.
 *
 *   node --import tsx bench/structure.ts        (env: WORKERS threads, default 2; N molecules per
 *                                                operation, default 200; N3D for the 3D ones, default 12)
 */
import { loadRDKit, type RDKit } from '../shared/chem/core/rdkit.ts';
import { decodeSelfies, encodeSelfies } from '../shared/chem/selfies/selfies.ts';
import { enumerateStereoisomers } from '../shared/chem/stereo/stereoisomers.ts';
import { loadConfig, threadConfig } from '../shared/config.ts';
import { TASKS } from '../shared/ops/tasks.ts';
import type { TaskContext } from '../shared/ops/types.ts';
import { done, header, measure } from './tasks.ts';
import { csv, fixture, tsv } from '../test/helpers/tables.ts';

const N = Number(process.env.N ?? 200);
const N3D = Number(process.env.N3D ?? 12);

const rdkit: RDKit = await loadRDKit();
const ctx: TaskContext = { rdkit, signal: new AbortController().signal, progress: () => {}, config: threadConfig(loadConfig()) };
const canonical = (smiles: string, options = '{}') => {
  const m = rdkit.get_mol(smiles);
  try { return m && m.is_valid() ? m.get_smiles(options) : ''; } finally { m?.delete(); }
};
const inchikey = (smiles: string) => {
  const m = rdkit.get_mol(smiles);
  try { return m && m.is_valid() ? rdkit.get_inchikey_for_inchi(m.get_inchi()) : ''; } finally { m?.delete(); }
};
const pct = (a: number, b: number) => `${a}/${b} (${((100 * a) / b).toFixed(1)}%)`;

const tautomerRows = tsv(fixture('tautomer_reference.tsv'));
const stereoRows = tsv(fixture('stereoisomers_reference.tsv'));
const similarityRows = tsv(fixture('similarity_reference.tsv'));
const selfiesRows = csv(fixture('selfies_reference_pairs.csv'));
const lotus = [...new Set(tautomerRows.map((r) => r.smiles))];

const molblock = (smiles: string) => {
  const m = rdkit.get_mol(smiles);
  try { return m!.get_molblock(); } finally { m?.delete(); }
};

await header(`Structure operations: throughput (${N} molecules per operation at most, ${N3D} for 3D)`);
await measure('enumerate_stereoisomers', stereoRows.slice(0, N).map((r) => ({ smiles: r.smiles })));
await measure('standardize_tautomer', lotus.slice(0, N).map((smiles) => ({ smiles })));
await measure('generate_bitsimilarity_similarity', similarityRows.slice(0, N).map((r) => ({
  smiles: `${r.smiles1},${r.smiles2}`, fingerprinter: r.fingerprinter, nBits: r.nBits, radius: r.radius,
})), 'generate_bitsimilarity_similarity (pairs)');
await measure('generate_3d_coordinates', stereoRows.slice(0, N3D).map((r) => ({ smiles: r.smiles })));
await measure('depict_3d_molecule_depict_3D_get', stereoRows.slice(0, N3D).map((r) => ({ smiles: r.smiles })));
await measure('generate_selfies', selfiesRows.filter((r) => r.selfies).slice(0, N).map((r) => ({ smiles: r.smiles })));
await measure('standardize_molblock', lotus.slice(0, N).map((s) => ({ molblock: molblock(s) })));
await measure('check_errors', lotus.slice(0, N).map((smiles) => ({ smiles })));
await done();

console.log('\nAgreement with the committed references');

{
  // Canonical tautomers: the task's answer and native RDKit's, both as MinimalLib canonical SMILES.
  let same = 0;
  let failed = 0;
  for (const r of tautomerRows) {
    try {
      const mine = TASKS.standardize_tautomer({ smiles: r.smiles }, ctx) as string;
      if (canonical(mine) === canonical(r.canonical_tautomer)) same++;
    } catch {
      failed++;
    }
  }
  console.log(`canonical tautomer identical to native RDKit 2022.09.3: ${pct(same, tautomerRows.length)}${failed ? `, ${failed} refused` : ''}`);
}

{
  // Native 2022.09 enumerates no E/Z inside rings of 8 or more: a larger set that reduces to the
  // reference without double-bond marks is counted apart, as the test accepts it.
  const withoutEZ = (list: string[]) => [...new Set(list.map((s) => canonical(s.replace(/[/\\]/g, ''))))].sort();
  let same = 0;
  let onlyEZ = 0;
  const differ: string[] = [];
  for (const r of stereoRows) {
    const ref = [...new Set(r.isomers.split(' ').map((s) => canonical(s)))].sort();
    const got = enumerateStereoisomers(rdkit, r.smiles).isomers;
    if (JSON.stringify(got) === JSON.stringify(ref)) same++;
    else if (got.length > ref.length && /=/.test(r.smiles) && JSON.stringify(withoutEZ(got)) === JSON.stringify(withoutEZ(ref))) onlyEZ++;
    else differ.push(`${r.smiles} (${got.length} vs ${ref.length})`);
  }
  console.log(`stereoisomer sets identical to native RDKit: ${pct(same, stereoRows.length)}; larger only by macrocycle E/Z: ${onlyEZ}; different: ${differ.length}`);
  for (const d of differ) console.log(`  differs: ${d}`);
}

/** Every alkane skeleton with n carbons as canonical SMILES, grown one carbon at a time. */
function alkanes(n: number): string[] {
  // A tree is a parent list (parent[0] = -1); written depth-first from atom 0.
  const write = (parent: number[], at: number): string => {
    const kids = parent.flatMap((p, i) => (p === at ? [write(parent, i)] : []));
    return 'C' + kids.slice(0, -1).map((k) => `(${k})`).join('') + (kids.at(-1) ?? '');
  };
  let level = new Map<string, number[]>([['C', [-1]]]);
  for (let size = 2; size <= n; size++) {
    const next = new Map<string, number[]>();
    for (const parent of level.values()) {
      for (let i = 0; i < parent.length; i++) {
        const degree = parent.filter((p) => p === i).length + (parent[i] >= 0 ? 1 : 0);
        if (degree >= 4) continue;
        const grown = [...parent, i];
        const key = canonical(write(grown, 0));
        if (!next.has(key)) next.set(key, grown);
      }
    }
    level = next;
  }
  return [...level.keys()];
}

{
  const A000602 = [1, 1, 1, 2, 3, 5, 9, 18, 35, 75, 159, 355];
  const A000628 = [1, 1, 1, 2, 3, 5, 11, 24, 55, 136, 345, 900];
  const rows: string[] = [];
  let ok = 0;
  for (let n = 1; n <= A000628.length; n++) {
    const skeletons = alkanes(n);
    const total = skeletons.reduce((sum, s) => sum + enumerateStereoisomers(rdkit, s).isomers.length, 0);
    const good = skeletons.length === A000602[n - 1] && total === A000628[n - 1];
    if (good) ok++;
    rows.push(`C${n} ${total}${good ? '' : ` (OEIS ${A000628[n - 1]}, skeletons ${skeletons.length}/${A000602[n - 1]})`}`);
  }
  console.log(`alkane stereoisomer counts equal to OEIS A000628: ${ok}/${A000628.length}: ${rows.join(', ')}`);
}

{
  const encoded = selfiesRows.filter((r) => r.selfies);
  const refused = selfiesRows.filter((r) => !r.selfies);
  let sameEncoding = 0;
  let sameDecoding = 0;
  let refusedToo = 0;
  let tried = 0;
  let sameKey = 0;
  for (const r of encoded) {
    let mine = '';
    try { mine = encodeSelfies(r.smiles); } catch { /* counted as different */ }
    if (mine === r.selfies) sameEncoding++;
    if (decodeSelfies(r.selfies) === r.decoded_smiles) sameDecoding++;
    const before = inchikey(r.smiles);
    if (!before || !mine) continue; // RDKit cannot read it, or nothing to decode
    tried++;
    if (inchikey(decodeSelfies(mine)) === before) sameKey++;
  }
  for (const r of refused) {
    try { encodeSelfies(r.smiles); } catch (e) { if ((e as Error).name === 'SelfiesError') refusedToo++; }
  }
  console.log(`SELFIES encoder identical to selfies 2.2: ${pct(sameEncoding, encoded.length)}; refusals shared: ${refusedToo}/${refused.length}`);
  console.log(`SELFIES decoder identical to selfies 2.2: ${pct(sameDecoding, encoded.length)}`);
  console.log(`SELFIES round trips with the same RDKit InChIKey (reference pairs RDKit reads): ${pct(sameKey, tried)}`);
  let lotusTried = 0;
  let lotusSame = 0;
  for (const s of lotus) {
    const before = inchikey(s);
    if (!before) continue;
    lotusTried++;
    try { if (inchikey(decodeSelfies(encodeSelfies(s))) === before) lotusSame++; } catch { /* a miss */ }
  }
  console.log(`SELFIES round trips with the same RDKit InChIKey (LOTUS sample): ${pct(lotusSame, lotusTried)}`);
}
