/**
 * What the PDF operations answer for input that is not a readable PDF, and the task contract:
 * page cap, progress per page, cancellation, size limit, argument validation.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { AppError } from '../../shared/errors.ts';
import { pdfOps } from '../../shared/ops/pdf.ts';
import { standardArticle, writePaper } from './paper.ts';
import { blankPages, passwordProtected, simplePages } from './samples.ts';
import { appError, call, extractJson, extractText, JSON_OP, TEXT_OP, withEnv } from './call.ts';

const paper = await writePaper(standardArticle(), { header: 'Running header', pageNumbers: true });
const ops = [TEXT_OP, JSON_OP];

t.test('not a PDF: 400 in the words of the original service', async (t) => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  for (const name of ops) {
    for (const bytes of [png, Buffer.from('hello, this is plain text'), Buffer.from('%PD')]) {
      const err = await appError(call(name, { pdf_base64: bytes.toString('base64'), filename: 'x.pdf' }));
      t.equal(err?.status, 400, `${name}: ${bytes.subarray(0, 4).toString('hex')}`);
      t.match(String(err?.detail), /^Uploaded file must be a PDF/);
    }
  }
});

t.test('truncated or corrupt PDF: 422 naming the problem', async (t) => {
  const samples: [string, Uint8Array][] = [
    ['first 60%', paper.bytes.subarray(0, Math.floor(paper.bytes.length * 0.6))],
    ['first 97%', paper.bytes.subarray(0, Math.floor(paper.bytes.length * 0.97))],
    ['header then garbage', Buffer.from('%PDF-1.7\n' + 'garbage '.repeat(200))],
  ];
  for (const name of ops) {
    for (const [what, bytes] of samples) {
      const err = await appError(call(name, { pdf_base64: Buffer.from(bytes).toString('base64') }));
      t.equal(err?.status, 422, `${name}: ${what}`);
      t.match(String(err?.detail), /corrupt or truncated/);
    }
  }
});

t.test('password-protected PDF: 422 (poppler agrees it needs a password)', async (t) => {
  const bytes = await passwordProtected(await simplePages(['secret words']));
  for (const name of ops) {
    const err = await appError(call(name, { pdf_base64: Buffer.from(bytes).toString('base64') }));
    t.equal(err?.status, 422, name);
    t.match(String(err?.detail), /encrypted and needs a password/);
  }
  const probe = spawnSync('pdfinfo', ['-v']);
  if (probe.error) return t.pass('poppler cross-check', { skip: 'pdfinfo is not installed (Debian poppler-utils)' });
  const dir = mkdtempSync(join(tmpdir(), 'natprod-pdf-'));
  try {
    writeFileSync(join(dir, 'locked.pdf'), bytes);
    const r = spawnSync('pdfinfo', [join(dir, 'locked.pdf')], { encoding: 'utf8' });
    t.not(r.status, 0, 'pdfinfo refuses it');
    t.match(r.stderr, /password/i);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

t.test('base64 problems and the size limit', async (t) => {
  const bytes = await simplePages(['a few words on one page']);
  const err = await appError(call(TEXT_OP, { pdf_base64: '%%% not base64 %%%' }));
  t.equal(err?.status, 422);
  t.match(String(err?.detail), /not valid base64/);
  t.throws(() => pdfOps[0].args.parse({ pdf_base64: '' }), 'empty pdf_base64 is a validation error');
  const wrapped = Buffer.from(bytes).toString('base64').replace(/.{76}/g, '$&\n');
  t.equal((await call(TEXT_OP, { pdf_base64: `data:application/pdf;base64,${wrapped}` }) as { text: string }).text,
    'a few words on one page', 'data URL with line-wrapped base64');
  const urlSafe = Buffer.from(bytes).toString('base64url');
  t.equal((await call(TEXT_OP, { pdf_base64: urlSafe }) as { text: string }).text, 'a few words on one page', 'base64url');
  // UPLOAD_LIMIT is at least 1024 bytes, so the limit is tried on the larger article.
  await withEnv({ UPLOAD_LIMIT: String(paper.bytes.length - 1) }, async () => {
    const tooBig = await appError(extractText(paper.bytes));
    t.equal(tooBig?.status, 413);
    t.match(String(tooBig?.detail), /UPLOAD_LIMIT/);
  });
  await withEnv({ UPLOAD_LIMIT: String(paper.bytes.length) }, async () => {
    t.ok((await extractText(paper.bytes)).text.startsWith('Cytotoxic Alkaloids'), 'exactly at the limit');
  });
});

t.test('pages argument validation', async (t) => {
  for (const op of pdfOps) {
    t.throws(() => op.args.parse({ pdf_base64: 'JVBERi0=', pages: 0 }), `${op.name}: pages=0`);
    t.throws(() => op.args.parse({ pdf_base64: 'JVBERi0=', pages: 'two' }), `${op.name}: pages=two`);
    t.equal(op.args.parse({ pdf_base64: 'JVBERi0=', pages: '3' }).pages, 3);
    t.equal(op.args.parse({ pdf_base64: 'JVBERi0=' }).filename, 'document.pdf');
    t.equal(op.mode, 'long');
    t.same(op.body, { kind: 'multipart', field: 'pdf_file', into: 'pdf_base64', filenameInto: 'filename', magic: { bytes: '%PDF-', what: 'PDF' } });
  }
  t.equal(pdfOps.find((o) => o.name === TEXT_OP)!.args.parse({ pdf_base64: 'x' }).pages, 1);
  t.equal(pdfOps.find((o) => o.name === JSON_OP)!.args.parse({ pdf_base64: 'x' }).pages, undefined);
});

t.test('a PDF without a text layer is not an error', async (t) => {
  const bytes = await blankPages(2);
  t.same(await extractText(bytes), { text: '', pdf_filename: 'document.pdf' });
  const doc = await extractJson(bytes);
  t.equal(doc.pages_read, 2);
  t.same(doc.blocks, []);
  t.equal(doc.title, null);
});

t.test('progress per page, and the page cap applies to the text operation too', async (t) => {
  const seen: unknown[] = [];
  await extractJson(paper.bytes, {}, { progress: (v) => seen.push(v) });
  t.same(seen, [
    { percent: 33, page: 1, pages: 3 },
    { percent: 67, page: 2, pages: 3 },
    { percent: 100, page: 3, pages: 3 },
  ]);
  const many = await simplePages(['one alpha', 'two beta', 'three gamma', 'four delta', 'five epsilon', 'six zeta']);
  await withEnv({ PDF_MAX_PAGES: '4' }, async () => {
    t.equal((await extractText(many, { pages: 6 })).text, 'one alpha two beta three gamma four delta');
  });
});

t.test('cancellation: the task stops between pages with the signal\'s reason', async (t) => {
  const cancelled = new AppError(499, 'Job cancelled', 'cancelled');
  const before = new AbortController();
  before.abort(cancelled);
  t.equal((await appError(extractJson(paper.bytes, {}, { signal: before.signal })))?.status, 499, 'aborted before start');

  const during = new AbortController();
  const pagesDone: unknown[] = [];
  const err = await appError(extractJson(paper.bytes, {}, {
    signal: during.signal,
    progress: (v) => {
      pagesDone.push(v);
      during.abort(cancelled);
    },
  }));
  t.equal(err?.status, 499, 'aborted after the first page');
  t.equal(pagesDone.length, 1, 'no page read after the abort');
  // The document was destroyed: the same bytes open again at once.
  t.equal((await extractJson(paper.bytes)).pages_read, 3);
});
