/**
 * Writes article-like PDFs with pdf-lib and records exactly what was written where: every
 * block's kind, text and box on its page, in the order a reader reads them. Tests compare the
 * extractor's output with this record, so expected values never come from the extractor itself.
 */
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';

export type WrittenKind = 'title' | 'authors' | 'heading' | 'paragraph' | 'list_item' | 'caption' | 'header' | 'footer';

export interface WrittenBlock {
  kind: WrittenKind;
  text: string;
  /** Heading level (1 for "2. Methods", 2 for "2.1 Plant material"). */
  level?: number;
  /** Box on the page, top-left origin, from the font's ascender/descender. */
  box: { l: number; t: number; r: number; b: number };
  size: number;
}

export interface WrittenPage {
  pageNo: number;
  blocks: WrittenBlock[];
}

export interface Paper {
  bytes: Uint8Array;
  pages: WrittenPage[];
}

export type Piece =
  | { kind: 'title' | 'authors'; text: string }
  | { kind: 'abstract'; text: string; style: 'heading' | 'run-in' }
  | { kind: 'heading'; text: string; level: number }
  | { kind: 'paragraph'; text: string; wordByWord?: boolean }
  | { kind: 'list_item'; text: string }
  | { kind: 'caption'; text: string };

export interface PaperOptions {
  header?: string;
  /** Footer "Page N" on every page. */
  pageNumbers?: boolean;
  columns?: 1 | 2;
}

const W = 612;
const H = 792;
const MARGIN = 72;
const BOTTOM = 72;
const HEADER_Y = H - 40;
const FOOTER_Y = 34;

/** Deterministic words for body text (mulberry32 PRNG), so runs are reproducible. */
export function sentences(seed: number, count: number): string {
  const vocab = ('compound extract isolated structure spectra alkaloid terpene glycoside yield fraction column ' +
    'methanol bark leaves elucidated natural product activity assay cytotoxic against cell lines showed moderate ' +
    'inhibition purified chromatography silica gel eluted gradient afforded new known derivatives configuration ' +
    'determined analysis data indicated presence ring system moiety linked position signals observed spectrum ' +
    'correlations confirmed absolute relative stereochemistry comparison literature values previously reported').split(' ');
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = 8 + Math.floor(rand() * 9);
    const words = Array.from({ length: n }, () => vocab[Math.floor(rand() * vocab.length)]);
    words[0] = words[0][0].toUpperCase() + words[0].slice(1);
    if (n > 10) words[4] += ',';
    out.push(words.join(' ') + '.');
  }
  return out.join(' ');
}

interface Style {
  font: PDFFont;
  size: number;
  leading: number;
  before: number;
  after: number;
  align: 'left' | 'center';
  indent?: number;
}

export async function writePaper(pieces: readonly Piece[], opts: PaperOptions = {}): Promise<Paper> {
  const doc = await PDFDocument.create();
  const f = {
    sans: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    serif: await doc.embedFont(StandardFonts.TimesRoman),
    italic: await doc.embedFont(StandardFonts.TimesRomanItalic),
  };
  const styles: Record<string, Style> = {
    title: { font: f.bold, size: 20, leading: 24, before: 0, after: 10, align: 'center' },
    authors: { font: f.sans, size: 11, leading: 14, before: 0, after: 18, align: 'center' },
    heading1: { font: f.bold, size: 12, leading: 15, before: 10, after: 4, align: 'left' },
    heading2: { font: f.bold, size: 10.5, leading: 13, before: 6, after: 3, align: 'left' },
    paragraph: { font: f.serif, size: 10, leading: 12, before: 0, after: 6, align: 'left' },
    list_item: { font: f.serif, size: 10, leading: 12, before: 0, after: 3, align: 'left', indent: 14 },
    caption: { font: f.italic, size: 9, leading: 11, before: 4, after: 8, align: 'left' },
  };
  const columns = opts.columns ?? 1;
  const gutter = 24;
  const colWidth = (W - 2 * MARGIN - (columns - 1) * gutter) / columns;

  const pages: WrittenPage[] = [];
  let page!: PDFPage;
  let y = 0;
  let col = 0;
  let written!: WrittenPage;
  let spanTop = 0;

  const furniture = () => {
    if (opts.header) {
      const size = 8;
      page.drawText(opts.header, { x: MARGIN, y: HEADER_Y, size, font: f.sans });
      written.blocks.push(box('header', opts.header, MARGIN, MARGIN + advance(opts.header, f.sans, size), HEADER_Y, size, f.sans));
    }
  };
  const newPage = () => {
    if (page && opts.pageNumbers) footer();
    page = doc.addPage([W, H]);
    written = { pageNo: pages.length + 1, blocks: [] };
    pages.push(written);
    furniture();
    y = H - MARGIN;
    spanTop = y;
    col = 0;
  };
  const footer = () => {
    const text = `Page ${written.pageNo}`;
    const size = 8;
    const width = f.sans.widthOfTextAtSize(text, size);
    page.drawText(text, { x: (W - width) / 2, y: FOOTER_Y, size, font: f.sans });
    written.blocks.push(box('footer', text, (W - width) / 2, (W - width) / 2 + advance(text, f.sans, size), FOOTER_Y, size, f.sans));
  };
  const nextColumn = () => {
    if (columns === 2 && col === 0) {
      col = 1;
      y = spanTop;
    } else newPage();
  };

  /** Lay out one block, continuing on the next column or page when it does not fit. */
  const place = (kind: WrittenKind, text: string, style: Style, fullWidth: boolean, extra: Partial<WrittenBlock> = {}, wordByWord = false) => {
    const width = fullWidth ? W - 2 * MARGIN : colWidth;
    const indent = style.indent ?? 0;
    const lines = wrap(text, style.font, style.size, width - indent, kind === 'list_item' ? 14 : 0);
    y -= style.before;
    let piece: { lines: string[]; x0: number; x1: number; top: number; bottom: number } | undefined;
    const flush = () => {
      if (!piece) return;
      written.blocks.push({
        kind, text: piece.lines.join(' '), ...extra, size: style.size,
        box: { l: piece.x0, t: piece.top, r: piece.x1, b: piece.bottom },
      });
      piece = undefined;
    };
    for (const [i, line] of lines.entries()) {
      if (y - style.leading < BOTTOM) {
        flush();
        nextColumn();
      }
      y -= style.leading;
      const lineWidth = style.font.widthOfTextAtSize(line, style.size);
      const left = fullWidth ? MARGIN : MARGIN + col * (colWidth + gutter);
      const x = style.align === 'center' ? left + (width - lineWidth) / 2 : left + (i === 0 ? 0 : indent);
      let right = x + advance(line, style.font, style.size);
      if (wordByWord) {
        let cx = x;
        for (const word of line.split(' ')) {
          page.drawText(word, { x: cx, y, size: style.size, font: style.font });
          right = cx + advance(word, style.font, style.size);
          cx += style.font.widthOfTextAtSize(word + ' ', style.size);
        }
      } else page.drawText(line, { x, y, size: style.size, font: style.font });
      const b = box(kind, line, x, right, y, style.size, style.font).box;
      piece ??= { lines: [], x0: b.l, x1: b.r, top: b.t, bottom: b.b };
      piece.lines.push(line);
      Object.assign(piece, { x0: Math.min(piece.x0, b.l), x1: Math.max(piece.x1, b.r), bottom: b.b });
    }
    flush();
    y -= style.after;
  };

  newPage();
  for (const p of pieces) {
    switch (p.kind) {
      case 'title':
      case 'authors':
        place(p.kind, p.text, styles[p.kind], true);
        spanTop = y;
        break;
      case 'abstract':
        if (p.style === 'heading') {
          place('heading', 'Abstract', styles.heading1, columns === 1, { level: 1 });
          place('paragraph', p.text, styles.paragraph, columns === 1);
        } else place('paragraph', `ABSTRACT: ${p.text}`, styles.paragraph, columns === 1);
        break;
      case 'heading':
        place('heading', p.text, p.level === 1 ? styles.heading1 : styles.heading2, false, { level: p.level });
        break;
      case 'paragraph':
        place('paragraph', p.text, styles.paragraph, false, {}, p.wordByWord);
        break;
      case 'list_item':
        place('list_item', `• ${p.text}`, styles.list_item, false);
        break;
      case 'caption':
        place('caption', p.text, styles.caption, false);
        break;
    }
  }
  if (opts.pageNumbers) footer();
  return { bytes: await doc.save({ useObjectStreams: false }), pages };
}

