/**
 * The query type when a request names none, tested in COCONUT's order (its SearchMolecule
 * action): CNP identifier, InChI, InChIKey, first block of an InChIKey, molecular formula,
 * SMILES, InChI without its prefix, and otherwise text. Two tests are stricter than COCONUT's,
 * which sent common words to the wrong search (docs/differences.md): a formula must consist of
 * real element symbols, each once (`Hi`, `DMSO`, `CCO` are not formulas), and a prefix-less InChI
 * must start with its version layer (`1S/`), where COCONUT took words such as `ethanol` for InChI.
 * natprod also reads a molblock (a query holding `M  END`) as a structure.
 */
import { isFormula } from './coconut/formula.ts';

export type DetectedType = 'identifier' | 'inchi' | 'inchikey' | 'partialinchikey' | 'molecularformula' | 'smiles' | 'text';

/** COCONUT's SMILES test: not starting with J, at least 7 characters of SMILES's alphabet. */
const SMILES = /^[^J][0-9BCOHNSOPrIFla@+\-[\]()\\/%=#$]{6,}$/i;
const INCHI_BODY = /^1S?\/[0-9BCOHNSOPrIFla+\-()\\/,pqbtmsih]+$/i;

export function detectType(query: string): DetectedType {
  if (query.startsWith('CNP')) return 'identifier';
  if (query.startsWith('InChI=')) return 'inchi';
  if (query.length === 27 && query[14] === '-' && /^[A-Z0-9-]+$/.test(query)) return 'inchikey';
  if (query.length === 14 && /^[A-Z]+$/.test(query)) return 'partialinchikey';
  if (isFormula(query)) return 'molecularformula';
  if (/^M {2}END$/m.test(query) || /\bV[23]000\b/.test(query)) return 'smiles';
  if (SMILES.test(query)) return 'smiles';
  if (INCHI_BODY.test(query)) return 'inchi';
  return 'text';
}
