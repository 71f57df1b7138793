/**
 * Reading a chemical identifier the way the original service did (docs/spec/chem-service.md §2.1 (15)): one function
 * decides which PUG-REST request resolves it, a second, simpler one labels it for the answer
 * (`input_type`). They disagree on purpose, as upstream: formulas and SMILES are resolved as
 * such but labelled `name`.
 */

export type Route =
  | { kind: 'cid'; cid: string }
  | { kind: 'inchi'; inchi: string }
  | { kind: 'inchikey'; key: string }
  | { kind: 'formula'; formula: string }
  | { kind: 'smiles'; smiles: string }
  | { kind: 'name'; name: string };

export type InputType = 'CID' | 'InChI' | 'InChIKey' | 'CAS' | 'name';

const INCHIKEY = /^[A-Z0-9]{14}-[A-Z0-9]{10}-[A-Z0-9]$/;
const CAS = /^\d{2,7}-\d{2}-\d$/;
const FORMULA = /^(?:[A-Z][a-z]?\d+)+$/;
/** Short strings made only of these characters are tried as SMILES. */
const SMILES_CHARS = /^(?:Cl|Br|[CHONSPFI0-9@+\-\\/])+$/;

/** Which request resolves the (trimmed) identifier. */
export function routeOf(identifier: string): Route {
  const id = identifier.trim();
  if (/^\d+$/.test(id)) return { kind: 'cid', cid: id };
  if (id.startsWith('InChI=')) return { kind: 'inchi', inchi: id };
  if (INCHIKEY.test(id)) return { kind: 'inchikey', key: id };
  // A CAS number is looked up as a name: PUG-REST resolves registry numbers through synonyms.
  if (CAS.test(id)) return { kind: 'name', name: id };
  if (FORMULA.test(id)) return { kind: 'formula', formula: id };
  if (!/\s/.test(id) && id.length <= 10 && SMILES_CHARS.test(id)) return { kind: 'smiles', smiles: id };
  return { kind: 'name', name: id };
}

/** The label reported in the answer. */
export function inputTypeOf(identifier: string): InputType {
  const id = identifier.trim();
  if (/^\d+$/.test(id)) return 'CID';
  if (id.startsWith('InChI=')) return 'InChI';
  if (id.length === 27 && id[14] === '-' && id[25] === '-' && /^[A-Z0-9-]+$/.test(id)) return 'InChIKey';
  if (id.includes('-') && (id.match(/\d/g)?.length ?? 0) > 5) return 'CAS';
  return 'name';
}
