/**
 * The "combined text" of a scientific article as the original service built it from Docling
 * output (docs/spec/chem-service.md §2.4 (34); upstream app/modules/docling_wrapper.py): title, abstract, and the main
 * text that follows the abstract up to the first RESULTS or DISCUSSION heading, skipping running
 * headers and footers; when that yields 10 words or fewer, all text of the pages read instead
 * (headers and footers included).
 */
import type { BlockLabel } from './labels.ts';
import type { PdfLayout } from './layout.ts';

interface Item {
  text: string;
  label: BlockLabel;
  level?: number;
}

export interface PaperParts {
  title: string;
  abstract: string;
  main: string;
}

const FURNITURE: ReadonlySet<BlockLabel> = new Set(['page_header', 'page_footer']);
const RUN_IN_ABSTRACT = /^abstract\b\s*[:.\u2014\u2013-]?\s*/i;
const STOP_HEADING = /RESULTS|DISCUSSION/;

function items(layout: PdfLayout, withFurniture = false): Item[] {
  return layout.pages.flatMap((p) => p.blocks.map((b, i) => ({ text: b.text.trim(), ...p.labels[i] })))
    .filter((it) => it.text !== '' && (withFurniture || !FURNITURE.has(it.label)));
}

export function paperParts(layout: PdfLayout): PaperParts {
  const all = items(layout);
  let titleAt = all.findIndex((it) => it.label === 'title');
  if (titleAt < 0) {
    titleAt = all.findIndex((it) => it.label === 'section_header' && it.level === 1
      && it.text.length > 10 && !it.text.toUpperCase().includes('RESULTS'));
  }
  const title = titleAt >= 0 ? all[titleAt].text : '';

  let abstract = '';
  let abstractEnd = -1;
  for (let i = 0; i < all.length && abstractEnd < 0; i++) {
    const it = all[i];
    if (it.label === 'section_header' && /^abstract[:.]?$/i.test(it.text)) {
      // A heading "Abstract": the abstract is the text up to the next heading.
      const body: string[] = [];
      let j = i + 1;
      for (; j < all.length && all[j].label !== 'section_header' && all[j].label !== 'title'; j++) body.push(all[j].text);
      abstract = body.join(' ');
      abstractEnd = j - 1;
    } else if (it.label !== 'section_header' && (RUN_IN_ABSTRACT.test(it.text) || it.text.includes('ABSTRACT:'))) {
      abstract = it.text.replace('ABSTRACT:', ' ').replace(RUN_IN_ABSTRACT, '').trim();
      abstractEnd = i;
    }
  }
  if (abstractEnd < 0) {
    const at = all.findIndex((it) => it.text.toLowerCase().includes('abstract'));
    if (at >= 0) [abstract, abstractEnd] = [all[at].text, at];
  }

  const main: string[] = [];
  const start = abstractEnd >= 0 ? abstractEnd + 1 : titleAt + 1;
  for (let i = start; i < all.length; i++) {
    const it = all[i];
    if (i === titleAt) continue;
    if (it.label === 'section_header' && STOP_HEADING.test(it.text.toUpperCase())) break;
    main.push(it.text);
  }
  return { title, abstract, main: main.join(' ') };
}

/** Whitespace collapsed and no space before punctuation, as the original service cleaned it. */
export function cleanText(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\s+([.,;:?!])/g, '$1').trim();
}

export function paperText(layout: PdfLayout): string {
  const { title, abstract, main } = paperParts(layout);
  const combined = cleanText([title, abstract, main].filter((s) => s.trim() !== '').join(' '));
  if (combined.split(' ').filter(Boolean).length > 10) return combined;
  // The fallback is the raw text of the pages read, running headers included (a short document's
  // only line can look like one), as the original service fell back to the page's raw text.
  return cleanText(items(layout, true).map((it) => it.text).join(' '));
}
