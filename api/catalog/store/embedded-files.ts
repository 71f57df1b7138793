/**
 * (Over 300 lines on purpose: one class for what several processes sharing the files need together, the lock, reloads, appends, compaction and the values kept on disk, each step depending on the others' state.)
 *
 * The files under the embedded store (embedded.ts): one @seald-io/nedb datastore per collection in
 * `<dataDir>/<collection>.db`, held in memory, and the rules that let several processes share them:
 * - every store call (`op`) runs under `FileLock` (`<dataDir>/catalog.lock`) and first reloads each
 *   open collection whose file another process changed (inode/size/mtime signature);
 * - what an op wrote is appended to the files when it ends, still under the lock (one append per
 *   collection it changed, instead of nedb's open/write/close per write), after one byte appended
 *   to `<dataDir>/catalog.stamp`: a process whose stamp is unchanged knows that nobody wrote;
 * - a read (`read`) skips the lock when this process runs no op and the stamp is unchanged: one
 *   stat instead of the lock file's four system calls and a stat per collection, which were a
 *   millisecond of each search request on a virtual machine's slow system calls (2026-11-29). An
 *   op waits for the reads running beside it to end, so no read sees half of a write;
 * - loads never rewrite a file (that would look like a change to every other process); `close()`
 *   compacts only what this process wrote, and stamps the compaction, so that every other process
 *   reloads that collection before its next op (embedded-disk.ts: their offsets are into the old file);
 * - the paths the schema declares `onDisk` stay in the files (embedded-disk.ts): each load keeps
 *   the file open, and the offsets its documents hold are into that file.
 * The store is told when a collection was reloaded (`reloaded`), so that it drops what it built
 * from the old documents; listeners of `onExternalChange` are told after the op.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync, closeSync, createReadStream, fstatSync, openSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import NedbModule from '@seald-io/nedb';
import { FileLock } from './lock.ts';
import { readDatafile } from './embedded-read.ts';
import { CompactIndex } from './embedded-index.ts';
import { SharedValues } from './embedded-shared.ts';
import { DiskValues } from './embedded-disk.ts';
import { COLLECTIONS, type CollectionName } from './types.ts';
import { storeIndexes } from '../schema/resources.ts';

export type Name = CollectionName | 'counters';

/** Thrown inside a lock-free read that needs a collection not opened yet: the read is run again as an op. */
class NotOpenYet extends Error {}
// CommonJS package: under NodeNext the default import is typed as the module namespace
type NedbClass = typeof import('@seald-io/nedb').default;
const Datastore = ((NedbModule as unknown as { default?: NedbClass }).default ?? NedbModule) as unknown as NedbClass;
// nedb's typings lose the schema type.
export type DS = any;
/** nedb's check of a datafile left by an interrupted compaction (its own load runs it first), and its crash-safe rewrite (its compaction). */
const nedbStorage = createRequire(import.meta.url)('@seald-io/nedb/lib/storage.js') as {
  ensureDatafileIntegrityAsync: (file: string, mode: number) => Promise<void>;
  crashSafeWriteFileLinesAsync: (file: string, lines: string[], modes: unknown) => Promise<void>;
};
/** nedb's own document functions (its matcher is the one its find uses: live documents are filtered without copies). */
export const nedbModel = createRequire(import.meta.url)('@seald-io/nedb/lib/model.js') as {
  match: (d: unknown, q: unknown) => boolean;
  serialize: (d: unknown) => string;
  getDotValue: (d: unknown, path: string) => unknown;
  deepCopy: <T>(v: T) => T;
};

/** Per collection, one copy of each value of its fields whose values repeat (`repeats`), shared by its documents. */
export const SHARED = Object.fromEntries(
  COLLECTIONS.map((c) => [c, new SharedValues(storeIndexes(c).repeated, storeIndexes(c).sameAs, storeIndexes(c).repeatedLists)] as const).filter(([, v]) => !v.empty),
) as Partial<Record<Name, SharedValues>>;

/** Per collection with `onDisk` paths, what keeps their values in its file. */
const DISK = Object.fromEntries(
  COLLECTIONS.map((c) => [c, storeIndexes(c).onDisk] as const).filter(([, paths]) => paths.length).map(([c, paths]) => [c, new DiskValues(paths)] as const),
) as Partial<Record<Name, DiskValues>>;

