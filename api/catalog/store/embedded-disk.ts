/**
 * Values the embedded store leaves in its files instead of its memory: the paths the schema
 * declares `onDisk` (a molecule's search fingerprints, about a third of a parsed document, which
 * only an index build, an export or a detail read asks for). Their values are strings. In memory,
 * a document holds at such a path the byte offset of a line of the collection's file that holds
 * the value (a number, where the value would be a string); a read that returns the path reads that
 * line again (`restore`: one pread and one JSON.parse, about 5 µs).
 *
 * The offsets point into the file as this process opened it (embedded-files.ts keeps the file
 * descriptor of each load, so a file replaced by another process's compaction stays readable
 * until the next reload): lines are only ever appended, so an offset stays right until the
 * collection is loaded again, and a load sets every offset afresh. A document written by this
 * process holds its strings until the op's lines are appended, then the offsets of its new line
 * (`hold`). Lines written for a document whose values are on disk carry the values read back
 * (`filled`), so the file always holds every value.
 */
import { readSync } from 'node:fs';
import { parseLine } from './embedded-read.ts';
import { parentOf } from './embedded-shared.ts';

type Rec = Record<string, unknown>;

/** Reused for line reads (one thread: the api's main thread). */
let scratch = Buffer.allocUnsafe(8192);

/** The line of file `fd` that starts at byte `at`. */
function lineAt(fd: number, at: number): string {
  for (let size = scratch.length; ; size *= 2) {
    if (scratch.length < size) scratch = Buffer.allocUnsafe(size);
    const n = readSync(fd, scratch, 0, size, at);
    const nl = scratch.indexOf(10);
    if (nl !== -1 && nl < n) return scratch.toString('utf8', 0, nl);
    if (n < size) return scratch.toString('utf8', 0, n);
  }
}

export class DiskValues {
  private readonly paths: string[][];

  constructor(names: string[]) {
    this.paths = names.map((p) => p.split('.'));
  }

  /**
   * Replaces the strings at the paths by `at`, the offset of a line that holds them: in place in a
   * document just read (`owned`); otherwise in copies of the records along each path, since a
   * written document may share them with the caller (nedb's `$set` stores its values as given).
   */
  hold(doc: Rec, at: number, owned = false): void {
    const copied = owned ? undefined : new Set<Rec>();
    for (const path of this.paths) {
      let holder: Rec | undefined = doc;
      for (let i = 0; i < path.length - 1 && holder; i++) {
        const next: unknown = holder[path[i]!];
        if (!next || typeof next !== 'object') holder = undefined;
        else if (copied && !copied.has(next as Rec)) {
          const copy: Rec = { ...(next as Rec) };
          copied.add(copy);
          holder = holder[path[i]!] = copy;
        } else holder = next as Rec;
      }
      const last = path[path.length - 1]!;
      if (holder && typeof holder[last] === 'string') holder[last] = at;
    }
  }

  /** Whether the document holds one of its values itself (a string not written to the file yet). */
  fresh(doc: Rec): boolean {
    return this.paths.some((path) => typeof parentOf(doc, path)?.[path[path.length - 1]!] === 'string');
  }

  /** Puts back, in place, the values of the paths that hold offsets, read from file `fd`. */
  restore<T extends Rec>(doc: T, fd: number | undefined): T {
    let read: { at: number; line: unknown } | undefined;
    for (const path of this.paths) {
      const holder = parentOf(doc, path);
      const last = path[path.length - 1]!;
      const at = holder?.[last];
      if (typeof at !== 'number') continue;
      if (fd === undefined) throw new Error(`the embedded store holds ${path.join('.')} on disk but has no file open to read it from`);
      if (read?.at !== at) read = { at, line: parseLine(lineAt(fd, at)) };
      const value = parentOf(read.line as Rec, path)?.[last];
      if (value === undefined) delete holder![last];
      else holder![last] = value;
    }
    return doc;
  }

  /** A copy of a live document with its values read back, or the document itself when it holds them all. */
  filled(doc: Rec, fd: number | undefined, copy: <V>(v: V) => V): Rec {
    return this.paths.some((path) => typeof parentOf(doc, path)?.[path[path.length - 1]!] === 'number') ? this.restore(copy(doc), fd) : doc;
  }

  /** Refuses a document to write whose value at one of the paths is neither a string nor null (an offset would be misread). */
  check(doc: Rec): void {
    for (const path of this.paths) this.checkValue(path.join('.'), parentOf(doc, path)?.[path[path.length - 1]!]);
  }

  /** The same for a `$set`, whose keys are paths (`fingerprints`, `fingerprints.pattern`). */
  checkSet(set: Rec): void {
    for (const [key, value] of Object.entries(set)) {
      for (const path of this.paths) {
        const name = path.join('.');
        if (key === name) this.checkValue(name, value);
        else if (name.startsWith(`${key}.`)) {
          const rest = path.slice(key.split('.').length);
          const holder = rest.length > 1 ? parentOf(value as Rec, rest) : value && typeof value === 'object' ? (value as Rec) : undefined;
          this.checkValue(name, holder?.[rest[rest.length - 1]!]);
        }
      }
    }
  }

  private checkValue(name: string, v: unknown): void {
    if (v !== undefined && v !== null && typeof v !== 'string') throw new Error(`${name} must be a string: the embedded store keeps it on disk`);
  }
}
