/**
 * How the catalog uses a derivation (the task `derive_molecule`, whose input and output types are
 * the port shared with the workers, shared/chem/catalog/ports.ts).
 */
import type { DeriveInput, DerivedMolecule } from '../../../shared/chem/catalog/ports.ts';
import { DERIVED_FIELDS } from '../schema/resources.ts';

/**
 * How the catalog obtains a derivation: in the service a `derive_molecule` job on the worker
 * threads; in the import CLI and in tests a direct call. Rejects with a 422 `AppError` for a
 * structure that cannot be read.
 */
export type Derive = (input: DeriveInput) => Promise<DerivedMolecule> | DerivedMolecule;

/**
 * The molecule fields a derivation sets (the fields declared `derived`, by stored name, each when
 * the derivation gives it: `sugar_free_smiles` only with sugar removal), and the structure-search
 * fingerprints; `properties` are written separately.
 */
export function derivedFields(d: DerivedMolecule): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of DERIVED_FIELDS) {
    const v = (d as unknown as Record<string, unknown>)[f];
    if (v !== undefined) out[f] = v;
  }
  if (d.fingerprints) out.fingerprints = d.fingerprints;
  return out;
}
