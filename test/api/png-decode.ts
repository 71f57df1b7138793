/**
 * A small PNG reader for the PNG tests: checks the signature and chunk CRCs, reads IHDR, inflates
 * the IDAT stream and undoes the scanline filters (PNG 1.2 §6, §9), for 8-bit RGB and RGBA
 * non-interlaced images (what resvg writes); anything else throws, so a test fails.
 */
import { crc32, inflateSync } from 'node:zlib';

export const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface DecodedPng {
  width: number;
  height: number;
  /** Bytes per pixel: 3 (RGB) or 4 (RGBA). */
  channels: number;
  /** Unfiltered pixel rows, `width * channels` bytes each. */
  pixels: Buffer;
}

export function decodePng(png: Buffer): DecodedPng {
  if (!png.subarray(0, 8).equals(PNG_MAGIC)) throw new Error('not a PNG: bad signature');
  let off = 8;
  let ihdr: Buffer | undefined;
  const idat: Buffer[] = [];
  let ended = false;
  while (off < png.length) {
    const len = png.readUInt32BE(off);
    const type = png.toString('latin1', off + 4, off + 8);
    const data = png.subarray(off + 8, off + 8 + len);
    const crc = png.readUInt32BE(off + 8 + len);
    if (crc32(png.subarray(off + 4, off + 8 + len)) !== crc) throw new Error(`bad CRC in ${type}`);
    if (type === 'IHDR') ihdr = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') { ended = true; break; }
    off += 12 + len;
  }
  if (!ihdr || !ended) throw new Error('PNG without IHDR or IEND');
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const [depth, colour, , , interlace] = ihdr.subarray(8, 13);
  if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) {
    throw new Error(`unsupported PNG: depth ${depth}, colour type ${colour}, interlace ${interlace}`);
  }
  const channels = colour === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length !== height * (stride + 1)) throw new Error(`IDAT holds ${raw.length} bytes, not ${height} rows of ${stride + 1}`);
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = pixels.subarray(y * stride, (y + 1) * stride);
    const prev = y ? pixels.subarray((y - 1) * stride, y * stride) : Buffer.alloc(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? out[i - channels] : 0;
      const b = prev[i];
      const c = i >= channels ? prev[i - channels] : 0;
      let p: number;
      switch (filter) {
        case 0: p = 0; break;
        case 1: p = a; break;
        case 2: p = b; break;
        case 3: p = (a + b) >> 1; break;
        case 4: {
          const e = a + b - c;
          const pa = Math.abs(e - a);
          const pb = Math.abs(e - b);
          const pc = Math.abs(e - c);
          p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default: throw new Error(`bad filter type ${filter} on row ${y}`);
      }
      out[i] = (line[i] + p) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** Pixels matching `test(r, g, b, alpha)`. */
export function countPixels(img: DecodedPng, test: (r: number, g: number, b: number, a: number) => boolean): number {
  let n = 0;
  for (let i = 0; i < img.pixels.length; i += img.channels) {
    const p = img.pixels;
    if (test(p[i], p[i + 1], p[i + 2], img.channels === 4 ? p[i + 3] : 255)) n++;
  }
  return n;
}
