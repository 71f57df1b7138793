/**
 * Reads the one data file of a zip archive as a stream, as COCONUT publishes its downloads
 * (`coconut_csv-11-2026.zip` holding `coconut_csv-11-2026.csv`, written by Python's `zipfile`
 * with ZIP_DEFLATED, ZIP64 past 2 GiB). No dependency: the central directory is read from the end
 * of the file (APPNOTE.TXT 4.3.12-4.3.16, ZIP64 4.3.14-4.3.15 and the 0x0001 extra field), the
 * entry's bytes go through node:zlib's raw inflate, and its CRC-32 and size are checked at the end.
 *
 * A truncated archive has no end-of-central-directory record (or one pointing past the end of the
 * file), so it is refused before a single row is read: a 422 naming the file.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { crc32, createInflateRaw } from 'node:zlib';
import { AppError } from '../../../shared/errors.ts';

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const LOCATOR64 = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX32 = 0xffffffff;

const damaged = (file: string, why: string) => new AppError(422, `${basename(file)} is not a complete zip archive: ${why}`);

/** The zip's first bytes are a local file header (`PK\3\4`), or it is an empty archive (`PK\5\6`). */
export function isZipMagic(b: Buffer): boolean {
  return b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && ((b[2] === 3 && b[3] === 4) || (b[2] === 5 && b[3] === 6));
}

function u64(b: Buffer, at: number): number {
  const v = b.readBigUInt64LE(at);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new AppError(422, 'zip offset too large');
  return Number(v);
}

/** The archive's file entries (directories and macOS `__MACOSX/` resource forks left out). */
export async function zipEntries(path: string): Promise<ZipEntry[]> {
  const fh = await open(path, 'r');
  try {
    const size = (await fh.stat()).size;
    const tailLen = Math.min(size, 22 + 65535 + 20);
    const tail = Buffer.alloc(tailLen);
    await fh.read(tail, 0, tailLen, size - tailLen);
    let at = -1;
    for (let i = tailLen - 22; i >= 0; i--) if (tail.readUInt32LE(i) === EOCD) { at = i; break; }
    if (at < 0) throw damaged(path, 'no end-of-central-directory record (the file is truncated or is no zip)');
    let count = tail.readUInt16LE(at + 10);
    let cdSize = tail.readUInt32LE(at + 12);
    let cdOffset = tail.readUInt32LE(at + 16);
    if ((count === 0xffff || cdSize === MAX32 || cdOffset === MAX32) && at >= 20 && tail.readUInt32LE(at - 20) === LOCATOR64) {
      const off64 = u64(tail, at - 20 + 8);
      const rec = Buffer.alloc(56);
      await fh.read(rec, 0, 56, off64);
      if (rec.readUInt32LE(0) !== EOCD64) throw damaged(path, 'bad ZIP64 end-of-central-directory record');
      count = u64(rec, 32);
      cdSize = u64(rec, 40);
      cdOffset = u64(rec, 48);
    }
    if (cdOffset + cdSize > size) throw damaged(path, `its central directory lies past the end of the file (${size} bytes): truncated`);
    const cd = Buffer.alloc(cdSize);
    await fh.read(cd, 0, cdSize, cdOffset);
    const out: ZipEntry[] = [];
    let p = 0;
    for (let n = 0; n < count; n++) {
      if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL) throw damaged(path, 'bad central directory entry');
      const nameLen = cd.readUInt16LE(p + 28);
      const extraLen = cd.readUInt16LE(p + 30);
      const commentLen = cd.readUInt16LE(p + 32);
      const e: ZipEntry = {
        flags: cd.readUInt16LE(p + 8),
        method: cd.readUInt16LE(p + 10),
        crc: cd.readUInt32LE(p + 16),
        compressedSize: cd.readUInt32LE(p + 20),
        size: cd.readUInt32LE(p + 24),
        localOffset: cd.readUInt32LE(p + 42),
        name: cd.toString('utf8', p + 46, p + 46 + nameLen),
      };
      // ZIP64 extra field: the 64-bit values of the fields saturated above, in this order.
      for (let x = p + 46 + nameLen; x + 4 <= p + 46 + nameLen + extraLen;) {
        const id = cd.readUInt16LE(x);
        const len = cd.readUInt16LE(x + 2);
        if (id === 1) {
          let q = x + 4;
          if (e.size === MAX32) (e.size = u64(cd, q), (q += 8));
          if (e.compressedSize === MAX32) (e.compressedSize = u64(cd, q), (q += 8));
          if (e.localOffset === MAX32) e.localOffset = u64(cd, q);
        }
        x += 4 + len;
      }
      p += 46 + nameLen + extraLen + commentLen;
      if (!e.name.endsWith('/') && !e.name.startsWith('__MACOSX/')) out.push(e);
    }
    return out;
  } finally {
    await fh.close();
  }
}

/**
 * The bytes of one entry, inflated, in chunks; `onBytes` hears the compressed bytes read (the
 * progress of the file). Ends with a 422 when the entry is cut short or its CRC-32 or size differ.
 */
export async function* zipEntryBytes(path: string, e: ZipEntry, onBytes?: (n: number) => void): AsyncGenerator<Buffer> {
  if (e.flags & 1) throw new AppError(422, `${basename(path)}: ${e.name} is encrypted`);
  if (e.method !== 0 && e.method !== 8) throw new AppError(422, `${basename(path)}: ${e.name} uses compression method ${e.method} (only stored and deflated entries are read)`);
  const fh = await open(path, 'r');
  const head = Buffer.alloc(30);
  let size: number;
  try {
    await fh.read(head, 0, 30, e.localOffset);
    size = (await fh.stat()).size;
  } finally {
    await fh.close();
  }
  if (head.readUInt32LE(0) !== LOCAL) throw damaged(path, `no local header for ${e.name}`);
  const start = e.localOffset + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
  if (start + e.compressedSize > size) throw damaged(path, `${e.name} is cut short (truncated)`);
  const raw = createReadStream(path, { start, end: start + e.compressedSize - 1, highWaterMark: 16 * 1024 });
  if (onBytes) raw.on('data', (b) => onBytes(b.length));
  const stream = e.method === 8 ? raw.pipe(createInflateRaw()) : raw;
  raw.on('error', (err) => stream.destroy(err));
  let crc = 0;
  let n = 0;
  try {
    for await (const chunk of stream) {
      const b = chunk as Buffer;
      crc = crc32(b, crc);
      n += b.length;
      yield b;
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw damaged(path, `${e.name} does not inflate (${err instanceof Error ? err.message : String(err)})`);
  } finally {
    raw.destroy();
  }
  if (n !== e.size || crc >>> 0 !== e.crc >>> 0) throw damaged(path, `${e.name} has ${n} bytes with CRC-32 ${crc >>> 0}, the directory says ${e.size} bytes and ${e.crc >>> 0}`);
}
