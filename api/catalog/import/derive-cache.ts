/**
 * Bounded memo of derivations for one import. LOTUS files repeat a structure once per
 * organism/reference, and rows are derived ahead of the one being written, so the memo keeps the
 * promise: a structure that is already being derived is not sent to a worker a second time.
 *
 * With `many` (the task `derive_molecules`), structures travel in chunks: one task derives
 * `chunk` of them on a chemistry thread, so an import pays one job per chunk instead of one per
 * row, and the runner spreads the chunks over its threads (or the worker processes). A chunk is
 * sent when it is full, or earlier when the importer needs one of its structures (`flush`).
 *
 * A derivation the infrastructure fails (a 5xx: the job queue's Redis restarting, a worker or
 * thread that died, a chunk over its time limit) is tried again, waiting 0.5 s, then twice as long
 * each time up to 15 s, for `retryForMs` (default 5 minutes) before it ends the import: an import
 * outlives a Redis restart or a worker's replacement. Bad input (a 4xx) is never retried.
 */
import { AppError } from '../../../shared/errors.ts';
import type { DeriveInput, DerivedMolecule } from '../../../shared/chem/catalog/ports.ts';
import type { StoredFingerprints } from '../../../shared/chem/catalog/fingerprints.ts';
import type { JobRunner } from '../../../shared/jobs/types.ts';
import type { Derive } from '../mutate/derived.ts';

/** A derivation, or the client error (unparsable structure) that rejects the row. */
export type Derived = DerivedMolecule | AppError;

/** Derives a chunk: one answer per structure, in order, `{error}` for one that cannot be read. */
export type DeriveMany = (structures: string[]) => Promise<(DerivedMolecule | { error: string })[]>;

/** A chunk's search fingerprints: one a structure, in order, null for one that cannot be read. */
export type FingerprintMany = (smiles: string[]) => Promise<(StoredFingerprints | null)[]>;

/** The derivations an import asks of the chemistry threads, as jobs of `runner` (the api's and the command line's). */
export function derivationsOn(runner: JobRunner): { derive: (input: DeriveInput) => Promise<DerivedMolecule>; deriveMany: DeriveMany; fingerprintMany: FingerprintMany } {
  return {
    derive: (input) => runner.runTask('derive_molecule', 'derive_molecule', input),
    deriveMany: (structures) => runner.runTask('derive_molecules', 'derive_molecules', { structures }),
    fingerprintMany: async (smiles) => {
      const r = await runner.runTask('import_fingerprints', 'catalog_fingerprints', { rows: smiles.map((s, id) => ({ id, smiles: s })) });
      const out: (StoredFingerprints | null)[] = smiles.map(() => null);
      for (const it of r.items) out[it.id] = it.fingerprints;
      return out;
    },
  };
}

interface Waiting {
  structure: string;
  settle: (d: Derived) => void;
  fail: (err: unknown) => void;
}

export class DeriveCache {
  private readonly map = new Map<string, Promise<Derived>>();
  private waiting: Waiting[] = [];
  /** Structures waiting for a chunk of fingerprints (rows that carry their derivation). */
  private printing: { smiles: string; settle: (f: StoredFingerprints | null) => void; fail: (err: unknown) => void }[] = [];

  constructor(
    private readonly derive: Derive,
    private readonly opts: {
      many?: DeriveMany;
      /** Fingerprints in chunks, for rows that carry the rest of their derivation (absent: stored without, the search index computes them). */
      fingerprints?: FingerprintMany;
      chunk?: number;
      max?: number;
      retryForMs?: number;
      signal?: AbortSignal;
      /** Told of each retry (the job records it). */
      onRetry?: (err: AppError, waitMs: number) => void;
    } = {},
  ) {}

  /** `fn`, tried again after an infrastructure fault (see above). */
  private async retrying<T>(fn: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + (this.opts.retryForMs ?? 300_000);
    for (let wait = 500; ; wait = Math.min(wait * 2, 15_000)) {
      try {
        return await fn();
      } catch (err) {
        const app = AppError.from(err);
        if (!app || app.status < 500 || this.opts.signal?.aborted || Date.now() + wait > deadline) throw err;
        this.opts.onRetry?.(app, wait);
        await new Promise<void>((resolve) => {
          const done = () => (clearTimeout(timer), resolve());
          const timer = setTimeout(done, wait);
          this.opts.signal?.addEventListener('abort', done, { once: true });
        });
      }
    }
  }

  get(structure: string): Promise<Derived> {
    const hit = this.map.get(structure);
    if (hit) return hit;
    const value = this.opts.many ? this.queue(structure) : this.one(structure);
    if (this.map.size >= (this.opts.max ?? 5000)) this.map.delete(this.map.keys().next().value!);
    this.map.set(structure, value);
    // Nobody may await a prefetched entry before a later failure ends the import.
    value.catch(() => undefined);
    return value;
  }

  /** Sends the structures still waiting for a full chunk (the importer needs one of them now). */
  flush(): void {
    if (this.printing.length) void this.printChunk(this.printing.splice(0));
    if (!this.waiting.length) return;
    const chunk = this.waiting;
    this.waiting = [];
    void this.chunk(chunk);
  }

  /**
   * A structure's search fingerprints, computed `chunk` at a time (task `catalog_fingerprints`):
   * null when it cannot be read, undefined without a fingerprint function.
   */
  fingerprints(smiles: string): Promise<StoredFingerprints | null | undefined> {
    if (!this.opts.fingerprints) return Promise.resolve(undefined);
    const p = new Promise<StoredFingerprints | null>((settle, fail) => this.printing.push({ smiles, settle, fail }));
    p.catch(() => undefined);
    if (this.printing.length >= (this.opts.chunk ?? 32)) void this.printChunk(this.printing.splice(0));
    return p;
  }

  private async printChunk(chunk: DeriveCache['printing']): Promise<void> {
    try {
      const prints = await this.retrying(() => this.opts.fingerprints!(chunk.map((w) => w.smiles)));
      chunk.forEach((w, i) => w.settle(prints[i] ?? null));
    } catch (err) {
      for (const w of chunk) w.fail(err);
    }
  }

  private queue(structure: string): Promise<Derived> {
    const p = new Promise<Derived>((settle, fail) => this.waiting.push({ structure, settle, fail }));
    if (this.waiting.length >= (this.opts.chunk ?? 32)) this.flush();
    return p;
  }

  private async chunk(chunk: Waiting[]): Promise<void> {
    let answers: Awaited<ReturnType<DeriveMany>>;
    try {
      answers = await this.retrying(() => this.opts.many!(chunk.map((w) => w.structure)));
    } catch (err) {
      const app = AppError.from(err);
      if (!app?.isClientError) {
        for (const w of chunk) w.fail(err);
        return;
      }
      // The chunk as a whole was refused (a structure faulted RDKit's WebAssembly): one task per
      // structure finds the one at fault, and the others still load.
      for (const w of chunk) this.one(w.structure).then(w.settle, w.fail);
      return;
    }
    chunk.forEach((w, i) => {
      const a = answers[i];
      if (!a) w.fail(new Error(`derive_molecules answered ${answers.length} derivations for ${chunk.length} structures`));
      else w.settle('error' in a ? new AppError(422, a.error, 'invalid_input') : a);
    });
  }

  private async one(structure: string): Promise<Derived> {
    try {
      return await this.retrying(async () => this.derive({ structure }));
    } catch (err) {
      // Only a bad structure rejects the row; an infrastructure fault (worker gone) ends the import.
      const app = AppError.from(err);
      if (!app || !app.isClientError) throw err;
      return app;
    }
  }
}
