/**
 * Worker tasks of the catalog: structure derivation for created or updated molecules, and the
 * thread side of structure search (index rows, range scans, the InChIKey of an exact query).
 * The api never loads RDKit, so it enqueues these and uses what comes back.
 */
import { z } from 'zod';
import type { DeriveInput, DerivedMolecule } from '../chem/catalog/ports.ts';
import { deriveMolecule } from '../chem/catalog/derive.ts';
import { inchikey, molblock2D } from '../chem/convert/convert.ts';
import { indexRows } from '../structure-search/rows.ts';
import { searchFingerprints, type StoredFingerprints } from '../chem/catalog/fingerprints.ts';
import { rdkitFault, withMol, type Mol } from '../chem/core/rdkit.ts';
import { scanFirstHits, scanSimilarity, scanSubstructure } from '../structure-search/scan.ts';
import { readQuery } from '../structure-search/query.ts';
import { AppError } from '../errors.ts';
import { internalTask, internalTasks } from './task-args.ts';
import type { TaskContext, TaskTable } from './types.ts';

const structure = z.string().max(100_000);
const queryType = z.enum(['smiles', 'smarts', 'auto']);
/** A row's stored SMILES; a missing one becomes '' and the row is reported unreadable (indexRows). */
const rowSmiles = z.unknown().transform((v) => (typeof v === 'string' ? v : ''));
const buffer = z.instanceof(SharedArrayBuffer);
/** The shared index (shared/structure-search/columns.ts IndexView): its buffers travel by reference. */
const indexView = z.object({
  count: z.number().int().nonnegative(),
  ids: buffer,
  alive: buffer,
  pattern: buffer,
  morganStart: buffer,
  morganLen: buffer,
  morganHeap: buffer,
  pickleStart: buffer,
  pickleLen: buffer,
  pickleHeap: buffer,
});
const range = { query: structure, query_type: queryType, index: indexView, from: z.number().int().nonnegative(), to: z.number().int().nonnegative() };
const similarityScan = z.object({ ...range, threshold: z.number() });
const substructureScan = z.object({ ...range, use_chirality: z.boolean(), scores: z.boolean().optional() });
/** One lane of a first page's window, and the board the lanes share (shared/structure-search/board.ts). */
const firstHitsScan = z
  .object({ ...range, use_chirality: z.boolean(), need: z.number().int().positive(), lane: z.number().int().nonnegative(), lanes: z.number().int().positive(), board: buffer })
  .refine((a) => a.lane < a.lanes && a.board.byteLength >= 4 * (2 * a.lanes + a.lanes * a.need), 'the board does not fit the lanes and hits');

