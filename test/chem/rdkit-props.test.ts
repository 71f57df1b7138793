/**
 * RDKit's descriptors computed in JavaScript (shared/chem/descriptors/rdkit-props.ts) against
 * RDKit's own values: MinimalLib's `get_descriptors()` on the same molecule. Every key, every
 * molecule of the LOTUS demo sets and a set of edge cases (charges, isotopes, [nH], N-oxides,
 * amides, CF3 and tert-butyl ends, three-membered rings, triple bonds, sulfur and phosphorus
 * acids). The JavaScript SMARTS matcher it uses is also checked against RDKit's matcher on the
 * QED acceptor and alert SMARTS. (Once, outside the suite: 100,000 molecules of
 * bench/data/build-search-set.py, 0 differences, 189 outside the domain.)
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import t from 'tap';
import { loadRDKit, type Mol } from '../../shared/chem/core/rdkit.ts';
import { readMolJson } from '../../shared/chem/core/commonchem.ts';
import { matchGraph } from '../../shared/chem/core/match-graph.ts';
import { compileSmarts, countUniqueMatches } from '../../shared/chem/core/smarts-match.ts';
import { rdkitProps, type RDKitProps } from '../../shared/chem/descriptors/rdkit-props.ts';
import { qedData } from '../../shared/chem/core/tables.ts';

const rdkit = await loadRDKit();

const lotus = (file: string, column: string) => {
  const [head, ...rows] = gunzipSync(readFileSync(new URL(`../../api/catalog/data/${file}`, import.meta.url))).toString('utf8').split('\n');
  const col = head.split('\t').indexOf(column);
  return rows.map((r) => r.split('\t')[col]).filter((s) => s);
};

const EDGE_CASES = [
  'C[N+](C)(C)C', 'CC(=O)[O-]', '[NH3+]CC(=O)[O-]', 'c1cc[nH]c1', 'c1ncc[nH]1', 'O=c1cc[nH]cc1', 'C[n+]1ccccc1',
  '[O-][n+]1ccccc1', 'O=[N+]([O-])c1ccccc1', 'CC(=O)NC', 'CC(=O)N(C)C', 'NC(=O)c1ccccc1', 'CC(C)(C)c1ccccc1',
  'FC(F)(F)CC', 'ClC(Cl)(Cl)CC', 'C1CO1', 'C1CN1', 'C1CN1C', 'CC#N', 'C#CC', 'CC#CC(C)O', 'OS(=O)(=O)c1ccccc1',
  'OP(=O)(O)OCC', 'CS(C)=O', 'C[S+](C)[O-]', '[13CH3]CO', 'C[15NH2]', 'CC(=O)OC1=CC=CC=C1C(=O)O',
  'C1=CC=C2C(=C1)C=CC=C2', 'O=C1NC(=O)c2ccccc21', 'c1ccc2[nH]ccc2c1', 'N=C(N)N', 'C=CC=O', 'OCC=C(C)C', 'Br/C=C/I',
  'CC[Se]CC', 'c1cc[se]c1', '[Na+].[Cl-]', 'CN=C=O', 'N#[N+][N-]', 'CC(=O)C(=O)O', 'OB(O)c1ccccc1', 'C[Si](C)(C)O',
];

/** The keys of get_descriptors() that differ from the JavaScript values (beyond 1e-9). */
function differences(mol: Mol): string[] | undefined {
  const js = rdkitProps(rdkit, readMolJson(mol));
  if (!js) return undefined;
  const ref = JSON.parse(mol.get_descriptors()) as Record<string, number>;
  return (Object.keys(js) as (keyof RDKitProps)[])
    .filter((k) => !(Math.abs(js[k] - ref[k]) <= 1e-9))
    .map((k) => `${k} ${js[k]} vs ${ref[k]}`);
}

function compare(t: { same: (a: unknown, b: unknown, m: string) => unknown }, smiles: string[], label: string) {
  let checked = 0, outside = 0;
  const wrong: string[] = [];
  for (const s of smiles) {
    const mol = rdkit.get_mol(s);
    if (!mol) continue;
    try {
      if (!mol.is_valid()) continue;
      const d = differences(mol);
      if (d === undefined) outside++;
      else {
        checked++;
        if (d.length > 0) wrong.push(`${s}: ${d.join('; ')}`);
      }
    } finally {
      mol.delete();
    }
  }
  t.same(wrong, [], `${label}: all ${checked} molecules equal RDKit on every key (${outside} outside the domain)`);
  return checked;
}

t.test('equal to get_descriptors() on the LOTUS demo molecules', async (t) => {
  const n = compare(t, lotus('lotus_sample_1000.tsv.gz', 'structure_smiles'), 'lotus_sample_1000');
  t.ok(n >= 990, `${n} molecules compared`);
  compare(t, lotus('lotus_manually_validated_413.tsv.gz', 'structureCleanedSmiles'), 'lotus_manually_validated_413');
});

t.test('equal to get_descriptors() on edge cases', async (t) => {
  const n = compare(t, EDGE_CASES, 'edge cases');
  t.ok(n >= EDGE_CASES.length - 1, `${n} of ${EDGE_CASES.length} inside the domain`);
});

t.test('molecules outside the checked domain are left to MinimalLib', async (t) => {
  for (const s of ['[CH3]', '*CC', '[H][H]', 'C[H] |$;_R1$|']) {
    const mol = rdkit.get_mol(s, JSON.stringify({ removeHs: false }));
    if (!mol) continue;
    try {
      t.equal(rdkitProps(rdkit, readMolJson(mol)), undefined, `${s}: undefined`);
    } finally {
      mol.delete();
    }
  }
});

t.test('the SMARTS matcher counts as RDKit does (QED acceptors and alerts)', async (t) => {
  const data = qedData();
  const patterns = [...data.acceptorSmarts, ...data.alertSmarts];
  const smiles = lotus('lotus_sample_1000.tsv.gz', 'structure_smiles').slice(0, 150).concat(EDGE_CASES);
  let compared = 0, skipped = 0;
  const wrong: string[] = [];
  const queries = patterns.map((p) => {
    try {
      return compileSmarts(p);
    } catch {
      skipped++;
      return undefined;
    }
  });
  for (const s of smiles) {
    const mol = rdkit.get_mol(s);
    if (!mol) continue;
    try {
      const g = matchGraph(readMolJson(mol));
      patterns.forEach((p, i) => {
        const q = queries[i];
        if (!q) return;
        const qmol = rdkit.get_qmol(p)!;
        try {
          // MinimalLib answers "{}" when there is no match.
          const found = JSON.parse(mol.get_substruct_matches(qmol)) as unknown;
          const ref = Array.isArray(found) ? found.length : 0;
          const js = countUniqueMatches(q, g);
          compared++;
          if (js !== ref) wrong.push(`${p} on ${s}: ${js} vs ${ref}`);
        } finally {
          qmol.delete();
        }
      });
    } finally {
      mol.delete();
    }
  }
  t.same(wrong.slice(0, 20), [], `${compared} counts equal (${wrong.length} differ)`);
  t.equal(skipped, 0, `all ${patterns.length} SMARTS compiled`);
});
