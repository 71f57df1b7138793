/**
 * PDF extraction speed: our pdfjs-based tasks on one thread (this one) against poppler's
 * pdftotext, spawned once per document, on a generated 50-page article (test/pdf/paper.ts).
 * Prints pages/s, p50/p95 per document and memory; asserts nothing.
 *
 *   node --expose-gc --import tsx bench/pdf.ts            (N documents per variant, default 20)
 *   N=50 PAGES=100 node --expose-gc --import tsx bench/pdf.ts
 */
import type { TaskTable } from '../shared/ops/types.ts';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, threadConfig } from '../shared/config.ts';
import { pdfTasks } from '../shared/ops/pdf.tasks.ts';
import type { TaskContext } from '../shared/ops/types.ts';
import { sentences, standardArticle, writePaper, type Piece } from '../test/pdf/paper.ts';
import { percentile } from './load.ts';
import { PDFDocument } from 'pdf-lib';

const N = Number(process.env.N ?? 20);
const PAGES = Number(process.env.PAGES ?? 50);

/** Adds sections until the article fills `pages` pages, then drops the surplus ones from the end. */
async function article(pages: number): Promise<Uint8Array> {
  const pieces: Piece[] = [...standardArticle()];
  for (let i = 0; ; i++) {
    for (let j = 0; j < 10; j++, i++) {
      pieces.push({ kind: 'heading', text: `${5 + i}. Further results on fraction ${i + 1}`, level: 1 });
      pieces.push({ kind: 'paragraph', text: sentences(100 + i, 18) }, { kind: 'paragraph', text: sentences(200 + i, 12) });
    }
    const paper = await writePaper(pieces, { header: 'J. Bench. Nat. Prod. 2026, 1, 1-99', pageNumbers: true, columns: 2 });
    if (paper.pages.length >= pages) {
      const doc = await PDFDocument.load(paper.bytes);
      while (doc.getPageCount() > pages) doc.removePage(doc.getPageCount() - 1);
      return doc.save();
    }
  }
}

const bytes = await article(PAGES);
const pdfBase64 = Buffer.from(bytes).toString('base64');
const mib = (b: number) => (b / 2 ** 20).toFixed(1);
console.log(`PDF: ${PAGES} pages (two columns, running header, page numbers), ${mib(bytes.length)} MiB; ${N} documents per variant`);
console.log('variant                              pages/s   p50 ms/doc   p95 ms/doc   memory');

function report(label: string, ms: number[], memory: string) {
  const sorted = [...ms].sort((a, b) => a - b);
  const total = ms.reduce((a, b) => a + b, 0) / 1000;
  console.log(`${label.padEnd(36)} ${((PAGES * ms.length) / total).toFixed(0).padStart(7)}   ${percentile(sorted, 50).toFixed(1).padStart(10)}   ${percentile(sorted, 95).toFixed(1).padStart(10)}   ${memory}`);
}

// The extraction keeps the event loop busy with promise jobs, so a timer would never sample
// memory while it runs; the per-page progress callback does instead.
let peakRss = 0;
const ctx = {
  rdkit: undefined,
  config: threadConfig(loadConfig()),
  signal: new AbortController().signal,
  progress: () => (peakRss = Math.max(peakRss, process.memoryUsage().rss)),
} as unknown as TaskContext;

async function ours(label: string, task: string, args: Record<string, unknown>) {
  await (pdfTasks as TaskTable)[task]({ pdf_base64: pdfBase64, ...args }, ctx); // warm-up: module and font data loading
  global.gc?.();
  const before = process.memoryUsage();
  peakRss = before.rss;
  const ms: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await (pdfTasks as TaskTable)[task]({ pdf_base64: pdfBase64, ...args }, ctx);
    ms.push(performance.now() - t0);
  }
  global.gc?.();
  const after = process.memoryUsage();
  report(label, ms, `rss ${mib(before.rss)} -> peak ${mib(peakRss)} -> ${mib(after.rss)} MiB, heap used ${mib(before.heapUsed)} -> ${mib(after.heapUsed)} MiB`);
}

await ours('ours: extract_json (all pages)', 'extract_pdf_json', {});
await ours(`ours: extract_text (pages=${PAGES})`, 'extract_pdf_text', { pages: PAGES });

const probe = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
if (probe.error) {
  console.log('pdftotext: not installed (Debian poppler-utils), skipped');
} else {
  const dir = mkdtempSync(join(tmpdir(), 'natprod-bench-pdf-'));
  try {
    const file = join(dir, 'bench.pdf');
    writeFileSync(file, bytes);
    const timeBin = spawnSync('/usr/bin/time', ['-f', '%M', 'true']).error ? undefined : '/usr/bin/time';
    const ms: number[] = [];
    let maxKb = 0;
    for (let i = 0; i < N; i++) {
      const t0 = performance.now();
      const r = timeBin
        ? spawnSync(timeBin, ['-f', '%M', 'pdftotext', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 })
        : spawnSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
      ms.push(performance.now() - t0);
      if (r.status !== 0) throw new Error(`pdftotext failed: ${r.stderr}`);
      if (timeBin) maxKb = Math.max(maxKb, Number(r.stderr.trim().split('\n').pop()));
    }
    report(`poppler pdftotext ${(probe.stderr || probe.stdout).split('\n')[0].replace(/^pdftotext version /, '')} (spawned)`, ms,
      timeBin ? `max rss ${mib(maxKb * 1024)} MiB per process` : 'memory not measured (/usr/bin/time missing)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
