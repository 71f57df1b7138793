/**
 * Independent reference: poppler's pdftotext (Debian poppler-utils) on the same generated files.
 * Per page, the words we extract must be exactly pdftotext's words, in pdftotext's reading order
 * (its default mode also reads multi-column pages column by column).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { sentences, standardArticle, writePaper, type Piece } from './paper.ts';
import { extractJson } from './call.ts';
import { skipAll } from '../helpers/skip.ts';

const probe = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
if (probe.error) {
  skipAll(t, 'pdftotext is not installed (Debian poppler-utils): no cross-check against poppler');
  process.exit(0);
}
t.comment(`reference: ${(probe.stderr || probe.stdout).split('\n')[0]}`);

const dir = mkdtempSync(join(tmpdir(), 'natprod-pdftotext-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

function popplerWords(bytes: Uint8Array, page: number): string[] {
  const file = join(dir, 'in.pdf');
  writeFileSync(file, bytes);
  const r = spawnSync('pdftotext', ['-f', String(page), '-l', String(page), '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pdftotext failed: ${r.stderr}`);
  return r.stdout.split(/\s+/).filter(Boolean);
}

const longArticle: Piece[] = [
  ...standardArticle(),
  ...Array.from({ length: 6 }, (_, i): Piece[] => [
    { kind: 'heading', text: `${5 + i}. Further results on fraction ${i + 1}`, level: 1 },
    { kind: 'paragraph', text: sentences(100 + i, 18) },
    { kind: 'paragraph', text: sentences(200 + i, 9), wordByWord: i % 2 === 0 },
  ]).flat(),
];

const cases = [
  { what: 'single column', opts: { header: 'Running header 2026', pageNumbers: true } },
  { what: 'two columns', opts: { header: 'Running header 2026', pageNumbers: true, columns: 2 as const } },
];

let pagesCompared = 0;
let wordsCompared = 0;
for (const { what, opts } of cases) {
  t.test(what, async (t) => {
    const paper = await writePaper(longArticle, opts);
    const doc = await extractJson(paper.bytes);
    t.ok(doc.pages_read >= 4, `${doc.pages_read} pages`);
    for (const page of doc.pages) {
      const ours = page.blocks.map((id) => doc.blocks.find((b) => b.id === id)!.text).join(' ').split(/\s+/).filter(Boolean);
      const theirs = popplerWords(paper.bytes, page.page_no);
      t.same(ours, theirs, `page ${page.page_no}: ${theirs.length} words, same order`);
      pagesCompared++;
      wordsCompared += theirs.length;
    }
  });
}
t.teardown(() => console.log(`# compared ${pagesCompared} pages, ${wordsCompared} words with pdftotext`));
