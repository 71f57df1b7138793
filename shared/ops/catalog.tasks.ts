/**
 * Worker tasks of the catalog: structure derivation for created or updated molecules. The api
 * never loads RDKit, so it enqueues `derive_molecule` and stores what comes back.
 */
import { z } from 'zod';
import type { DeriveInput, DerivedMolecule } from '../catalog/derived.ts';
import { deriveMolecule } from '../chem/derive.ts';
import { AppError } from '../errors.ts';
import type { TaskContext, TaskTable } from './types.ts';

/** Job payloads arrive as untyped JSON (Redis); check them again in the worker. */
const deriveArgs = z.object({ structure: z.string().min(1).max(100_000) });

export const catalogTasks: TaskTable = {
  derive_molecule: (args: unknown, ctx: TaskContext): DerivedMolecule => {
    const parsed = deriveArgs.safeParse(args);
    if (!parsed.success) {
      throw new AppError(422, `derive_molecule needs {structure: SMILES or molblock}: ${parsed.error.issues[0]?.message ?? 'invalid'}`, 'invalid_input');
    }
    return deriveMolecule(ctx.rdkit, parsed.data satisfies DeriveInput);
  },
};
