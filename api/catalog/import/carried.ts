/**
 * Rows that carry their own derivation (natprod's full dump: InChI, InChIKey, canonical SMILES,
 * sugar-free SMILES, stereo flag, framework and every property column) are loaded without
 * deriving them again: deriving is nearly all of an import's work (about 4 ms of RDKit a
 * molecule), and a file natprod wrote holds exactly what natprod would derive. Only the search
 * fingerprints, which no file carries, are computed (a fraction of a derivation).
 *
 * Trust is checked, not assumed: the first carried row and then one in `every` are derived as
 * usual and compared with what the file says (identity fields exactly, numbers to 1e-6 relative).
 * A sample that disagrees (another natprod version, an edited file) is a warning naming the row
 * and the fields, the row takes the fresh derivation, and so does every row whose derivation
 * starts after it: the rest of the file is derived in full. `every` = 1 derives every row.
 */
import type { DerivedMolecule } from '../../../shared/chem/catalog/ports.ts';
import type { Derived } from './derive-cache.ts';
import { AppError } from '../../../shared/errors.ts';
import type { StoredFingerprints } from '../../../shared/chem/catalog/fingerprints.ts';
import { mergeProperties, type PropertyValue } from './coconut.ts';

/** Carried rows per sampled one, by default. */
export const SAMPLE_EVERY = 100;

/** The import summary's counts (absent until a row carries a derivation). */
export interface CarriedCounts {
  /** Rows loaded with the file's own derivation (sampled ones included). */
  carried?: number;
  /** Of those, rows derived again to check the file. */
  sampled?: number;
}

/**
 * Where a file's derivation and a fresh one part, so that the row would be stored otherwise if it
 * were derived: the structure's fields exactly; the properties by the rule an import of a derived
 * row applies (coconut.ts `mergeProperties`: a class label the file gives is taken, a number within
 * its tolerance keeps the file's value), and a property the file leaves empty where natprod gives one.
 */
export function derivationDiffers(file: DerivedMolecule, fresh: DerivedMolecule): string[] {
  const differ: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  for (const k of ['standard_inchi_key', 'standard_inchi', 'canonical_smiles', 'has_stereo', 'murcko_framework'] as const) {
    if (!same(file[k], fresh[k])) differ.push(`${k}: file ${JSON.stringify(file[k] ?? null)}, derived ${JSON.stringify(fresh[k] ?? null)}`);
  }
  // Only a derivation that ran sugar removal says what it gives.
  if (fresh.sugar_free_smiles !== undefined && !same(file.sugar_free_smiles, fresh.sugar_free_smiles)) {
    differ.push(`sugar_free_smiles: file ${JSON.stringify(file.sugar_free_smiles ?? null)}, derived ${JSON.stringify(fresh.sugar_free_smiles)}`);
  }
  const given = Object.entries(file.properties as unknown as Record<string, PropertyValue>);
  differ.push(...mergeProperties({ ...fresh.properties }, Object.fromEntries(given.filter(([, v]) => v !== null))).differ);
  for (const [k, v] of given) {
    const mine = (fresh.properties as unknown as Record<string, unknown>)[k];
    if (v === null && mine !== null && mine !== undefined) differ.push(`${k}: file empty, derived ${JSON.stringify(mine)}`);
  }
  return differ;
}

export class CarriedRows {
  private trusted: boolean;
  private seen = 0;

  constructor(
    private readonly every: number,
    private readonly counts: CarriedCounts,
    private readonly derive: (structure: string) => Promise<Derived>,
    private readonly fingerprints: (smiles: string) => Promise<StoredFingerprints | null | undefined>,
    private readonly warn: (row: number, message: string) => void,
  ) {
    this.trusted = every > 1;
  }

  /**
   * The derivation of a row that carries one, started now (rows come in file order): the file's,
   * with fingerprints, or a fresh one for a sampled row; undefined once the file is not trusted
   * (the caller derives the row as any other).
   */
  start(row: number, structure: string, file: DerivedMolecule): Promise<Derived> | undefined {
    if (!this.trusted) return undefined;
    const n = this.seen++;
    this.counts.carried = (this.counts.carried ?? 0) + 1;
    this.counts.sampled ??= 0;
    if (n % this.every === 0) {
      this.counts.sampled++;
      return this.derive(structure).then((fresh) => {
        if (fresh instanceof AppError) return fresh;
        const differ = derivationDiffers(file, fresh);
        if (differ.length && this.trusted) {
          this.trusted = false;
          this.warn(
            row,
            `the file's derivation differs from natprod's (${differ.join('; ')}): this row and the rows read from here on are derived again ` +
              `(${this.counts.carried! - 1} rows before it were loaded as the file gives them, ${this.counts.sampled} checked)`,
          );
        }
        return fresh;
      });
    }
    return this.fingerprints(file.canonical_smiles).then((fp) => {
      // A structure RDKit cannot read is not what natprod wrote: derived, it is rejected with the reason.
      if (fp === null) return this.derive(structure);
      return fp ? { ...file, fingerprints: fp } : file;
    });
  }
}
