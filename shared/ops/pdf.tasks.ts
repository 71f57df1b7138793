/**
 * Worker tasks of the PDF family; see pdf.ts for the registry entries. The upload arrives
 * base64-encoded in the job arguments and lives only in this thread's memory while the task
 * runs: nothing is written to disk, and the pdfjs document is destroyed when the task ends.
 */
import { pdfDocument, pdfOrigin, type PdfOrigin } from '../pdf/document.ts';
import { pdfLayout, type PdfLayout } from '../pdf/layout.ts';
import { paperText } from '../pdf/paper-text.ts';
import { assertPdfSignature, decodeBase64Pdf, displayFilename } from '../pdf/upload.ts';
import type { OpTasks, TaskContext } from './types.ts';
import type { pdfOps } from './pdf.ts';

interface Args {
  pdf_base64: string;
  filename?: string;
  /** Leading pages to read; undefined = all (still capped by PDF_MAX_PAGES). */
  pages?: number;
}

async function readPdf(args: Args, ctx: TaskContext): Promise<{ layout: PdfLayout; origin: PdfOrigin; pageLimit: number }> {
  const config = ctx.config;
  const bytes = decodeBase64Pdf(args.pdf_base64, config.UPLOAD_LIMIT);
  assertPdfSignature(bytes);
  const origin = pdfOrigin(bytes, displayFilename(args.filename));
  const layout = await pdfLayout(bytes, {
    pages: args.pages,
    maxPages: config.PDF_MAX_PAGES,
    signal: ctx.signal,
    progress: (page, of) => ctx.progress({ percent: Math.round((100 * page) / of), page, pages: of }),
  });
  return { layout, origin, pageLimit: config.PDF_MAX_PAGES };
}

export const pdfTasks = {
  async extract_pdf_text(args: Args, ctx) {
    const { layout, origin } = await readPdf({ ...args, pages: args.pages ?? 1 }, ctx);
    return { text: paperText(layout), pdf_filename: origin.filename };
  },

  async extract_pdf_json(args: Args, ctx) {
    const { layout, origin, pageLimit } = await readPdf(args, ctx);
    return pdfDocument(layout, origin, pageLimit);
  },
} satisfies OpTasks<typeof pdfOps>;
