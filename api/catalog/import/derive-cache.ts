/**
 * Bounded memo of derivations for one import. LOTUS files repeat a structure once per
 * organism/reference, and rows are derived ahead of the one being written, so the memo keeps the
 * promise: a structure that is already being derived is not sent to a worker a second time.
 */
import { AppError } from '../../../shared/errors.ts';
import type { DerivedMolecule } from '../../../shared/chem/catalog/ports.ts';
import type { Derive } from '../mutate/derived.ts';

/** A derivation, or the client error (unparsable structure) that rejects the row. */
export type Derived = DerivedMolecule | AppError;

export class DeriveCache {
  private readonly map = new Map<string, Promise<Derived>>();

  constructor(
    private readonly derive: Derive,
    private readonly max = 5000,
  ) {}

  get(structure: string): Promise<Derived> {
    const hit = this.map.get(structure);
    if (hit) return hit;
    const value = this.run(structure);
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value!);
    this.map.set(structure, value);
    // Nobody may await a prefetched entry before a later failure ends the import.
    value.catch(() => undefined);
    return value;
  }

  private async run(structure: string): Promise<Derived> {
    try {
      return await this.derive({ structure });
    } catch (err) {
      // Only a bad structure rejects the row; an infrastructure fault (worker gone) ends the import.
      const app = AppError.from(err);
      if (!app || !app.isClientError) throw err;
      return app;
    }
  }
}
