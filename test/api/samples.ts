/**
 * One valid call per operation, used by the HTTP and MCP tests to prove every registered
 * operation answers through both surfaces. A registered operation without a sample fails the
 * tests, so new operations cannot slip in untested.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { OPERATIONS } from '../../shared/ops/index.ts';

export interface Sample {
  query?: Record<string, string>;
  /** Raw text body (text/plain). */
  text?: string;
  /** A PDF uploaded as multipart field `pdf_file`. */
  pdf?: boolean;
  /** Arguments for MCP (defaults to query + text body field). */
  mcp?: Record<string, unknown>;
  /** The operation needs a job of another operation first (retrieve results). */
  needsJobOf?: string;
  /** Expected REST status when it is not 200/202 (e.g. 503 without the external service). */
  status?: number;
}

export const ACETONE_MOLFILE = `
     RDKit          2D

  4  3  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.2990    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    2.5981   -0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.2990    2.2500    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0
  2  3  1  0
  2  4  2  0
M  END
`;


/** Calls a query string cannot carry, or that need the test environment; every other operation is called with its registry example. */
const SPECIAL: Record<string, Sample> = {
  standardize_molblock: { text: ACETONE_MOLFILE, mcp: { molblock: ACETONE_MOLFILE } },
  retrieve_chemclass_results: { needsJobOf: 'generate_chemclass_classifications' },
  filter_molecules: { text: 'CCO\nc1ccccc1O', mcp: { smiles: ['CCO', 'c1ccccc1O'] } },
  // The tests point EXTDB_URL at a closed port: the answer is a 503 naming the service.
  retrieve_extdb_smiles: { query: { identifier: 'aspirin' }, status: 503 },
  extract_pdf_json_tools_extract_json_post: { pdf: true },
  extract_pdf_text_tools_extract_text_post: { pdf: true },
};

export const SAMPLES: Record<string, Sample> = Object.fromEntries(
  OPERATIONS.flatMap((op) => {
    const s = SPECIAL[op.name] ?? (op.examples?.[0] ? { query: op.examples[0].query } : undefined);
    return s ? [[op.name, s]] : [];
  }),
);

/** A small two-page PDF with known words. */
export async function samplePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const words of ['Natural products from marine sponges', 'Results and discussion of the isolated alkaloids']) {
    const page = doc.addPage([595, 842]);
    page.drawText(words, { x: 50, y: 780, size: 14, font });
  }
  return Buffer.from(await doc.save());
}

export function multipart(file: Buffer, filename = 'paper.pdf', fields: Record<string, string> = {}) {
  const boundary = `----natprod${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="pdf_file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`));
  parts.push(file, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
