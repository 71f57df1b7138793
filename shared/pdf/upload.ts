/**
 * The uploaded PDF as the task receives it: base64 text (from the multipart upload or an MCP
 * argument) turned into bytes, checked for size and for the PDF signature. Nothing here touches
 * the disk: the upload lives in memory for the duration of one task only.
 */
import { AppError } from '../errors.ts';

export const DEFAULT_FILENAME = 'document.pdf';

/** Readers accept the `%PDF-` signature anywhere in the first 1024 bytes (ISO 32000-2, annex H). */
const SIGNATURE_WINDOW = 1024;
const SIGNATURE = Buffer.from('%PDF-', 'latin1');

const DATA_URL = /^data:[^,]*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/\-_]*={0,2}$/;

/**
 * Decode the `pdf_base64` argument. Accepts standard and URL-safe base64, embedded whitespace
 * (line-wrapped encoders) and a `data:...;base64,` prefix (some MCP clients send data URLs).
 */
export function decodeBase64Pdf(text: string, maxBytes: number): Uint8Array {
  const compact = text.replace(DATA_URL, '').replace(/\s+/g, '');
  if (compact.length === 0) throw new AppError(422, 'pdf_base64 is empty: upload a PDF file', 'invalid_input');
  if (!BASE64.test(compact) || compact.length % 4 === 1) {
    throw new AppError(422, 'pdf_base64 is not valid base64', 'invalid_input');
  }
  // Checked before decoding so an oversized argument never gets a second, decoded copy.
  const approxBytes = Math.floor((compact.length * 3) / 4);
  if (approxBytes - 2 > maxBytes) throw tooLarge(approxBytes, maxBytes);
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > maxBytes) throw tooLarge(bytes.length, maxBytes);
  // pdfjs wants a plain Uint8Array that it may own; Buffer.from can hand out a slice of a shared pool.
  return new Uint8Array(bytes);
}

function tooLarge(size: number, max: number): AppError {
  return new AppError(413, `The PDF is ${size} bytes; the limit is ${max} bytes (UPLOAD_LIMIT)`, 'too_large');
}

/** 400, in the words of the original service, when the bytes are not a PDF at all. */
export function assertPdfSignature(bytes: Uint8Array): void {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, SIGNATURE_WINDOW));
  if (head.indexOf(SIGNATURE) < 0) {
    throw new AppError(400, 'Uploaded file must be a PDF (no %PDF- signature in its first 1024 bytes)', 'invalid_input');
  }
}

/**
 * The name reported back to the client: the base name of the uploaded file with spaces as `_`
 * (the original service's `pdf_filename`), without directories or control characters. It is
 * only ever echoed, never used to build a path.
 */
export function displayFilename(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().replace(/ /g, '_').slice(0, 255);
  return clean === '' || clean === '.' || clean === '..' ? DEFAULT_FILENAME : clean;
}
