/**
 * Worker tasks of the catalog: structure derivation for created or updated molecules, and the
 * thread side of structure search (index rows, range scans, the InChIKey of an exact query).
 * The api never loads RDKit, so it enqueues these and uses what comes back.
 */
import { z } from 'zod';
import type { DeriveInput, DerivedMolecule } from '../chem/catalog/ports.ts';
import { deriveMolecule } from '../chem/catalog/derive.ts';
import { inchikey, molblock2D } from '../chem/convert/convert.ts';
import { indexRows, type RowInput } from '../structure-search/rows.ts';
import { searchFingerprints, type StoredFingerprints } from '../structure-search/fingerprints.ts';
import { withMol, type Mol } from '../chem/core/rdkit.ts';
import { readQuery, scanSimilarity, scanSubstructure, type SimilarityScan, type SubstructureScan } from '../structure-search/scan.ts';
import { AppError } from '../errors.ts';
import type { TaskContext, TaskTable } from './types.ts';

/** Job payloads arrive as untyped JSON (Redis); check them again in the worker. */
const deriveArgs = z.object({ structure: z.string().min(1).max(100_000) });
const molblockArgs = z.object({ smiles: z.array(z.string().max(100_000)).max(1000) });
const queryArgs = z.object({ query: z.string().min(1).max(100_000), query_type: z.enum(['smiles', 'smarts', 'auto']) });

export const catalogTasks: TaskTable = {
  derive_molecule: (args: unknown, ctx: TaskContext): DerivedMolecule => {
    const parsed = deriveArgs.safeParse(args);
    if (!parsed.success) {
      throw new AppError(422, `derive_molecule needs {structure: SMILES or molblock}: ${parsed.error.issues[0]?.message ?? 'invalid'}`, 'invalid_input');
    }
    return deriveMolecule(ctx.rdkit, parsed.data satisfies DeriveInput);
  },

  /** Index rows of catalog molecules (only called by the search index of this process). */
  catalog_index_rows: (args: unknown, ctx: TaskContext) => indexRows(ctx.rdkit, (args as { rows: RowInput[] }).rows),

  /** Search fingerprints of stored molecules that lack them (the backfill at start). */
  catalog_fingerprints: (args: unknown, ctx: TaskContext) => {
    const rows = (args as { rows?: { id: number; smiles: string }[] }).rows ?? [];
    const items: { id: number; fingerprints: StoredFingerprints }[] = [];
    const failed: number[] = [];
    for (const r of rows) {
      try {
        items.push({ id: r.id, fingerprints: withMol(ctx.rdkit, r.smiles, (mol) => searchFingerprints(mol)) });
      } catch (e) {
        if (!AppError.from(e)?.isClientError) throw e;
        failed.push(r.id);
      }
    }
    return { items, failed };
  },

  /** One range of a substructure or similarity scan over the shared index (args carry its buffers). */
  catalog_scan: (args: unknown, ctx: TaskContext) => {
    const a = args as (SubstructureScan | SimilarityScan) & { type: 'substructure' | 'similarity' };
    return a.type === 'similarity' ? scanSimilarity(ctx.rdkit, a as SimilarityScan) : scanSubstructure(ctx.rdkit, a as SubstructureScan);
  },

  /** The standard InChIKey of a structure query (exact search); 422 when it cannot be read. */
  catalog_query_key: (args: unknown, ctx: TaskContext): { inchikey: string } => {
    const parsed = queryArgs.safeParse(args);
    if (!parsed.success) throw new AppError(422, `Invalid structure query: ${parsed.error.issues[0]?.message ?? 'invalid'}`, 'invalid_input');
    if (parsed.data.query_type === 'smarts') throw new AppError(422, 'Exact search takes a SMILES, molblock or InChIKey query, not SMARTS', 'invalid_input');
    const mol = readQuery(ctx.rdkit, parsed.data);
    try {
      const key = inchikey(ctx.rdkit, mol);
      if (!key) throw new AppError(422, 'No InChIKey can be computed for the structure query', 'invalid_input');
      return { inchikey: key };
    } finally {
      mol.delete();
    }
  },

  /**
   * V2000 molblocks with 2D coordinates for catalog exports (SDF): one per SMILES, `null` for a
   * structure that cannot be read (empty, unparseable or too large), so one bad record does not
   * fail the batch.
   */
  catalog_molblocks: (args: unknown, ctx: TaskContext): (string | null)[] => {
    const parsed = molblockArgs.safeParse(args);
    if (!parsed.success) throw new AppError(422, `catalog_molblocks needs {smiles: string[]}: ${parsed.error.issues[0]?.message ?? 'invalid'}`, 'invalid_input');
    return parsed.data.smiles.map((smi) => {
      if (!smi.trim()) return null;
      try {
        return withMol(ctx.rdkit, smi, (mol) => exportMolblock(ctx.rdkit, mol));
      } catch (e) {
        if (!AppError.from(e)?.isClientError) throw e;
        return null;
      }
    });
  },
};

/** Canonical SMILES of a molblock as RDKit reads it back, or null. */
function readBack(rdkit: TaskContext['rdkit'], block: string): string | null {
  const mol = rdkit.get_mol(block);
  try {
    return mol?.is_valid() ? mol.get_smiles() : null;
  } finally {
    mol?.delete();
  }
}

/**
 * A molblock with 2D coordinates that keeps the structure's stereochemistry. RDKit's default
 * depiction can leave a stereocentre without a wedge it can draw (bridged polycycles: a
 * bridgehead of artemisinin's peroxide bridge), and a reader then loses that centre; when the
 * molblock does not read back to the same canonical SMILES, the CoordGen layout (which wedges
 * such systems) is used instead.
 */
function exportMolblock(rdkit: TaskContext['rdkit'], mol: Mol): string {
  const block = molblock2D(mol);
  const want = mol.get_smiles();
  if (readBack(rdkit, block) === want) return block;
  mol.set_new_coords(true);
  const alt = mol.get_molblock();
  return readBack(rdkit, alt) === want ? alt : block;
}
