/**
 * The picture an OCSR call reads, before osra sees it: base64 text (an MCP argument, a JSON body,
 * or a multipart upload the api encoded) or a `data:` URL turned into bytes, its size checked
 * (413 naming the limit), its format and pixel size read from its header (422 when it is no
 * picture osra can read, 413 when it has more pixels than allowed). Nothing here touches the disk.
 */
import { AppError } from '../errors.ts';

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'bmp' | 'tiff';

export interface ImageInfo {
  format: ImageFormat;
  width: number;
  height: number;
}

export interface ImageLimits {
  /** Most bytes of one picture (OCSR_MAX_BYTES). */
  maxBytes: number;
  /** Most pixels (width × height) of one picture (OCSR_MAX_PIXELS). */
  maxPixels: number;
}

export const IMAGE_FORMATS = 'PNG, JPEG, GIF, BMP or TIFF';

const DATA_URL = /^data:([^,]*?)(;base64)?,/i;
const BASE64 = /^[A-Za-z0-9+/\-_]*={0,2}$/;

/** What an `img`/`path` argument names, before any decoding: a web address is refused with its reason. */
export function isWebAddress(text: string): boolean {
  return /^\s*(https?|ftp):\/\//i.test(text);
}

/**
 * Decode a picture sent as text: a `data:image/...;base64,` URL or bare base64 (standard or
 * URL-safe, whitespace allowed). `what` names the argument in messages.
 */
export function decodeImageText(text: string, maxBytes: number, what: string): Buffer {
  const url = DATA_URL.exec(text.trimStart());
  if (url && !url[2]) throw new AppError(422, `${what} is a data URL without ;base64: send the picture base64-encoded`, 'invalid_input');
  const compact = (url ? text.trimStart().slice(url[0].length) : text).replace(/\s+/g, '');
  if (compact.length === 0) throw new AppError(422, `${what} is empty: send a picture (${IMAGE_FORMATS}) base64-encoded or as a data: URL`, 'invalid_input');
  if (!BASE64.test(compact) || compact.length % 4 === 1) {
    throw new AppError(422, `${what} is neither base64 nor a data: URL of a picture`, 'invalid_input');
  }
  // Checked before decoding, so an oversized argument never gets a second, decoded copy.
  const approx = Math.floor((compact.length * 3) / 4);
  if (approx - 2 > maxBytes) throw tooManyBytes(approx, maxBytes);
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > maxBytes) throw tooManyBytes(bytes.length, maxBytes);
  return bytes;
}

function tooManyBytes(size: number, max: number): AppError {
  return new AppError(413, `The picture is ${size} bytes; the limit is ${max} bytes (OCSR_MAX_BYTES)`, 'too_large');
}

/** The picture's format and size from its header, checked against the limits; 422 for bytes that are no picture. */
export function checkImage(bytes: Uint8Array, limits: ImageLimits): ImageInfo {
  if (bytes.length > limits.maxBytes) throw tooManyBytes(bytes.length, limits.maxBytes);
  const info = sniffImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  if (!info) {
    throw new AppError(422, `The file is not a picture osra can read: expected ${IMAGE_FORMATS} (its first bytes match none of them)`, 'invalid_input');
  }
  if (info.width < 1 || info.height < 1) {
    throw new AppError(422, `The ${info.format.toUpperCase()} picture has no pixels (${info.width} × ${info.height}) or a damaged header`, 'invalid_input');
  }
  const pixels = info.width * info.height;
  if (pixels > limits.maxPixels) {
    throw new AppError(
      413,
      `The picture has ${info.width} × ${info.height} = ${pixels} pixels; the limit is ${limits.maxPixels} pixels (OCSR_MAX_PIXELS)`,
      'too_large',
    );
  }
  return info;
}

/** Format and pixel size from the header, or null when the bytes start like none of the formats. */
export function sniffImage(b: Buffer): ImageInfo | null {
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) {
    return b.toString('latin1', 12, 16) === 'IHDR' ? { format: 'png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) } : { format: 'png', width: 0, height: 0 };
  }
  if (b.length >= 10 && (b.toString('latin1', 0, 6) === 'GIF87a' || b.toString('latin1', 0, 6) === 'GIF89a')) {
    return { format: 'gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  }
  if (b.length >= 26 && b[0] === 0x42 && b[1] === 0x4d) {
    const header = b.readUInt32LE(14);
    if (header === 12) return { format: 'bmp', width: b.readUInt16LE(18), height: b.readUInt16LE(20) };
    if (header >= 40 && b.length >= 26) return { format: 'bmp', width: Math.abs(b.readInt32LE(18)), height: Math.abs(b.readInt32LE(22)) };
    return null;
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpegSize(b);
  if (b.length >= 8 && (b.toString('latin1', 0, 4) === 'II*\0' || b.toString('latin1', 0, 4) === 'MM\0*')) return tiffSize(b);
  return null;
}

/** A JPEG's size from its first start-of-frame marker (SOF0..SOF15 but DHT, JPG and DAC). */
function jpegSize(b: Buffer): ImageInfo {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) {
      i++;
      continue;
    }
    const marker = b[i + 1];
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const length = b.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { format: 'jpeg', height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    }
    if (marker === 0xda || length < 2) break; // image data before any frame header: damaged
    i += 2 + length;
  }
  return { format: 'jpeg', width: 0, height: 0 };
}

/** A TIFF's size from the ImageWidth (256) and ImageLength (257) entries of its first directory. */
function tiffSize(b: Buffer): ImageInfo {
  const le = b[0] === 0x49;
  const u16 = (o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const u32 = (o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const ifd = u32(4);
  let width = 0;
  let height = 0;
  if (ifd + 2 <= b.length) {
    const n = u16(ifd);
    for (let k = 0; k < n && ifd + 2 + 12 * (k + 1) <= b.length; k++) {
      const e = ifd + 2 + 12 * k;
      const tag = u16(e);
      const value = u16(e + 2) === 3 ? u16(e + 8) : u32(e + 8);
      if (tag === 256) width = value;
      if (tag === 257) height = value;
    }
  }
  return { format: 'tiff', width, height };
}