/** Advance of `text` as drawText sets it: glyph widths only (widthOfTextAtSize also subtracts kerning pairs). */
function advance(text: string, font: PDFFont, size: number): number {
  return [...text].reduce((sum, ch) => sum + font.widthOfTextAtSize(ch, size), 0);
}

function box(kind: WrittenKind, text: string, x0: number, x1: number, baseline: number, size: number, font: PDFFont): WrittenBlock {
  const ascent = font.heightAtSize(size, { descender: false });
  const descent = font.heightAtSize(size) - ascent;
  return { kind, text, size, box: { l: x0, t: H - baseline - ascent, r: x1, b: H - baseline + descent } };
}

/** Greedy word wrap; list items keep their hanging indent after the first line. */
function wrap(text: string, font: PDFFont, size: number, width: number, hang: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word;
    const limit = lines.length === 0 ? width + hang : width;
    if (line && font.widthOfTextAtSize(candidate, size) > limit) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

/** The article used by most tests: three-plus pages, headings at two levels, list, caption. */
export function standardArticle(): Piece[] {
  return [
    { kind: 'title', text: 'Cytotoxic Alkaloids from the Bark of a Tropical Tree Species Collected in the Lowland Rainforest' },
    { kind: 'authors', text: 'Ada Lovelace, Marie Curie and Rosalind Franklin' },
    { kind: 'abstract', text: sentences(1, 6), style: 'heading' },
    { kind: 'heading', text: '1. Introduction', level: 1 },
    { kind: 'paragraph', text: sentences(2, 7) },
    { kind: 'paragraph', text: sentences(3, 6), wordByWord: true },
    { kind: 'heading', text: '2. Materials and Methods', level: 1 },
    { kind: 'heading', text: '2.1 Plant material', level: 2 },
    { kind: 'paragraph', text: sentences(4, 8) },
    { kind: 'list_item', text: sentences(5, 1) },
    { kind: 'list_item', text: sentences(6, 2) },
    { kind: 'list_item', text: sentences(7, 1) },
    { kind: 'heading', text: '2.2 Extraction and isolation', level: 2 },
    { kind: 'paragraph', text: sentences(8, 12) },
    { kind: 'caption', text: `Figure 1. ${sentences(9, 2)}` },
    { kind: 'paragraph', text: sentences(10, 10) },
    { kind: 'heading', text: '3. Results', level: 1 },
    { kind: 'paragraph', text: sentences(11, 14) },
    { kind: 'paragraph', text: sentences(12, 12) },
    { kind: 'heading', text: '4. Discussion', level: 1 },
    { kind: 'paragraph', text: sentences(13, 16) },
    { kind: 'paragraph', text: sentences(14, 16) },
    { kind: 'paragraph', text: sentences(15, 12) },
  ];
}
