/**
 * HTTP range requests (RFC 9110 §14) for the dump files: a single byte range per request.
 *
 * - no `Range`, or a unit other than `bytes`: the whole file (200);
 * - `bytes=a-b`, `bytes=a-`, `bytes=-n` (a suffix of n bytes): 206 with `Content-Range`; an end
 *   past the file is cut to its last byte;
 * - several ranges (`bytes=0-1,5-6`): the whole file (200; a server may ignore a Range header,
 *   and natprod does not write multipart/byteranges);
 * - a range that starts at or past the end, `bytes=-0`, a malformed range (`bytes=abc`,
 *   `bytes=5-2`, `bytes=-`), or any range of an empty file: 416 with `Content-Range: bytes *\/size`.
 */
export type RangeAnswer = { kind: 'whole' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable'; reason: string };

const SPEC = /^(\d*)-(\d*)$/;

export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: 'whole' };
  const m = /^\s*([A-Za-z]+)\s*=(.*)$/.exec(header);
  if (!m) return { kind: 'unsatisfiable', reason: `The Range header ${JSON.stringify(header)} is malformed (expected bytes=first-last).` };
  if (m[1].toLowerCase() !== 'bytes') return { kind: 'whole' };
  const specs = m[2].split(',').map((s) => s.trim());
  if (specs.length > 1 && specs.every((s) => SPEC.test(s) && s !== '-')) return { kind: 'whole' };
  const spec = SPEC.exec(specs[0]);
  const bad = (why: string): RangeAnswer => ({ kind: 'unsatisfiable', reason: `The range ${JSON.stringify(m[2].trim())} ${why}.` });
  if (specs.length > 1 || !spec || (spec[1] === '' && spec[2] === '')) return bad('is malformed (expected bytes=first-last, bytes=first- or bytes=-suffix)');
  const [first, last] = [spec[1], spec[2]];
  if (size === 0) return bad('cannot be satisfied: the file is empty');
  if (first === '') {
    const n = Number(last);
    if (!Number.isSafeInteger(n) || n === 0) return bad('asks for no bytes');
    return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  if (!Number.isSafeInteger(start)) return bad('is malformed');
  if (start >= size) return bad(`starts at or past the end of the file (${size} bytes)`);
  if (last === '') return { kind: 'partial', start, end: size - 1 };
  const end = Number(last);
  if (!Number.isSafeInteger(end) || end < start) return bad('is malformed (its last byte is before its first)');
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}
