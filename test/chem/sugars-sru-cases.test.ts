/**
 * The Sugar Removal Utility authors' own test cases with expected results (transcribed by
 * test/fixtures/scripts/sugars_sru_author_cases.py; provenance in the fixture's `source`).
 * Structures are compared as RDKit canonical SMILES without stereo.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { loadRDKit, type RDKit } from '../../shared/chem/core/rdkit.ts';
import { detectSugars, removeSugars, type SugarOptions } from '../../shared/chem/sugars/sugars.ts';

interface Step { op: 'both' | 'circular' | 'linear' | 'hasLinear' | 'hasCircular'; options: Partial<SugarOptions>; expected: string | boolean; fresh?: boolean }
interface Case { id: string; smiles: string; steps: Step[] }

const rdkit: RDKit = await loadRDKit();
const fixture = JSON.parse(readFileSync(new URL('../fixtures/sugars_sru_author_cases.json', import.meta.url), 'utf8')) as { cases: Case[] };

function flat(smiles: string): string {
  if (smiles === '') return '';
  const mol = rdkit.get_mol(smiles);
  if (!mol) throw new Error(`unreadable SMILES ${smiles}`);
  try { return mol.get_smiles(JSON.stringify({ doIsomericSmiles: false })); } finally { mol.delete(); }
}

let steps = 0;
let agree = 0;
for (const c of fixture.cases) {
  t.test(c.id, async (t) => {
    let current = c.smiles;
    for (const [i, s] of c.steps.entries()) {
      if (s.fresh) current = c.smiles;
      steps++;
      if (s.op === 'hasLinear' || s.op === 'hasCircular') {
        const p = detectSugars(rdkit, current, s.options);
        const got = s.op === 'hasLinear' ? p.hasLinear : p.hasCircular;
        if (got === s.expected) agree++;
        t.equal(got, s.expected, `step ${i}: ${s.op}`);
        continue;
      }
      const r = current === '' ? { found: false, smiles: '' } : removeSugars(rdkit, current, s.op, s.options, s.options);
      const out = r.found ? r.smiles : current;
      const want = s.expected === 'unchanged' ? flat(current) : flat(String(s.expected));
      if (flat(out) === want) agree++;
      t.equal(flat(out), want, `step ${i}: ${s.op} ${JSON.stringify(s.options)}`);
      current = out;
    }
  });
}
t.teardown(() => console.log(`# SRU author cases: ${agree}/${steps} steps as published`));
