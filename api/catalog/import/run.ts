/**
 * Loads an import file into the catalog store: molecules upserted by InChIKey (derived from the
 * structure, not taken from the file), citations by DOI, organisms by IRI then name, collections
 * by title; each row links its molecule to its organism, citation and collection, and
 * `molecule_count` is recomputed for every organism and collection the file touched.
 *
 * Existing organisms, citations and collections are never overwritten: the import only fills
 * their empty fields. An existing molecule gets its derived fields (InChI, SMILES, stereo flag,
 * framework, properties) refreshed and its empty name fields filled. A row that cannot be read
 * or whose structure does not parse is rejected with its reason; the rest still import.
 */
import { stat } from 'node:fs/promises';
import { tracking } from '../audit/audit.ts';
import type { AppError } from '../../../shared/errors.ts';
import type { Derive } from '../mutate/derived.ts';
import type { CatalogStore } from '../store/types.ts';
import type { DeriveMany, FingerprintMany } from './derive-cache.ts';
import { Importer, type ImportSummary } from './importer.ts';

export { emptySummary, LISTED, type ImportSummary } from './importer.ts';
import { openImport, parseDelimited, parseSdf } from './parse.ts';
import { revokeAbsent } from './revoke.ts';
import type { ImportRow } from './types.ts';

export interface ImportProgress {
  row: number;
  /** Bytes of the file read so far (compressed bytes for .gz) and its size. */
  bytes: number;
  totalBytes: number;
}

export interface ImportOptions {
  /** One structure's derivation (a `derive_molecule` job), and the fallback of a chunk a WASM fault refused. */
  derive: Derive;
  /**
   * A chunk's derivations (a `derive_molecules` job on the chemistry threads): when given,
   * structures travel `chunk` at a time (default 32), and `lookahead` defaults to four chunks.
   */
  deriveMany?: DeriveMany;
  /** Fingerprints in chunks (task `catalog_fingerprints`) for rows that carry the rest of their derivation (carried.ts). */
  fingerprintMany?: FingerprintMany;
  /**
   * Rows that carry their derivation: one in `sampleEvery` (and the first) is derived again to
   * check the file (default 100); 1 derives every row.
   */
  sampleEvery?: number;
  chunk?: number;
  onProgress?: (p: ImportProgress) => void;
  /** Status of newly created molecules; imported sources are curated, so APPROVED by default. */
  status?: 'DRAFT' | 'INREVIEW' | 'APPROVED';
  /**
   * Rows whose structure is derived ahead of the row being written (default 4), so that several
   * worker threads derive while the store writes. Rows are still written in file order.
   */
  lookahead?: number;
  /** Stops the import between rows (the rows written so far stay; re-importing is idempotent). */
  signal?: AbortSignal;
  /** Who imports, for the audit trail (absent: the command line or the demo seed, `user_id` null). */
  user?: { id: number };
  /**
   * Resume an import that stopped: rows up to `afterRow` were written and are skipped (read, not
   * derived or written again), and the summary goes on from `summary`. The organisms and
   * collections of the rows before are not known then, so every `molecule_count` is recomputed at
   * the end.
   */
  resume?: { afterRow: number; summary: ImportSummary };
  /**
   * Called when every row up to `row` is written (every `checkpointRows` rows, default 200, and
   * at most every 2 s), with the summary so far; the import waits for it, so a job record saved
   * here never claims a row that is not in the store.
   */
  onCheckpoint?: (c: { row: number; summary: ImportSummary }) => Promise<void>;
  checkpointRows?: number;
  /** The audit entries' tag (default `import`; a job's: `import:<job id>`). */
  tag?: string;
  /**
   * The file is a whole COCONUT release: when it has been read to its end, every molecule linked to
   * the COCONUT collection whose identifier is not in the file is revoked (status REVOKED, not
   * active), as COCONUT left it out of its release. Skipped, with a warning, when that would
   * revoke more than `revokeMaxFraction` (default 0.1) of them: a cut-short file is no release.
   */
  revokeAbsent?: boolean;
  revokeMaxFraction?: number;
  /** How long a derivation the infrastructure fails is tried again (derive-cache.ts; default 5 minutes). */
  retryForMs?: number;
  /** Told of each such retry. */
  onRetry?: (err: AppError, waitMs: number) => void;
}

/** Rows written under one hold of the store's lock (fewer when the rows read ahead are fewer). */
const WRITE_GROUP = 32;

