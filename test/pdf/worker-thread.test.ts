/**
 * The service runs tasks in Piscina worker threads; pdfjs must load and extract there too (its
 * Node build parses on the calling thread, which here is a worker thread, not the main one).
 */
import t from 'tap';
import { Piscina } from 'piscina';
import { standardArticle, writePaper } from './paper.ts';
import { extractText } from './call.ts';

const pool = new Piscina({ filename: new URL('./thread-entry.mjs', import.meta.url).href, minThreads: 1, maxThreads: 1 });
t.teardown(() => pool.destroy());

const paper = await writePaper(standardArticle(), { header: 'Running header', pageNumbers: true });
const args = { pdf_base64: Buffer.from(paper.bytes).toString('base64'), filename: 'in thread.pdf', pages: 2 };

t.test('extract_text in a worker thread answers as on the main thread', async (t) => {
  const r = await pool.run({ task: 'extract_pdf_text', args });
  t.equal(r.ok, true, JSON.stringify(r.error ?? ''));
  t.same(r.value, await extractText(paper.bytes, { filename: 'in thread.pdf', pages: 2 }));
  t.equal(r.value.pdf_filename, 'in_thread.pdf');
  t.same(r.progress.map((p: { page: number }) => p.page), [1, 2], 'progress per page');
});

t.test('extract_json twice on one thread (pdfjs state does not leak between tasks)', async (t) => {
  const first = await pool.run({ task: 'extract_pdf_json', args: { ...args, pages: undefined } });
  const second = await pool.run({ task: 'extract_pdf_json', args: { ...args, pages: undefined } });
  t.equal(first.ok && second.ok, true);
  t.equal(first.value.pages_read, 3);
  t.same(second.value, first.value);
});

t.test('errors cross the thread boundary with their status', async (t) => {
  const r = await pool.run({ task: 'extract_pdf_json', args: { pdf_base64: Buffer.from('not a pdf').toString('base64') } });
  t.same(r, { ok: false, error: { status: 400, detail: r.error.detail, message: r.error.detail } });
  t.match(r.error.detail, /^Uploaded file must be a PDF/);
});