export const catalogTasks = internalTasks({
  /** Identifiers, properties and framework of a created or updated molecule (api/services.ts `derive`). */
  derive_molecule: internalTask(z.object({ structure: structure.min(1) }), (a, ctx) => deriveMolecule(ctx.rdkit, a satisfies DeriveInput)),

  /**
   * Derivations of a chunk of structures (catalog imports, api/catalog/import/): one per
   * structure, in order, each a DerivedMolecule or `{error}` naming why the structure cannot be
   * read, so one bad row does not fail its chunk. A WebAssembly fault fails the whole chunk (the
   * thread's RDKit cannot be trusted after it): the importer then derives that chunk's structures
   * one task each, so only the structure that faults is rejected.
   */
  derive_molecules: internalTask(z.object({ structures: z.array(structure).max(1000) }), (a, ctx): (DerivedMolecule | { error: string })[] =>
    a.structures.map((s) => {
      try {
        if (!s.trim()) throw new AppError(422, 'The structure is empty', 'invalid_input');
        return deriveMolecule(ctx.rdkit, { structure: s });
      } catch (e) {
        const app = AppError.from(e);
        if (!app?.isClientError || rdkitFault()) throw e;
        return { error: typeof app.detail === 'string' ? app.detail : JSON.stringify(app.detail) };
      }
    }),
  ),

  /** Index rows of catalog molecules (only called by the search index of this process). */
  catalog_index_rows: internalTask(
    z.object({ rows: z.array(z.object({ id: z.number().int(), smiles: rowSmiles, fingerprints: z.unknown().optional() })) }),
    (a, ctx) => indexRows(ctx.rdkit, a.rows),
  ),

  /** Search fingerprints of stored molecules that lack them (the backfill at start). */
  catalog_fingerprints: internalTask(
    z.object({ rows: z.array(z.object({ id: z.number().int(), smiles: z.string() })).default([]) }),
    (a, ctx) => {
      const items: { id: number; fingerprints: StoredFingerprints }[] = [];
      const failed: number[] = [];
      for (const r of a.rows) {
        try {
          items.push({ id: r.id, fingerprints: withMol(ctx.rdkit, r.smiles, (mol) => searchFingerprints(mol)) });
        } catch (e) {
          if (!AppError.from(e)?.isClientError) throw e;
          failed.push(r.id);
        }
      }
      return { items, failed };
    },
  ),

  /** One range of a similarity scan over the shared index (args carry its buffers). */
  catalog_scan_similarity: internalTask(similarityScan, (a, ctx) => scanSimilarity(ctx.rdkit, a)),

  /** One range of a substructure scan over the shared index, every hit (args carry its buffers). */
  catalog_scan_substructure: internalTask(substructureScan, (a, ctx) => scanSubstructure(ctx.rdkit, a)),

  /** One lane of a first page's window: the threads share its earliest candidates (board.ts). */
  catalog_scan_first_hits: internalTask(firstHitsScan, (a, ctx) => scanFirstHits(ctx.rdkit, a)),

  /** The standard InChIKey of a structure query (exact search); 422 when it cannot be read. */
  catalog_query_key: internalTask(z.object({ query: structure.min(1), query_type: queryType }), (a, ctx): { inchikey: string } => {
    if (a.query_type === 'smarts') throw new AppError(422, 'Exact search takes a SMILES, molblock or InChIKey query, not SMARTS', 'invalid_input');
    const mol = readQuery(ctx.rdkit, a);
    try {
      const key = inchikey(ctx.rdkit, mol);
      if (!key) throw new AppError(422, 'No InChIKey can be computed for the structure query', 'invalid_input');
      return { inchikey: key };
    } finally {
      mol.delete();
    }
  }),

  /**
   * Standard InChIKeys of SMILES for bulk look-ups (api/catalog/lookup/): one per SMILES, computed
   * as for an exact structure query (catalog_query_key), `null` for a SMILES that cannot be read
   * (empty, unparseable, too large) or has no InChIKey, so one bad line does not fail the batch.
   */
  catalog_inchikeys: internalTask(z.object({ smiles: z.array(structure).max(1000) }), (a, ctx): (string | null)[] =>
    a.smiles.map((smi) => {
      if (!smi.trim() || smi.includes('\n')) return null;
      try {
        return withMol(ctx.rdkit, smi, (mol) => inchikey(ctx.rdkit, mol));
      } catch (e) {
        if (!AppError.from(e)?.isClientError) throw e;
        return null;
      }
    }),
  ),

  /**
   * V2000 molblocks with 2D coordinates for catalog exports (SDF): one per SMILES, `null` for a
   * structure that cannot be read (empty, unparseable or too large), so one bad record does not
   * fail the batch.
   */
  catalog_molblocks: internalTask(z.object({ smiles: z.array(structure).max(1000) }), (a, ctx): (string | null)[] =>
    a.smiles.map((smi) => {
      if (!smi.trim()) return null;
      try {
        return withMol(ctx.rdkit, smi, (mol) => exportMolblock(ctx.rdkit, mol));
      } catch (e) {
        if (!AppError.from(e)?.isClientError) throw e;
        return null;
      }
    }),
  ),
}) satisfies TaskTable;

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
