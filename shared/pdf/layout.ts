/**
 * The layout of the leading pages of a PDF: per page its size and its text blocks in reading
 * order, each with a label. This is the one pass over the file that both operations share.
 */
import { textBlocks, type TextBlock } from './blocks.ts';
import { labelBlocks, type BlockLabelling } from './labels.ts';
import { textLines } from './lines.ts';
import { pageError, readInfo, withPdf, type PdfInfo } from './load.ts';
import { readingOrder } from './order.ts';
import { textRuns } from './runs.ts';

export interface LayoutPage {
  pageNo: number;
  width: number;
  height: number;
  /** Page rotation in degrees (0, 90, 180, 270); coordinates are those of the rotated page. */
  rotation: number;
  blocks: TextBlock[];
  labels: BlockLabelling[];
}

export interface PdfLayout {
  /** Pages in the file. */
  pageCount: number;
  pages: LayoutPage[];
  info: PdfInfo;
}

export interface LayoutOptions {
  /** Leading pages wanted; undefined = all. */
  pages?: number;
  /** Most pages read whatever was asked (PDF_MAX_PAGES). */
  maxPages: number;
  signal: AbortSignal;
  progress?: (page: number, of: number) => void;
}

export async function pdfLayout(bytes: Uint8Array, opts: LayoutOptions): Promise<PdfLayout> {
  return withPdf(bytes, opts.signal, async (doc) => {
    const wanted = Math.min(doc.numPages, opts.pages ?? doc.numPages, opts.maxPages);
    const info = await readInfo(doc);
    const pages: Omit<LayoutPage, 'labels'>[] = [];
    for (let pageNo = 1; pageNo <= wanted; pageNo++) {
      opts.signal.throwIfAborted();
      try {
        // No per-page cleanup(): it slows text extraction by a third, and everything pdfjs keeps
        // per page (about 70 KB) goes when the document is destroyed at the end of the task.
        const page = await doc.getPage(pageNo);
        const viewport = page.getViewport({ scale: 1 });
        const content = await page.getTextContent();
        const blocks = readingOrder(textBlocks(textLines(textRuns(content, viewport.transform))));
        pages.push({ pageNo, width: viewport.width, height: viewport.height, rotation: page.rotate, blocks });
      } catch (e) {
        opts.signal.throwIfAborted();
        throw pageError(pageNo, e);
      }
      opts.progress?.(pageNo, wanted);
    }
    const labels = labelBlocks(pages);
    return { pageCount: doc.numPages, info, pages: pages.map((p, i) => ({ ...p, labels: labels[i] })) };
  });
}