export async function importFile(store: CatalogStore, path: string, opts: ImportOptions): Promise<ImportSummary> {
  const totalBytes = (await stat(path)).size;
  let bytes = 0;
  const { format, chunks } = await openImport(path, (n) => {
    bytes += n;
  });
  const tag = opts.tag ?? 'import';
  /** COCONUT identifiers the file lists (rejected and resumed-over rows too): what `revokeAbsent` keeps. */
  const listed = new Set<string>();
  const rows = format === 'sdf' ? parseSdf(chunks) : parseDelimited(chunks, format === 'tsv' ? '\t' : ',');
  // every record a row creates or changes gets its audit entry (`import`), written with the row
  const audited = tracking(store);
  const importer = new Importer(audited, opts);
  const lookahead = Math.max(1, opts.lookahead ?? (opts.deriveMany ? (opts.chunk ?? 32) * 4 : 4));
  const skip = opts.resume?.afterRow ?? 0;
  if (skip > 0) await dropDanglingLinks(store);
  const every = opts.checkpointRows ?? 200;
  let sinceCheckpoint = 0;
  let checkpointAt = Date.now();
  const checkpoint = async (row: number) => {
    await importer.raiseIdentifierCounter();
    sinceCheckpoint = 0;
    checkpointAt = Date.now();
    await opts.onCheckpoint?.({ row, summary: importer.summary });
  };
  const window: ImportRow[] = [];
  // Derivations run outside the store lock (they are CPU work on worker threads); then a group of
  // rows is written under the lock at once, each row's audit entries with it: the lock's files and
  // the store's appends are paid once a group, not once a row, and a server sharing the store
  // waits for one group's writes at most.
  const groupSize = Math.max(1, Math.min(WRITE_GROUP, lookahead));
  const write = async (group: ImportRow[]) => {
    opts.signal?.throwIfAborted();
    // A derivation that fails the import (an infrastructure fault past its retries) ends it after
    // the rows before it are written: they stay, as when rows were written one by one.
    let fault: { error: unknown } | undefined;
    let ready = 0;
    for (; ready < group.length; ready++) {
      try {
        await importer.ready(group[ready]);
      } catch (error) {
        fault = { error };
        break;
      }
    }
    const part = group.slice(0, ready);
    if (part.length) await writeReady(part);
    if (fault) throw fault.error;
  };
  const writeReady = async (part: ImportRow[]) => {
    await store.exclusive(async () => {
      for (const r of part) {
        try {
          await importer.row(r);
        } finally {
          await audited.flush(opts.user, tag);
        }
      }
    });
    const end = part[part.length - 1].row;
    opts.onProgress?.({ row: end, bytes, totalBytes });
    sinceCheckpoint += part.length;
    if (sinceCheckpoint >= every || Date.now() - checkpointAt >= 2000) await checkpoint(end);
  };
  let last = skip;
  for await (const r of rows) {
    if (r.authority === 'coconut' && r.molecule?.identifier) listed.add(r.molecule.identifier);
    if (r.row <= skip) continue;
    last = r.row;
    importer.prefetch(r);
    window.push(r);
    if (window.length >= lookahead + groupSize - 1) await write(window.splice(0, groupSize));
  }
  while (window.length) await write(window.splice(0, groupSize));
  await importer.raiseIdentifierCounter();
  if (opts.revokeAbsent) await revokeAbsent(audited, listed, importer.summary, { user: opts.user, tag, maxFraction: opts.revokeMaxFraction });
  await importer.refreshCounts(skip > 0);
  audited.discard(); // counts only: not audited
  if (sinceCheckpoint) await checkpoint(last);
  opts.onProgress?.({ row: importer.summary.rows, bytes: totalBytes, totalBytes });
  return importer.summary;
}

const LINKS = { organism_ids: 'organisms', citation_ids: 'citations', collection_ids: 'collections' } as const;

/**
 * Before a resumed import reads the rows after its checkpoint again: each collection is written to
 * its own file, so a kill can keep a molecule's new link and lose the insert of the organism,
 * citation or collection it names. Such links are dropped; the rows read again link what they
 * name once more.
 */
async function dropDanglingLinks(store: CatalogStore): Promise<void> {
  const exists = new Map<string, Set<number>>();
  for (const [field, coll] of Object.entries(LINKS)) exists.set(field, new Set((await store.find(coll, {}, { fields: ['id'] })).map((d) => d.id)));
  await store.exclusive(async () => {
    for (const m of await store.find('molecules', {}, { fields: Object.keys(LINKS) })) {
      const set: Record<string, number[]> = {};
      for (const field of Object.keys(LINKS)) {
        const ids = m[field];
        if (Array.isArray(ids) && ids.some((id) => !exists.get(field)!.has(id as number))) set[field] = ids.filter((id) => exists.get(field)!.has(id as number)) as number[];
      }
      if (Object.keys(set).length) await store.update('molecules', m.id, set);
    }
  });
}
