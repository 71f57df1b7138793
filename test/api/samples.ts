/**
 * One call per operation, used by the HTTP and MCP tests to prove every registered operation
 * answers through both surfaces, and answers what its independent reference says
 * (`expected`, test/api/expected.ts). A registered operation without a sample fails the tests,
 * so new operations cannot slip in untested. Most samples are the registry's first example.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { OPERATIONS } from '../../shared/ops/index.ts';
import type { ExpectedAnswer, OpDef } from '../../shared/ops/types.ts';

export { ACETONE_MOLFILE } from '../../shared/ops/examples.ts';

export interface Sample {
  query?: Record<string, string>;
  /** Raw text body (text/plain). */
  text?: string;
  /** A PDF uploaded as multipart field `pdf_file` (over MCP: `pdf_base64`, `filename`). */
  pdf?: boolean;
  /** Arguments for MCP (defaults to query + text body field). */
  mcp?: Record<string, unknown>;
  /** The operation needs a job of another operation first (retrieve results). */
  needsJobOf?: string;
  /** The answer, from an independent reference. */
  expected?: ExpectedAnswer;
}

/** What the two sample PDF pages say (samplePdf draws them). */
export const PDF_PAGES = ['Natural products from marine sponges', 'Results and discussion of the isolated alkaloids'];
const PDF_SOURCE = 'the sample PDF itself (samplePdf: two 595x842 pages, one line of text each, uploaded as paper.pdf)';
const PDF_FILENAME = 'paper.pdf';

/** What the registry cannot carry (uploads, the job another call must create first), merged over its example. */
const SPECIAL: Record<string, Sample> = {
  retrieve_chemclass_results: { needsJobOf: 'generate_chemclass_classifications' },
  extract_pdf_json_tools_extract_json_post: {
    pdf: true,
    expected: {
      value: {
        $fields: {
          schema_name: 'natprod.PdfDocument',
          name: 'paper',
          origin: { $fields: { filename: PDF_FILENAME, mimetype: 'application/pdf' } },
          page_count: 2,
          pages_read: 2,
          truncated: false,
          pages: PDF_PAGES.map((_, i) => ({ $fields: { page_no: i + 1, size: { width: 595, height: 842 } } })),
          blocks: PDF_PAGES.map((text, i) => ({ $fields: { page_no: i + 1, text } })),
        },
      },
      source: PDF_SOURCE,
    },
  },
  extract_pdf_text_tools_extract_text_post: {
    pdf: true,
    // pages defaults to 1 and a text of at most ten words is page 1's text (docs/spec/chem-service.md §2.4 (34)).
    expected: { value: { text: PDF_PAGES[0], pdf_filename: PDF_FILENAME }, source: PDF_SOURCE },
  },
  // The sample PDF holds text only: pdfimages lists no image, so osra reads nothing (test/ocsr/ocsr.test.ts reads a figure).
  extract_structures_from_pdf_ocsr_process_pdf_post: {
    pdf: true,
    expected: {
      value: { pdf_filename: PDF_FILENAME, page_count: 2, pages_read: 2, images_found: 0, images_read: 0, truncated: false, figures: [] },
      source: `${PDF_SOURCE}; pdfimages -list finds no image in it`,
    },
  },
};

function fromExample(op: OpDef): Sample | undefined {
  const ex = op.examples?.[0];
  if (!ex) return undefined;
  const sample: Sample = { query: ex.query, ...(ex.expected ? { expected: ex.expected } : {}) };
  if (ex.text !== undefined && op.body?.kind === 'text') {
    sample.text = ex.text;
    sample.mcp = { ...ex.query, [op.body.field]: ex.text };
  }
  return sample;
}

export const SAMPLES: Record<string, Sample> = Object.fromEntries(
  OPERATIONS.flatMap((op) => {
    const s = { ...fromExample(op), ...SPECIAL[op.name] };
    return Object.keys(s).length ? [[op.name, s]] : [];
  }),
);

/** A small two-page PDF with known words. */
export async function samplePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const words of PDF_PAGES) {
    const page = doc.addPage([595, 842]);
    page.drawText(words, { x: 50, y: 780, size: 14, font });
  }
  return Buffer.from(await doc.save());
}

export function multipart(file: Buffer, filename = PDF_FILENAME, fields: Record<string, string> = {}) {
  const boundary = `----natprod${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="pdf_file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`));
  parts.push(file, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
