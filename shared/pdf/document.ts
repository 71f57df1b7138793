/**
 * The JSON answer of extract_json: a structured document derived from the layout (schema
 * `natprod.PdfDocument` 1.0, described in docs/pdf.md). Block labels follow DoclingDocument's
 * vocabulary so clients of the original service recognise them; the container is our own.
 */
import { createHash } from 'node:crypto';
import type { BlockLabel } from './labels.ts';
import type { PdfLayout } from './layout.ts';
import type { PdfInfo } from './load.ts';

export const SCHEMA_NAME = 'natprod.PdfDocument';
export const SCHEMA_VERSION = '1.0.0';

export interface BBox {
  l: number;
  t: number;
  r: number;
  b: number;
  coord_origin: 'TOPLEFT';
}

export interface DocBlock {
  /** `#/blocks/<n>`; n is also the block's position in reading order. */
  id: string;
  order: number;
  page_no: number;
  label: BlockLabel;
  /** Section headers only: 1 = top level. */
  level?: number;
  text: string;
  bbox: BBox;
  /** Size in points of the type carrying most characters. */
  font_size: number;
  /** Document-local font id (`f1`, `f2`, ...): equal ids are the same embedded font. */
  font: string;
  line_count: number;
}

export interface DocPage {
  page_no: number;
  size: { width: number; height: number };
  rotation: number;
  /** Ids of the page's blocks in reading order. */
  blocks: string[];
}

export interface PdfJsonDocument {
  schema_name: typeof SCHEMA_NAME;
  version: typeof SCHEMA_VERSION;
  name: string;
  origin: { filename: string; mimetype: 'application/pdf'; binary_hash: string; size_bytes: number };
  metadata: PdfInfo;
  page_count: number;
  pages_read: number;
  /** True when fewer pages were read than the file has (the `pages` argument or PDF_MAX_PAGES). */
  truncated: boolean;
  page_limit: number;
  title: string | null;
  pages: DocPage[];
  blocks: DocBlock[];
  headings: { block: string; page_no: number; level: number; text: string }[];
}

const r2 = (v: number) => Math.round(v * 100) / 100;

export type PdfOrigin = PdfJsonDocument['origin'];

/** Computed before the file is opened: pdfjs takes over (detaches) the buffer it is given. */
export function pdfOrigin(bytes: Uint8Array, filename: string): PdfOrigin {
  return {
    filename,
    mimetype: 'application/pdf',
    binary_hash: createHash('sha256').update(bytes).digest('hex'),
    size_bytes: bytes.length,
  };
}

export function pdfDocument(layout: PdfLayout, origin: PdfOrigin, pageLimit: number): PdfJsonDocument {
  const fonts = new Map<string, string>();
  const fontId = (name: string) => {
    if (!fonts.has(name)) fonts.set(name, `f${fonts.size + 1}`);
    return fonts.get(name)!;
  };
  const blocks: DocBlock[] = [];
  const pages: DocPage[] = layout.pages.map((p) => {
    const ids = p.blocks.map((b, i) => {
      const order = blocks.length;
      const { label, level } = p.labels[i];
      blocks.push({
        id: `#/blocks/${order}`,
        order,
        page_no: p.pageNo,
        label,
        ...(level !== undefined ? { level } : {}),
        text: b.text,
        bbox: { l: r2(b.x0), t: r2(b.top), r: r2(b.x1), b: r2(b.bottom), coord_origin: 'TOPLEFT' },
        font_size: r2(b.size),
        font: fontId(b.font),
        line_count: b.lines.length,
      });
      return `#/blocks/${order}`;
    });
    return { page_no: p.pageNo, size: { width: r2(p.width), height: r2(p.height) }, rotation: p.rotation, blocks: ids };
  });
  return {
    schema_name: SCHEMA_NAME,
    version: SCHEMA_VERSION,
    name: origin.filename.replace(/\.pdf$/i, ''),
    origin,
    metadata: layout.info,
    page_count: layout.pageCount,
    pages_read: layout.pages.length,
    truncated: layout.pages.length < layout.pageCount,
    page_limit: pageLimit,
    title: blocks.find((b) => b.label === 'title')?.text ?? null,
    pages,
    blocks,
    headings: blocks.filter((b) => b.label === 'section_header')
      .map((b) => ({ block: b.id, page_no: b.page_no, level: b.level ?? 1, text: b.text })),
  };
}
