/**
 * QED against native RDKit 2022.09.3 rdkit.Chem.QED (fixture made by
 * test/fixtures/scripts/descriptors_reference.py) and the examples RDKit documents from the
 * QED paper.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { loadRDKit, withMol } from '../../shared/chem/core/rdkit.ts';
import { morganGraph } from '../../shared/chem/core/morgan-env.ts';
import { qed, qedFromProperties, qedProperties, type QedProperties } from '../../shared/chem/scores/qed.ts';
import { qedData } from '../../shared/ops/descriptors.tasks.ts';

const rdkit = await loadRDKit();
const data = qedData();

const qedOf = (smiles: string) =>
  withMol(rdkit, smiles, (mol) => qed(rdkit, mol, morganGraph(rdkit, mol), JSON.parse(mol.get_descriptors()), data));

t.test('data file carries the published parameters', async (t) => {
  t.equal(data.alertSmarts.length, 116);
  t.equal(data.acceptorSmarts.length, 11);
  t.same(data.weightMean, [0.66, 0.46, 0.05, 0.61, 0.06, 0.65, 0.48, 0.95]);
});

t.test('QED examples from the paper (RDKit doctest values)', async (t) => {
  t.equal(Math.floor(qedOf('N=C(CCSCc1csc(N=C(N)N)n1)NS(N)(=O)=O') * 1000) / 1000, 0.253);
  t.equal(Math.floor(qedOf('CNC(=NCCSCc1nc[nH]c1C)NC#N') * 1000) / 1000, 0.234);
  t.equal(Math.floor(qedOf('CCCCCNC(=N)NN=Cc1c[nH]c2ccc(CO)cc12') * 1000) / 1000, 0.234);
});

t.test('QED and its eight properties equal RDKit on 300 molecules', async (t) => {
  const lines = readFileSync(new URL('../fixtures/descriptors_reference.tsv', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'));
  const head = lines[0].split('\t');
  const names: (keyof QedProperties)[] = ['MW', 'ALOGP', 'HBA', 'HBD', 'PSA', 'ROTB', 'AROM', 'ALERTS'];
  let maxDev = 0;
  let propMismatch = 0;
  for (const line of lines.slice(1)) {
    const f = line.split('\t');
    const ref = Object.fromEntries(head.map((h, i) => [h, f[i]]));
    const props = withMol(rdkit, ref.smiles, (mol) =>
      qedProperties(rdkit, mol, morganGraph(rdkit, mol), JSON.parse(mol.get_descriptors()), data),
    );
    for (const n of names) {
      if (Math.abs(props[n] - Number(ref[`qed_${n}`])) > 1e-6) {
        propMismatch++;
        t.fail(`${ref.smiles} ${n}: ${props[n]} vs ${ref[`qed_${n}`]}`);
      }
    }
    maxDev = Math.max(maxDev, Math.abs(qedFromProperties(props, data) - Number(ref.qed)));
  }
  t.equal(propMismatch, 0, 'every property identical');
  t.ok(maxDev < 1e-9, `max |QED deviation| ${maxDev}`);
});
