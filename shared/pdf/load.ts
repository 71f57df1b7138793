/**
 * Opening a PDF with pdfjs-dist (legacy Node build) inside the current thread. pdfjs normally
 * parses in a separate web worker; in Node it falls back to a "fake worker" that runs the parser
 * in the same thread, which is what a Piscina thread wants. Publishing the worker module as
 * `globalThis.pdfjsWorker` makes pdfjs use it directly instead of resolving a worker script path.
 *
 * pdfjs is loaded on the first PDF task, not when the task table is imported: it costs a thread
 * tens of megabytes (hundreds when the tsx loader transforms it), which threads that never see a
 * PDF should not pay.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { AppError } from '../errors.ts';

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

const WORKER_MODULE = 'pdfjs-dist/legacy/build/pdf.worker.mjs';
let loading: Promise<Pdfjs> | undefined;

function pdfjsModule(): Promise<Pdfjs> {
  loading ??= (async () => {
    const g = globalThis as { pdfjsWorker?: unknown };
    g.pdfjsWorker ??= await import(WORKER_MODULE);
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return loading;
}

// Font metrics of the 14 standard fonts and the CMaps of CJK encodings ship with pdfjs-dist;
// without them text in non-embedded fonts or CID fonts can come out wrong. pdfjs reads them
// from these directories (read-only).
const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const STANDARD_FONTS = join(pdfjsRoot, 'standard_fonts') + '/';
const CMAPS = join(pdfjsRoot, 'cmaps') + '/';

export type PdfDocument = PDFDocumentProxy;

/**
 * Open `bytes` (already checked for the PDF signature) and run `fn` on the document; the
 * document and its parser are destroyed afterwards whatever happens. Unreadable, truncated or
 * password-protected files become 422 errors that say what is wrong.
 */
export async function withPdf<T>(bytes: Uint8Array, signal: AbortSignal, fn: (doc: PdfDocument) => Promise<T>): Promise<T> {
  signal.throwIfAborted();
  const pdfjs = await pdfjsModule();
  signal.throwIfAborted();
  const task = pdfjs.getDocument({
    data: bytes,
    // Untrusted input: never compile font programs with eval (CVE-2024-4367), no XFA forms.
    isEvalSupported: false,
    enableXfa: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: STANDARD_FONTS,
    cMapUrl: CMAPS,
    cMapPacked: true,
    // Malformed content streams are skipped rather than failing the page, as viewers do.
    stopAtErrors: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  const onAbort = () => void task.destroy();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    let doc: PdfDocument;
    try {
      doc = await task.promise;
    } catch (e) {
      signal.throwIfAborted();
      throw openError(pdfjs, e);
    }
    return await fn(doc);
  } finally {
    signal.removeEventListener('abort', onAbort);
    await task.destroy();
  }
}

function openError(pdfjs: Pdfjs, e: unknown): AppError {
  const err = e as { name?: string; message?: string; code?: number };
  const message = (err?.message ?? String(e)).replace(/\s+$/, '');
  switch (err?.name) {
    case 'PasswordException':
      return new AppError(422, err.code === pdfjs.PasswordResponses.INCORRECT_PASSWORD
        ? 'The PDF is encrypted and the password is wrong'
        : 'The PDF is encrypted and needs a password to open: upload an unprotected copy', 'invalid_input');
    case 'InvalidPDFException':
      return new AppError(422, `The PDF is corrupt or truncated and cannot be read (${message})`, 'invalid_input');
    default:
      return new AppError(422, `The PDF cannot be read: ${message}`, 'invalid_input');
  }
}

/** A page-level failure names the page, so the client knows which part of the file is broken. */
export function pageError(pageNo: number, e: unknown): unknown {
  if (AppError.from(e) || (e as { name?: string })?.name === 'AbortError') return e;
  const message = (e as Error)?.message ?? String(e);
  return new AppError(422, `Page ${pageNo} of the PDF cannot be read: ${message}`, 'invalid_input');
}

export interface PdfInfo {
  pdf_version?: string;
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  creator?: string;
  producer?: string;
  creation_date?: string;
  modification_date?: string;
}

/** Document information dictionary, dates as ISO 8601; absent or empty entries are left out. */
export async function readInfo(doc: PdfDocument): Promise<PdfInfo> {
  const pdfjs = await pdfjsModule();
  const { info } = (await doc.getMetadata().catch(() => ({ info: {} }))) as { info: Record<string, unknown> };
  const str = (k: string) => (typeof info[k] === 'string' && (info[k] as string).trim() !== '' ? (info[k] as string).trim() : undefined);
  const date = (k: string) => {
    const raw = str(k);
    const d = raw === undefined ? null : pdfjs.PDFDateString.toDateObject(raw);
    return d && !Number.isNaN(d.getTime()) ? d.toISOString() : undefined;
  };
  const out: PdfInfo = {
    pdf_version: str('PDFFormatVersion'),
    title: str('Title'),
    author: str('Author'),
    subject: str('Subject'),
    keywords: str('Keywords'),
    creator: str('Creator'),
    producer: str('Producer'),
    creation_date: date('CreationDate'),
    modification_date: date('ModDate'),
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as PdfInfo;
}
