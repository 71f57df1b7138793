/**
 * Structures in a PDF's figures: poppler's `pdfimages` lists the raster images of the leading
 * pages (PDF_MAX_PAGES at most), extracts them page by page as PNG into a private temporary
 * folder, and osra reads each (shared/ocsr/osra.ts), at most OCSR_PDF_MAX_IMAGES of them. Vector
 * drawings are not images and are not read (docs/ocsr.md). Every command is bounded as osra is;
 * a figure osra fails on keeps its error and the job goes on with the next one.
 */
import { rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../errors.ts';
import { findExecutable } from '../java-bridge.ts';
import { locateOsra, privateDir, readPictureFile, runBounded, type OsraLimits } from './osra.ts';

/** Images smaller than this each way are icons, rules or logos, never a readable structure. */
export const MIN_FIGURE_SIDE = 48;

export interface PdfFigure {
  page: number;
  /** pdfimages' number of the image in the document (its `-list` column `num`). */
  image: number;
  width: number;
  height: number;
  smiles: string[];
  /** Why osra gave no answer for this figure (its time limit, a crash); absent when it answered. */
  error?: string;
}

export interface PdfFigures {
  page_count: number;
  pages_read: number;
  images_found: number;
  images_read: number;
  truncated: boolean;
  figures: PdfFigure[];
}

export interface PdfFigureOptions {
  maxPages: number;
  maxImages: number;
  maxPixels: number;
  limits: OsraLimits;
  signal?: AbortSignal;
  progress?: (done: number, of: number) => void;
}

interface ListedImage {
  page: number;
  num: number;
  type: string;
  width: number;
  height: number;
}

/** The rows of `pdfimages -list` (after its two header lines). */
export function parseImageList(text: string): ListedImage[] {
  const rows: ListedImage[] = [];
  for (const line of text.split(/\r?\n/)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 5 || !/^\d+$/.test(f[0]) || !/^\d+$/.test(f[1])) continue;
    rows.push({ page: Number(f[0]), num: Number(f[1]), type: f[2], width: Number(f[3]), height: Number(f[4]) });
  }
  return rows;
}

function poppler(command: string): string {
  const found = findExecutable(command, process.env.PATH ?? '');
  if (!found) throw new AppError(422, `Reading a PDF's figures is not available here: ${command} is not installed; install poppler-utils (Debian/Ubuntu: apt-get install poppler-utils)`, 'toolkit_unavailable');
  return found;
}

export async function readPdfFigures(pdf: Uint8Array, o: PdfFigureOptions): Promise<PdfFigures> {
  const osra = locateOsra(o.limits.osra);
  const pdfinfo = poppler('pdfinfo');
  const pdfimages = poppler('pdfimages');
  const dir = await privateDir();
  const run = (label: string, file: string, args: string[]) => runBounded({ label, subject: 'this PDF', file, args }, dir, o.limits, o.signal);
  try {
    const doc = join(dir, 'document.pdf');
    await writeFile(doc, pdf, { mode: 0o600 });
    const info = await run('pdfinfo', pdfinfo, [doc]);
    const pageCount = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
    const pagesRead = Math.min(pageCount, o.maxPages);
    const listed = pagesRead > 0 ? parseImageList(await run('pdfimages', pdfimages, ['-list', '-f', '1', '-l', String(pagesRead), doc])) : [];
    const candidates = listed.filter((x) => x.type === 'image' && x.width >= MIN_FIGURE_SIDE && x.height >= MIN_FIGURE_SIDE);
    const chosen = candidates.slice(0, o.maxImages);
    const figures: PdfFigure[] = [];
    o.progress?.(0, chosen.length);
    for (const page of [...new Set(chosen.map((x) => x.page))]) {
      o.signal?.throwIfAborted();
      // pdfimages numbers the images of one page's run from 0, in the order of the document's list.
      const first = listed.find((x) => x.page === page)!.num;
      const prefix = join(dir, `p${page}`);
      await run('pdfimages', pdfimages, ['-png', '-f', String(page), '-l', String(page), doc, prefix]);
      try {
        for (const image of chosen.filter((x) => x.page === page)) {
          figures.push(await readFigure(osra, image, `${prefix}-${String(image.num - first).padStart(3, '0')}.png`, dir, o));
          o.progress?.(figures.length, chosen.length);
        }
      } finally {
        await Promise.all(listed.filter((x) => x.page === page).map((x) => rm(`${prefix}-${String(x.num - first).padStart(3, '0')}.png`, { force: true })));
      }
    }
    return {
      page_count: pageCount,
      pages_read: pagesRead,
      images_found: candidates.length,
      images_read: figures.length,
      truncated: pagesRead < pageCount || candidates.length > chosen.length,
      figures,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function readFigure(osra: string, image: ListedImage, file: string, dir: string, o: PdfFigureOptions): Promise<PdfFigure> {
  const figure = { page: image.page, image: image.num, width: image.width, height: image.height };
  if (image.width * image.height > o.maxPixels) {
    return { ...figure, smiles: [], error: `${image.width} × ${image.height} pixels: over OCSR_MAX_PIXELS (${o.maxPixels}), not read` };
  }
  try {
    if ((await stat(file)).size === 0) throw new Error('empty');
  } catch {
    return { ...figure, smiles: [], error: 'pdfimages wrote no picture for this image' };
  }
  try {
    return { ...figure, smiles: await readPictureFile(osra, file, dir, o.limits, o.signal) };
  } catch (e) {
    if (o.signal?.aborted) throw e;
    const err = AppError.from(e);
    if (!err || ![422, 503, 504].includes(err.status)) throw e;
    return { ...figure, smiles: [], error: typeof err.detail === 'string' ? err.detail : err.message };
  }
}