/** nedb indexes per collection, from the resource declarations (api/catalog/schema/: `index`). */
const INDEXES = Object.fromEntries(COLLECTIONS.map((c) => [c, storeIndexes(c).embedded])) as Record<CollectionName, string[]>;

/** What an op wrote to a collection: its lines, their bytes, and the documents whose values on disk are in them (at their line's offset in `lines`). */
interface Pending {
  lines: string;
  bytes: number;
  held: [Record<string, unknown>, number][];
}

export class CollectionFiles {
  private readonly dbs = new Map<Name, DS>();
  private readonly sigs = new Map<Name, string>();
  /** Collections this process wrote (compacted at `close`). */
  private readonly dirty = new Set<Name>();
  private readonly lock: FileLock;
  /**
   * Set while this process runs an `op` (per async call chain). Enabled only while some op is
   * queued or running: an enabled AsyncLocalStorage turns on Node 20's promise hooks for the
   * whole process, and every promise anywhere then pays for them (about 5 % of the api's main
   * thread under chemistry load, which never touches the store).
   */
  private readonly inside = new AsyncLocalStorage<boolean>();
  /** Outermost ops queued or running. */
  private active = 0;
  /**
   * Lines the current op wrote, per collection, appended to the files when the op ends (still
   * under the lock). nedb would append each write on its own (open, write, close: an import row
   * is about ten writes); one op's writes are now one append per collection it changed.
   */
  private readonly pending = new Map<Name, Pending>();
  /** The file each collection with `onDisk` paths was last loaded from, open (embedded-disk.ts). */
  private readonly fds = new Map<Name, number>();
  private readonly externalListeners: ((coll: CollectionName) => void)[] = [];
  private readonly stampPath: string;
  /** The stamp's signature when this process last looked at (or wrote) it; '' before the first op. */
  private stampSig = '';
  /** Lock-free reads running, and the ops waiting for them to end. */
  private reads = 0;
  private readonly drained: (() => void)[] = [];

  private constructor(
    private readonly dir: string,
    private readonly reloaded: (name: Name) => void,
  ) {
    this.lock = new FileLock(join(dir, 'catalog.lock'));
    this.stampPath = join(dir, 'catalog.stamp');
  }

  static async open(dir: string, reloaded: (name: Name) => void): Promise<CollectionFiles> {
    await mkdir(dir, { recursive: true });
    return new CollectionFiles(dir, reloaded);
  }

  onExternalChange(fn: (coll: CollectionName) => void): void {
    this.externalListeners.push(fn);
  }

