/**
 * Block labels from typography and position, in the vocabulary of DoclingDocument (the original
 * service's output): title, section_header (with a level), text, list_item, caption, footnote,
 * page_header, page_footer. Sizes are judged against the body text: the font size and font that
 * carry most characters of the pages read.
 */
import { CAPTION, LIST_MARKER, type TextBlock } from './blocks.ts';
import { dominant } from './lines.ts';

export type BlockLabel =
  | 'title' | 'section_header' | 'text' | 'list_item' | 'caption' | 'footnote' | 'page_header' | 'page_footer';

export interface PageBlocks {
  /** 1-based page number in the file. */
  pageNo: number;
  width: number;
  height: number;
  /** Blocks in reading order. */
  blocks: TextBlock[];
}

export interface BlockLabelling {
  label: BlockLabel;
  /** Heading level (1 = top) for section headers. */
  level?: number;
}

/** Share of the page height at the top and bottom where running headers and footers live. */
const MARGIN_ZONE = 0.08;
const FOOTNOTE_ZONE = 0.75;
const TITLE_MIN_RATIO = 1.2;
const HEADING_MIN_RATIO = 1.15;
const FOOTNOTE_MAX_RATIO = 0.85;
const CENTRED_HEADING_RATIO = 1.3;

/** Section names of scientific articles, recognised at any size when they stand alone. */
const SECTION_WORDS = new RegExp(
  '^(?:abstract|summary|graphical abstract|keywords?|introduction|background|methods?|materials and methods|' +
  'experimental(?: section| procedures?| part)?|results?|discussion|results and discussion|conclusions?|' +
  'conclusions and outlook|outlook|references|bibliography|acknowledge?ments?|supporting information|' +
  'associated content|author information|funding|notes|conflicts? of interest|data availability|abbreviations|appendix)$', 'i');
const NUMBERED = /^((?:\d{1,2}\.)*\d{1,2}|[IVX]{1,5})\.?\s+(?=\p{L})/u;
const PAGE_NUMBER = /^(?:page\s*)?\d{1,4}(?:\s*(?:of|\/)\s*\d{1,4})?$/i;

const norm = (text: string) => text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();

export function labelBlocks(pages: readonly PageBlocks[]): BlockLabelling[][] {
  const all = pages.flatMap((p) => p.blocks);
  if (all.length === 0) return pages.map(() => []);
  const weight = (b: TextBlock) => b.text.replace(/\s/g, '').length || 1;
  const bodySize = dominant(all, (b) => Math.round(b.size * 2) / 2, weight);
  const bodyFont = dominant(all.filter((b) => Math.abs(b.size - bodySize) <= 0.5), (b) => b.font, weight);

  const zone = (b: TextBlock, p: PageBlocks): 'top' | 'bottom' | undefined => {
    if (b.lines.some((l) => !l.horizontal)) {
      return b.x1 < 0.12 * p.width || b.x0 > 0.88 * p.width ? 'top' : undefined;
    }
    if (b.bottom <= (MARGIN_ZONE + 0.04) * p.height && b.top <= MARGIN_ZONE * p.height) return 'top';
    if (b.top >= (1 - MARGIN_ZONE - 0.04) * p.height && b.bottom >= (1 - MARGIN_ZONE) * p.height) return 'bottom';
    return undefined;
  };
  // Running text repeats (modulo page numbers) in the same margin on other pages.
  const seen = new Map<string, Set<number>>();
  for (const p of pages) {
    for (const b of p.blocks) {
      const z = zone(b, p);
      if (!z) continue;
      const key = `${z}:${norm(b.text)}`;
      seen.set(key, (seen.get(key) ?? new Set()).add(p.pageNo));
    }
  }
  const furniture = (b: TextBlock, p: PageBlocks): BlockLabel | undefined => {
    const z = zone(b, p);
    if (!z || b.lines.length > 2) return undefined;
    const repeated = (seen.get(`${z}:${norm(b.text)}`)?.size ?? 0) > 1;
    const modest = b.size <= bodySize * 1.05 || b.lines.some((l) => !l.horizontal);
    if (repeated || PAGE_NUMBER.test(b.text.trim()) || modest) return z === 'top' ? 'page_header' : 'page_footer';
    return undefined;
  };

  const labels: BlockLabelling[][] = pages.map((p) => p.blocks.map((b) => {
    const f = furniture(b, p);
    return f ? { label: f } : { label: 'text' as BlockLabel };
  }));

  // Title: the largest type in the upper half of the document's first page.
  const first = pages.findIndex((p) => p.pageNo === 1);
  if (first >= 0) {
    const p = pages[first];
    let best = -1;
    p.blocks.forEach((b, i) => {
      if (labels[first][i].label !== 'text' || b.top > p.height / 2 || b.lines.length > 4) return;
      if (b.size < bodySize * TITLE_MIN_RATIO || b.text.length < 3 || b.text.length > 400 || SECTION_WORDS.test(b.text)) return;
      if (best < 0 || b.size > p.blocks[best].size + 0.01) best = i;
    });
    if (best >= 0) labels[first][best] = { label: 'title' };
  }

  const headingSizes: number[] = [];
  pages.forEach((p, pi) => {
    const body = { size: bodySize, font: bodyFont, lefts: columnLefts(p, bodySize, bodyFont) };
    p.blocks.forEach((b, i) => {
      if (labels[pi][i].label !== 'text') return;
      labels[pi][i] = { label: classify(b, p, body) };
      if (labels[pi][i].label === 'section_header' && !NUMBERED.test(b.text)) headingSizes.push(b.size);
    });
  });

  // Unnumbered headings are ranked by size (within 5% counts as equal); numbered ones by depth.
  const ranks = [...new Set(headingSizes.map((s) => Math.round(s * 2) / 2))].sort((a, b) => b - a)
    .filter((s, i, arr) => i === 0 || s < arr[i - 1] * 0.95);
  pages.forEach((p, pi) => p.blocks.forEach((b, i) => {
    if (labels[pi][i].label !== 'section_header') return;
    const numbered = NUMBERED.exec(b.text);
    const level = numbered && /\d/.test(numbered[1])
      ? numbered[1].split('.').length
      : Math.max(1, ranks.findIndex((s) => b.size >= s * 0.95) + 1);
    labels[pi][i] = { label: 'section_header', level: Math.min(level, 6) };
  }));
  return labels;
}

