/**
 * extract_json on articles written by the test itself (paper.ts): every page's blocks must come
 * out in the written reading order with the written text, the label matching what was written
 * (title, heading, paragraph, list item, caption, running header and footer), and a bounding box
 * within a few points of where pdf-lib put the glyphs.
 */
import { createHash } from 'node:crypto';
import t from 'tap';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import { standardArticle, writePaper, type Paper, type WrittenKind } from './paper.ts';
import { extractJson, withEnv } from './call.ts';
import type { PdfJsonDocument } from '../../shared/pdf/document.ts';

const LABEL: Record<WrittenKind, string> = {
  title: 'title',
  authors: 'text',
  heading: 'section_header',
  paragraph: 'text',
  list_item: 'list_item',
  caption: 'caption',
  header: 'page_header',
  footer: 'page_footer',
};

function comparePages(t: Tap, doc: PdfJsonDocument, paper: Paper, pages: number): void {
  t.equal(doc.pages.length, pages, 'pages read');
  for (const page of doc.pages) {
    const written = paper.pages[page.page_no - 1].blocks;
    const got = page.blocks.map((id) => doc.blocks.find((b) => b.id === id)!);
    t.same(got.map((b) => b.text), written.map((w) => w.text), `page ${page.page_no}: texts in reading order`);
    t.same(got.map((b) => b.label), written.map((w) => LABEL[w.kind]), `page ${page.page_no}: labels`);
    t.same(got.map((b) => b.level ?? null), written.map((w) => w.level ?? null), `page ${page.page_no}: heading levels`);
    got.forEach((b, i) => {
      const w = written[i];
      if (!w) return;
      const { l, t: top, r, b: bottom } = w.box;
      const ok = Math.abs(b.bbox.l - l) <= 1 && Math.abs(b.bbox.r - r) <= Math.max(1.5, 0.01 * (r - l))
        && Math.abs(b.bbox.t - top) <= 0.25 * w.size && Math.abs(b.bbox.b - bottom) <= 0.1 * w.size + 0.5;
      if (!ok) t.fail(`page ${page.page_no} block ${i} bbox ${JSON.stringify(b.bbox)} vs written ${JSON.stringify(w.box)}`);
      if (Math.abs(b.font_size - w.size) > 0.01) t.fail(`page ${page.page_no} block ${i} font size ${b.font_size} vs ${w.size}`);
    });
  }
}
type Tap = Pick<typeof t, 'equal' | 'same' | 'fail'>;

const HEADER = 'J. Test Nat. Prod. 2026, 12, 345-350';
const single = await writePaper(standardArticle(), { header: HEADER, pageNumbers: true });
const double = await writePaper(standardArticle(), { header: HEADER, pageNumbers: true, columns: 2 });

t.test('single column: all pages by default, blocks as written', async (t) => {
  const doc = await extractJson(single.bytes, { filename: 'paper.pdf' });
  t.equal(doc.schema_name, 'natprod.PdfDocument');
  t.equal(doc.version, '1.0.0');
  t.equal(doc.name, 'paper');
  t.same(doc.origin, {
    filename: 'paper.pdf', mimetype: 'application/pdf', size_bytes: single.bytes.length,
    binary_hash: createHash('sha256').update(single.bytes).digest('hex'),
  });
  t.equal(doc.page_count, 3);
  t.equal(doc.pages_read, 3);
  t.equal(doc.truncated, false);
  t.same(doc.pages.map((p) => p.size), [1, 2, 3].map(() => ({ width: 612, height: 792 })));
  comparePages(t, doc, single, 3);
  t.same(doc.blocks.map((b) => b.order), doc.blocks.map((_, i) => i), 'order is the position in blocks');
  t.equal(doc.title, standardArticle()[0].kind === 'title' ? single.pages[0].blocks[1].text : null);
  const headings = single.pages.flatMap((p) => p.blocks).filter((b) => b.kind === 'heading');
  t.same(doc.headings.map((h) => [h.text, h.level]), headings.map((h) => [h.text, h.level]), 'outline');
  const fonts = new Set(doc.blocks.map((b) => b.font));
  t.equal(fonts.size, 4, 'four embedded fonts were used (Helvetica, Helvetica-Bold, Times-Roman, Times-Italic)');
});

t.test('two columns: left column before right column', async (t) => {
  const doc = await extractJson(double.bytes);
  comparePages(t, doc, double, 3);
});

t.test('pages is honoured; PDF_MAX_PAGES caps it', async (t) => {
  const one = await extractJson(single.bytes, { pages: 1 });
  t.equal(one.pages_read, 1);
  t.equal(one.page_count, 3);
  t.equal(one.truncated, true);
  t.ok(one.blocks.every((b) => b.page_no === 1));
  comparePages(t, one, single, 1);
  await withEnv({ PDF_MAX_PAGES: '2' }, async () => {
    for (const pages of [undefined, 3, 50]) {
      const capped = await extractJson(single.bytes, pages === undefined ? {} : { pages });
      t.equal(capped.pages_read, 2, `pages=${pages} capped at 2`);
      t.equal(capped.page_limit, 2);
      t.equal(capped.truncated, true);
    }
  });
});

t.test('document information and a rotated (landscape) page', async (t) => {
  const pdf = await PDFDocument.create();
  pdf.setTitle('A Landscape Table');
  pdf.setAuthor('R. Franklin');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  page.setRotation(degrees(90));
  // Rotating the text with the page makes it read horizontally on the displayed page.
  page.drawText('Upright words on a landscape page', { x: 100, y: 72, size: 14, font, rotate: degrees(90) });
  const doc = await extractJson(await pdf.save());
  t.equal(doc.metadata.title, 'A Landscape Table');
  t.equal(doc.metadata.author, 'R. Franklin');
  t.ok(doc.metadata.creation_date && !Number.isNaN(Date.parse(doc.metadata.creation_date)));
  t.same(doc.pages[0].size, { width: 792, height: 612 });
  t.equal(doc.pages[0].rotation, 90);
  t.equal(doc.blocks.length, 1);
  t.equal(doc.blocks[0].text, 'Upright words on a landscape page');
  // Displayed page: user-space (x, y) maps to (y, x) under a 90-degree rotation.
  const width = font.widthOfTextAtSize('Upright words on a landscape page', 14);
  t.ok(Math.abs(doc.blocks[0].bbox.l - 72) <= 1 && Math.abs(doc.blocks[0].bbox.r - (72 + width)) <= 1.5, 'horizontal extent');
  t.ok(Math.abs(doc.blocks[0].bbox.b - (100 + 0.25 * 14)) <= 0.2 * 14, 'baseline near x=100 of the unrotated page');
});
