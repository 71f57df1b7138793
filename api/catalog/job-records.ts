/**
 * The JSON records of the catalog's file-backed jobs (exports and look-ups, export/jobs.ts;
 * imports, import/job-folder.ts): `<dir>/<id>.json`, written whole to a temporary file and
 * renamed over the record, so a reader in any process sees the old record or the new one, never a
 * part. Writes of one record go one after the other, each of the record as it is then, and stamp
 * its `heartbeat_at` (a job not written for a while belongs to a process that stopped).
 */
import { randomUUID } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Unique per process also where every process has the same pid (each container's is 1) and shares the folder. */
const TMP_TAG = `${process.pid}-${randomUUID().slice(0, 8)}`;

export class JobRecords<R extends { id: string; heartbeat_at: string }> {
  private readonly saving = new Map<string, Promise<void>>();

  constructor(private readonly dir: string) {}

  save(rec: R): Promise<void> {
    const write = async () => {
      rec.heartbeat_at = new Date().toISOString();
      const tmp = join(this.dir, `${rec.id}.json.${TMP_TAG}.tmp`);
      await writeFile(tmp, JSON.stringify(rec));
      await rename(tmp, join(this.dir, `${rec.id}.json`));
    };
    const next = (this.saving.get(rec.id) ?? Promise.resolve()).then(write, write);
    const tail = next.catch(() => {});
    this.saving.set(rec.id, tail);
    void tail.then(() => this.saving.get(rec.id) === tail && this.saving.delete(rec.id));
    return next;
  }
}
