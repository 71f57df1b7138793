/**
 * How the catalog uses a derivation (the task `derive_molecule`, whose input and output types are
 * the port shared with the workers, shared/chem/catalog/ports.ts).
 */
import type { DeriveInput, DerivedMolecule } from '../../shared/chem/catalog/ports.ts';

/**
 * How the catalog obtains a derivation: in the service a `derive_molecule` job on the worker
 * threads; in the import CLI and in tests a direct call. Rejects with a 422 `AppError` for a
 * structure that cannot be read.
 */
export type Derive = (input: DeriveInput) => Promise<DerivedMolecule> | DerivedMolecule;

/** The molecule fields a derivation sets (stored names); `properties` are written separately. */
export function derivedFields(d: DerivedMolecule): Record<string, unknown> {
  return {
    standard_inchi: d.standard_inchi,
    standard_inchi_key: d.standard_inchi_key,
    canonical_smiles: d.canonical_smiles,
    has_stereo: d.has_stereo,
    murcko_framework: d.murcko_framework,
    ...(d.sugar_free_smiles !== undefined ? { sugar_free_smiles: d.sugar_free_smiles } : {}),
    ...(d.fingerprints ? { fingerprints: d.fingerprints } : {}),
  };
}