  /**
   * Runs fn under the lock after reloading what other processes changed. Calls nested inside an
   * outer `op` (e.g. the writes of one import row under `exclusive`) skip the reload and the
   * flush: no other process can write while the outer call holds the lock, and stat-ing every
   * file around each inner call was most of the import's store time. Files this op did not
   * write keep the signature `refresh` read (nobody else writes while we hold the lock).
   */
  async op<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inside.getStore()) return fn();
    this.active++;
    try {
      return await this.lock.run(async () => {
        if (this.reads) await new Promise<void>((r) => this.drained.push(r));
        return this.inside.run(true, async () => {
          await this.refresh();
          try {
            return await fn();
          } finally {
            this.flush();
          }
        });
      });
    } finally {
      if (--this.active === 0) this.inside.disable();
    }
  }

  /**
   * Runs a read-only fn: without the lock when no op of this process is queued or running and no
   * process wrote since this one last looked (the stamp), else as an op. fn must not write.
   */
  async read<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inside.getStore() || this.active || this.sig(this.stampPath) !== this.stampSig) return this.op(fn);
    this.reads++;
    let result: { value: T } | undefined;
    try {
      result = { value: await fn() };
    } catch (e) {
      if (!(e instanceof NotOpenYet)) throw e;
    } finally {
      if (--this.reads === 0) for (const wake of this.drained.splice(0)) wake();
    }
    // A collection to open first: opening reads its file, which needs the lock.
    return result ? result.value : this.op(fn);
  }

  /** A collection's datastore, opened on first use (the token CLI never loads the molecules). Inside `op` or `read`. */
  async db(name: Name): Promise<DS> {
    let db = this.dbs.get(name);
    if (db) return db;
    if (!this.inside.getStore()) throw new NotOpenYet(name);
    db = new Datastore<Record<string, unknown>>({ filename: this.file(name) });
    db.indexes._id = new CompactIndex({ fieldName: '_id', unique: true });
    const disk = DISK[name];
    db.persistence.persistNewStateAsync = async (docs: Record<string, unknown>[]) => {
      if (!docs.length) return;
      let p = this.pending.get(name);
      if (!p) this.pending.set(name, (p = { lines: '', bytes: 0, held: [] }));
      for (const d of docs) {
        const line = `${nedbModel.serialize(disk ? disk.filled(d, this.fds.get(name), nedbModel.deepCopy) : d)}\n`;
        if (disk?.fresh(d)) p.held.push([d, p.bytes]);
        p.lines += line;
        if (disk) p.bytes += Buffer.byteLength(line);
      }
    };
    if (disk) {
      // nedb's compaction (persistCachedDatabaseAsync), with the values on disk read back into the lines.
      db.persistence.persistCachedDatabaseAsync = async () => {
        const fd = this.fds.get(name);
        const lines = (db.getAllData() as Record<string, unknown>[]).map((d) => nedbModel.serialize(disk.filled(d, fd, nedbModel.deepCopy)));
        for (const [fieldName, index] of Object.entries(db.indexes as Record<string, { unique?: boolean; sparse?: boolean }>)) {
          if (fieldName !== '_id') lines.push(nedbModel.serialize({ $$indexCreated: { fieldName, unique: index.unique, sparse: index.sparse } }));
        }
        await nedbStorage.crashSafeWriteFileLinesAsync(db.persistence.filename, lines, db.persistence.modes);
      };
    }
    await this.load(db, name);
    const want = [name === 'counters' ? 'name' : 'id', ...(name === 'counters' ? [] : INDEXES[name])];
    for (const f of want) {
      if (db.indexes[f]) continue;
      // nedb's ensureIndexAsync, with our index.
      const options = { fieldName: f, unique: f === 'id' || name === 'counters' };
      const index = new CompactIndex(options);
      index.insert(db.getAllData());
      db.indexes[f] = index;
      await db.persistence.persistNewStateAsync([{ $$indexCreated: options }]);
    }
    this.dbs.set(name, db);
    this.sigs.set(name, this.sig(this.file(name)));
    return db;
  }

  /** A collection's datastore, to be written: compacted at `close`. Only inside `op`. */
  async forWrite(name: Name): Promise<DS> {
    this.dirty.add(name);
    return this.db(name);
  }

  /**
   * Compacts the files this process wrote whose obsolete lines (replaced or removed documents)
   * are worth it. Compaction rewrites a file from memory, so it first reloads what other
   * processes appended since our last call: otherwise a token minted by the CLI after the
   * service's last request would be lost when the service shuts down.
   */
  async close(): Promise<void> {
    await this.op(async () => {
      let compacted = false;
      for (const name of this.dirty) {
        if (!this.worthCompacting(name)) continue;
        await this.dbs.get(name)?.compactDatafileAsync();
        compacted = true;
      }
      if (compacted) appendFileSync(this.stampPath, '.', 'utf8');
    });
    this.dbs.clear();
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }

  /** A copy of a document read from a collection, with the values it keeps on disk put back. */
  restore<T extends Record<string, unknown>>(name: Name, doc: T): T {
    return DISK[name] ? DISK[name]!.restore(doc, this.fds.get(name)) : doc;
  }

  /** Refuses writes that would put something other than a string where a value on disk is kept. */
  checkWrite(name: Name, doc: Record<string, unknown>, isSet = false): void {
    const disk = DISK[name];
    if (disk) (isSet ? disk.checkSet(doc) : disk.check(doc));
  }

  /**
   * Whether a file is over 1.2 times what its live documents take, estimated from a sample of
   * them: an import that only inserted (700,000 molecules and as many audit entries, 2.9 GB) has
   * nothing to drop, and rewriting it cost minutes at the end of the import; a file that collected
   * updated and removed documents' old lines, from any process, is compacted.
   */
  private worthCompacting(name: Name): boolean {
    const db = this.dbs.get(name);
    if (!db) return false;
    let size: number;
    try {
      size = statSync(this.file(name)).size;
    } catch {
      return false;
    }
    const docs = db.getAllData() as unknown[];
    if (!docs.length) return size > 0;
    const step = Math.max(1, Math.floor(docs.length / 200));
    let bytes = 0;
    let n = 0;
    const disk = DISK[name];
    const fd = this.fds.get(name);
    for (let i = 0; i < docs.length; i += step, n++) bytes += Buffer.byteLength(nedbModel.serialize(disk ? disk.filled(docs[i] as Record<string, unknown>, fd, nedbModel.deepCopy) : docs[i])) + 1;
    return size > 1.2 * (bytes / n) * docs.length;
  }

  /**
   * nedb's load (persistence.loadDatabaseAsync, run by its executor) with the datafile read by
   * embedded-read.ts, the indexes of embedded-index.ts, and without its rewrite of the file (see
   * the header).
   */
  private async load(db: DS, name: Name): Promise<void> {
    const p = db.persistence;
    const shared = SHARED[name];
    const disk = DISK[name];
    p.loadDatabaseAsync = async () => {
      db._resetIndexes();
      await p.constructor.ensureParentDirectoryExistsAsync(p.filename, p.modes.dirMode);
      await nedbStorage.ensureDatafileIntegrityAsync(p.filename, p.modes.fileMode);
      // The offsets documents hold are into the file as opened here, kept open until the next load.
      const fd = openSync(p.filename, 'r');
      let read;
      try {
        read = await readDatafile(createReadStream('', { fd, autoClose: false, start: 0 }), p.corruptAlertThreshold as number, (d, at) => {
          shared?.share(d);
          disk?.hold(d, at, true);
        });
      } catch (e) {
        closeSync(fd);
        throw e;
      }
      const before = this.fds.get(name);
      if (disk) this.fds.set(name, fd);
      if (before !== undefined) closeSync(before);
      if (!disk) closeSync(fd);
      const { data, indexes } = read;
      for (const [field, options] of Object.entries(indexes)) db.indexes[field] = new CompactIndex(options as { fieldName: string });
      try {
        db._resetIndexes(data);
      } catch (e) {
        db._resetIndexes();
        throw e;
      }
      db.executor.processBuffer();
    };
    await db.loadDatabaseAsync();
  }

  private file(name: Name): string {
    return join(this.dir, `${name}.db`);
  }

  /** Synchronous: a stat takes microseconds, a round trip through libuv's thread pool far longer, and every store call makes one per open collection. */
  private sig(path: string): string {
    try {
      const st = statSync(path);
      return `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      return 'missing';
    }
  }

  /**
   * Appends what the op wrote and notes the new signatures of those files (ours, not a change to
   * reload). Synchronous, like `sig`: an op's lines are a few kilobytes, and three hops through
   * libuv's thread pool (open, write, close) cost more than the write.
   */
  private flush(): void {
    const written = [...this.pending];
    this.pending.clear();
    if (!written.length) return;
    // The stamp first: a process that sees it changed waits for our lock, so for the lines too.
    appendFileSync(this.stampPath, '.', 'utf8');
    this.stampSig = this.sig(this.stampPath);
    for (const [name, p] of written) {
      const fd = this.fds.get(name);
      // Where the lines start in the file this process reads (the path's file: reloaded at the op's start if another process replaced it).
      const base = fd === undefined ? 0 : fstatSync(fd).size;
      appendFileSync(this.file(name), p.lines, 'utf8');
      for (const [doc, at] of p.held) DISK[name]!.hold(doc, base + at);
    }
    for (const [name] of written) this.sigs.set(name, this.sig(this.file(name)));
  }

  /** Reloads every open collection whose file another process changed since we last looked. */
  private async refresh(): Promise<void> {
    const stamp = this.sig(this.stampPath);
    if (stamp === this.stampSig) return;
    this.stampSig = stamp;
    for (const [name, db] of this.dbs) {
      const now = this.sig(this.file(name));
      if (now === this.sigs.get(name)) continue;
      await this.load(db, name);
      this.sigs.set(name, now);
      this.reloaded(name);
      // Told after this operation (listeners may use the store, whose lock we hold now).
      // Scheduled outside this op's context, so that their store calls take the lock.
      if (name !== 'counters') this.inside.exit(() => { for (const fn of this.externalListeners) setImmediate(() => fn(name as CollectionName)); });
    }
  }
}
