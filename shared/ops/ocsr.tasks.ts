/**
 * Worker tasks of the OCSR family; see ocsr.ts for the registry entries and shared/ocsr/ for the
 * osra and pdfimages driver. The picture arrives base64-encoded in the job arguments; it is
 * written to a private temporary folder for osra only while the task runs.
 */
import type { ThreadConfig } from '../config.ts';
import { checkImage, decodeImageText } from '../ocsr/image.ts';
import { readPicture, type OsraLimits } from '../ocsr/osra.ts';
import { readPdfFigures } from '../ocsr/pdf-figures.ts';
import { assertPdfSignature, decodeBase64Pdf, displayFilename } from '../pdf/upload.ts';
import type { OpTasks, TaskContext } from './types.ts';
import type { ocsrOps } from './ocsr.ts';

const limitsOf = (c: ThreadConfig): OsraLimits => ({ osra: c.OCSR_OSRA, timeoutMs: c.OCSR_TIMEOUT_MS, memoryMb: c.OCSR_MEMORY_MB });

async function read(text: string, what: string, ctx: TaskContext): Promise<string[]> {
  const c = ctx.config;
  const bytes = decodeImageText(text, c.OCSR_MAX_BYTES, what);
  const info = checkImage(bytes, { maxBytes: c.OCSR_MAX_BYTES, maxPixels: c.OCSR_MAX_PIXELS });
  return readPicture(bytes, info.format, limitsOf(c), ctx.signal);
}

export const ocsrTasks = {
  async ocsr_process(args, ctx) {
    // The schema admits a data: URL in path only when img is absent (web addresses are refused there).
    const text = args.img ?? args.path!;
    return { reference: args.reference ?? null, smiles: await read(text, args.img !== undefined ? 'img' : 'path', ctx) };
  },

  async ocsr_process_upload(args, ctx) {
    return { reference: null, smiles: await read(args.image_base64, 'The uploaded file', ctx) };
  },

  async ocsr_process_pdf(args, ctx) {
    const c = ctx.config;
    const pdf = decodeBase64Pdf(args.pdf_base64, c.UPLOAD_LIMIT);
    assertPdfSignature(pdf);
    const found = await readPdfFigures(pdf, {
      maxPages: Math.min(args.pages ?? c.PDF_MAX_PAGES, c.PDF_MAX_PAGES),
      maxImages: c.OCSR_PDF_MAX_IMAGES,
      maxPixels: c.OCSR_MAX_PIXELS,
      limits: limitsOf(c),
      signal: ctx.signal,
      progress: (done, of) => ctx.progress({ percent: of ? Math.round((100 * done) / of) : 100, images_read: done, images: of }),
    });
    return { pdf_filename: displayFilename(args.filename), ...found };
  },
} satisfies OpTasks<typeof ocsrOps>;
