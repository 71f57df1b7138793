/**
 * extract_text on articles written by the test itself (paper.ts): the answer must be exactly the
 * title, the abstract and the text after it up to the RESULTS/DISCUSSION heading, built here from
 * what was written on the pages read, never from the extractor's own output.
 */
import t from 'tap';
import { sentences, standardArticle, writePaper, type Paper, type Piece } from './paper.ts';
import { simplePages } from './samples.ts';
import { extractText } from './call.ts';

const HEADER = 'J. Test Nat. Prod. 2026, 12, 345-350';

/** The original service's combined text, from the written record of the first `pages` pages. */
function expected(paper: Paper, pages: number): string {
  const blocks = paper.pages.slice(0, pages).flatMap((p) => p.blocks).filter((b) => b.kind !== 'header' && b.kind !== 'footer');
  const title = blocks.find((b) => b.kind === 'title')?.text ?? '';
  let at = blocks.findIndex((b) => b.kind === 'heading' && b.text === 'Abstract');
  let abstract: string;
  if (at >= 0) {
    at += 1;
    abstract = blocks[at].text;
  } else {
    at = blocks.findIndex((b) => b.text.startsWith('ABSTRACT: '));
    abstract = blocks[at].text.slice('ABSTRACT: '.length);
  }
  const main: string[] = [];
  for (const b of blocks.slice(at + 1)) {
    if (b.kind === 'heading' && /RESULTS|DISCUSSION/.test(b.text.toUpperCase())) break;
    main.push(b.text);
  }
  return [title, abstract, ...main].join(' ');
}

const single = await writePaper(standardArticle(), { header: HEADER, pageNumbers: true });
const double = await writePaper(standardArticle(), { header: HEADER, pageNumbers: true, columns: 2 });

t.test('the generated article spans several pages, with the RESULTS heading on page 2', async (t) => {
  t.equal(single.pages.length, 3);
  t.ok(single.pages[1].blocks.some((b) => b.text === '3. Results'));
  t.ok(double.pages[1].blocks.some((b) => b.text === '3. Results'));
});

t.test('pages defaults to 1, as in the original service', async (t) => {
  const r = await extractText(single.bytes, { filename: 'natural product paper.pdf' });
  t.equal(r.text, expected(single, 1));
  t.equal(r.pdf_filename, 'natural_product_paper.pdf');
  t.notOk(r.text.includes('Extraction and isolation'), 'nothing from page 2');
});

t.test('pages=2 reads on until the RESULTS heading; more pages add nothing after it', async (t) => {
  const two = await extractText(single.bytes, { pages: 2 });
  t.equal(two.text, expected(single, 2));
  t.ok(two.text.includes('2.2 Extraction and isolation'));
  t.notOk(two.text.includes('3. Results'));
  const all = await extractText(single.bytes, { pages: 3 });
  t.equal(all.text, two.text);
  t.equal((await extractText(single.bytes, { pages: '2' })).text, two.text, 'pages as a form-field string');
});

t.test('two-column layout: same words in the same order as written', async (t) => {
  t.equal((await extractText(double.bytes, { pages: 1 })).text, expected(double, 1));
  t.equal((await extractText(double.bytes, { pages: 3 })).text, expected(double, 3));
});

t.test('run-in "ABSTRACT:" paragraph; an upper-case heading is kept, a Discussion heading ends the text', async (t) => {
  const pieces: Piece[] = [
    { kind: 'title', text: 'Sesquiterpene Lactones of a Mountain Daisy' },
    { kind: 'authors', text: 'Jane Doe and John Roe' },
    { kind: 'abstract', text: sentences(21, 5), style: 'run-in' },
    { kind: 'heading', text: 'INTRODUCTION', level: 1 },
    { kind: 'paragraph', text: sentences(22, 6) },
    { kind: 'paragraph', text: sentences(23, 4) },
    { kind: 'heading', text: 'Discussion', level: 1 },
    { kind: 'paragraph', text: sentences(24, 6) },
  ];
  const paper = await writePaper(pieces);
  const r = await extractText(paper.bytes);
  t.equal(r.text, expected(paper, 1));
  t.notOk(r.text.includes('ABSTRACT'), 'prefix removed');
  t.ok(r.text.startsWith('Sesquiterpene Lactones of a Mountain Daisy '));
  t.ok(r.text.includes(' INTRODUCTION '));
  t.notOk(r.text.includes('Discussion'));
});

t.test('10 words or fewer: all text of the pages read instead', async (t) => {
  const bytes = await simplePages(['Only five words are here', 'and three more', 'never read']);
  t.equal((await extractText(bytes, { pages: 2 })).text, 'Only five words are here and three more');
  t.equal((await extractText(bytes)).text, 'Only five words are here');
});

t.test('filenames are echoed without directories', async (t) => {
  const bytes = await simplePages(['x']);
  t.equal((await extractText(bytes, { filename: '../../etc/my paper.PDF' })).pdf_filename, 'my_paper.PDF');
  t.equal((await extractText(bytes, { filename: 'C:\\Users\\x\\a.pdf' })).pdf_filename, 'a.pdf');
  t.equal((await extractText(bytes)).pdf_filename, 'document.pdf');
});