interface Body {
  size: number;
  font: string;
  /** Left edges of the page's text columns, from its body-text blocks. */
  lefts: number[];
}

function columnLefts(p: PageBlocks, size: number, font: string): number[] {
  const body = p.blocks.filter((b) => b.font === font && Math.abs(b.size - size) <= 0.5 && b.lines.length > 1);
  return body.length ? body.map((b) => b.x0) : [Math.min(...p.blocks.map((b) => b.x0))];
}

function classify(b: TextBlock, p: PageBlocks, body: Body): BlockLabel {
  const text = b.text.trim();
  if (CAPTION.test(text)) return 'caption';
  if (isHeading(b, text, body)) return 'section_header';
  if (LIST_MARKER.test(text + ' ')) return 'list_item';
  if (b.size <= body.size * FOOTNOTE_MAX_RATIO && b.top >= FOOTNOTE_ZONE * p.height) return 'footnote';
  return 'text';
}

/**
 * Headings are short, do not end like a sentence, and stand out by size, by a font other than
 * the body font (pdfjs does not tell which font is bold), or by capitals; unless much larger they
 * start at a column's left edge, which keeps centred front matter (authors) out.
 */
function isHeading(b: TextBlock, text: string, body: Body): boolean {
  if (b.lines.length > 3 || text.length > 200 || !/\p{L}/u.test(text)) return false;
  const bare = text.replace(NUMBERED, '').replace(/[:.]$/, '').trim();
  if (SECTION_WORDS.test(bare)) return true;
  if (/[.,;]$/.test(text) || bare.split(/\s+/).length > 20) return false;
  if (LIST_MARKER.test(text + ' ') && !NUMBERED.test(text)) return false;
  const capitals = /\p{Lu}{2}/u.test(bare) && bare === bare.toUpperCase() && bare.split(/\s+/).length <= 8;
  if (capitals && b.lines.length === 1) return true;
  const aligned = body.lefts.some((x) => Math.abs(b.x0 - x) <= body.size);
  if (!aligned && b.size < body.size * CENTRED_HEADING_RATIO) return false;
  const larger = b.size >= body.size * HEADING_MIN_RATIO;
  const distinctFont = b.font !== body.font && b.size >= body.size * 0.95;
  return larger || (distinctFont && b.lines.length <= 2);
}
