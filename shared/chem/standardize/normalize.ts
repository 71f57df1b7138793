/**
 * ChEMBL's functional-group normalisation (standardizer.normalize_mol): alkali metal–O/N bonds
 * are broken into ions, then RDKit's Normalizer (after MolVS) applies the transform list:
 *  - a rule is applied, and applied again to its product, until it no longer matches (at most
 *    20 times);
 *  - the result counts only if its SMILES has not been produced before in this normalisation
 *    (so a rule that keeps matching its own product, like the diazonium rule on an azide, cannot
 *    loop forever and lets later rules run);
 *  - after a rule has counted, the list starts again from the first rule; the procedure ends
 *    when no rule counts (or after 200 restarts).
 * Where a rule matches in several places the Normalizer applies each site in turn and, if the
 * products differ, keeps the one whose SMILES sorts first; here the first match in RDKit's match
 * order is taken. The two agree whenever the sites do not compete for the same atoms, which is
 * the case for every rule of the table on ordinary structures. The Normalizer also drops products
 * that fail sanitisation (e.g. cannot be kekulised); the rules of the table do not create such
 * products from a valid structure, so that check is not repeated here.
 */
import type { RDKit } from '../core/rdkit.ts';
import { cloneMolfile, type Molfile } from './molfile.ts';
import { substructMatches, withRawMol } from './rdkit.ts';
import { applyRule, type NormalizationRule } from './smirks.ts';

export interface NormalizationTable {
  alkoxideSmarts: string;
  rules: NormalizationRule[];
}

const MAX_RESTARTS = 200;
const MAX_APPLICATIONS = 20;

function breakAlkoxides(rdkit: RDKit, m: Molfile, smarts: string): void {
  const hits = withRawMol(rdkit, m, (mol) => substructMatches(rdkit, mol, smarts));
  for (const [metal, other] of hits) {
    const idx = m.bonds.findIndex((b) => (b.a === metal && b.b === other) || (b.a === other && b.b === metal));
    if (idx < 0) continue;
    m.bonds.splice(idx, 1);
    m.atoms[metal].charge = 1;
    m.atoms[other].charge = -1;
  }
}

const matchOf = (rdkit: RDKit, m: Molfile, rule: NormalizationRule) =>
  withRawMol(rdkit, m, (mol) => substructMatches(rdkit, mol, rule.reactantSmarts, 1))[0];

const smilesOf = (rdkit: RDKit, m: Molfile) => withRawMol(rdkit, m, (mol) => mol.get_smiles());

/** The structure after applying the rule at `match`, then again until it stops matching (at most 20 times). */
function applyRepeatedly(rdkit: RDKit, m: Molfile, rule: NormalizationRule, first: number[]): Molfile {
  const out = cloneMolfile(m);
  let match: number[] | undefined = first;
  for (let n = 0; n < MAX_APPLICATIONS && match; n++) {
    applyRule(out, rule, match);
    match = matchOf(rdkit, out, rule);
  }
  return out;
}

export function normalize(rdkit: RDKit, input: Molfile, table: NormalizationTable): Molfile {
  let m = cloneMolfile(input);
  breakAlkoxides(rdkit, m, table.alkoxideSmarts);
  const seen = new Set<string>();
  for (let restart = 0; restart < MAX_RESTARTS; restart++) {
    // One reading of the structure tells which rules match it now.
    const firstMatches = withRawMol(rdkit, m, (mol) => table.rules.map((r) => substructMatches(rdkit, mol, r.reactantSmarts, 1)[0]));
    let next: Molfile | undefined;
    for (let i = 0; i < table.rules.length && !next; i++) {
      if (!firstMatches[i]) continue;
      const product = applyRepeatedly(rdkit, m, table.rules[i], firstMatches[i]);
      const smiles = smilesOf(rdkit, product);
      if (seen.has(smiles)) continue;
      seen.add(smiles);
      next = product;
    }
    if (!next) return m;
    m = next;
  }
  return m;
}
