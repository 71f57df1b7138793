// Piscina loads this plain-JS entry in each thread; it registers the TypeScript loader there
// (loader hooks do not carry over from the main thread) and hands over to thread.ts.
import { register } from 'tsx/esm/api';

// pdfjs is 3 MB of plain JavaScript: loaded before the TypeScript loader is registered, it is
// not transformed by it, which keeps each thread about 300 MB smaller after its first PDF.
globalThis.pdfjsWorker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
await import('pdfjs-dist/legacy/build/pdf.mjs');

register();
const thread = await import('./thread.ts');
export default thread.default;
