/**
 * Structure-format detection as the original service (CM 3.11, `detect_input_format`) orders it:
 * InChI, SELFIES, molblock, XYZ, SMILES (a text RDKit reads), else an IUPAC name. Also the XYZ
 * frame splitter its `/convert/xyz` and XYZ detection use. Pure text functions; the SMILES test is
 * passed in (RDKit on the thread). docs/convert.md.
 */
import { AppError } from '../../errors.ts';

export const STRUCTURE_FORMATS = ['smiles', 'inchi', 'selfies', 'iupac', 'molblock', 'xyz'] as const;
export type StructureFormat = (typeof STRUCTURE_FORMATS)[number];
export type Confidence = 'high' | 'medium' | 'low';

/** A run of bracket tokens and nothing else (the original's SELFIES test). */
const SELFIES = /^(\[[\w@=#+\-/\\%;.,^*]+\])+$/;
/** A V2000 counts line: a line starting with two whitespace-separated integers. */
const COUNTS_LINE = /\n\d+\s+\d+\s/;

export const looksLikeInchi = (text: string) => text.trim().startsWith('InChI=');
export const looksLikeSelfiesTokens = (text: string) => SELFIES.test(text.trim());
export const looksLikeMolblock = (text: string) => text.includes('M  END') || COUNTS_LINE.test(text);

/** `element x y z` with a letter first and three numbers (more columns are allowed). */
export function plausibleAtomRow(line: string): boolean {
  const parts = line.trim().split(/\s+/);
  if (parts.length < 4 || !/^[A-Za-z]/.test(parts[0])) return false;
  return parts.slice(1, 4).every((p) => isPythonFloat(p));
}

/** What Python's float() accepts, roughly: decimal and exponent forms, inf and nan. */
function isPythonFloat(s: string): boolean {
  return /^[+-]?((\d+(_\d+)*)?\.?\d+([eE][+-]?\d+)?|\d+\.|inf(inity)?|nan)$/i.test(s);
}

/**
 * Splits concatenated XYZ records into self-contained frames (LF line ends, the count line
 * trimmed, each ending in one newline). A count line is ASCII digits only; a frame whose atom
 * rows are not all plausible, or that runs past the end, is skipped by moving on one line, so a
 * bad record never swallows the next; zero-atom frames are dropped.
 */
export function splitXyzFrames(data: string): string[] {
  if (!data || data.trim() === '') return [];
  const lines = data.replace(/\r\n?/g, '\n').split('\n');
  const frames: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const token = lines[i].trim();
    if (!/^[0-9]+$/.test(token)) {
      i++;
      continue;
    }
    const count = Number(token);
    if (count === 0) {
      i += 2;
      continue;
    }
    const end = i + 2 + count;
    if (end > lines.length || !lines.slice(i + 2, end).every(plausibleAtomRow)) {
      i++;
      continue;
    }
    frames.push([token, ...lines.slice(i + 1, end)].join('\n') + '\n');
    i = end;
  }
  return frames;
}

/** Lower-case words, digits, spaces and `,-().` without a letter touching a digit. */
export function looksLikeIupac(text: string): boolean {
  const t = text.trim();
  return t !== '' && /^[a-z0-9][a-z0-9 ,\-().]*$/.test(t) && !/[a-z]\d/.test(t) && !/\d[a-z]/.test(t);
}

/**
 * The format of a structure text and how sure the guess is. `readsAsSmiles` says whether RDKit
 * reads the (trimmed, spaces as `+`) text as SMILES. An empty text is a 422 naming `input`.
 */
export function detectStructureFormat(text: string, readsAsSmiles: (t: string) => boolean): { format: StructureFormat; confidence: Confidence } {
  if (!text || text.trim() === '') {
    throw new AppError(422, [{ type: 'value_error', loc: ['query', 'input'], msg: 'Value error, the input is empty', input: text ?? '' }], 'invalid_input');
  }
  const t = text.trim();
  if (looksLikeInchi(t)) return { format: 'inchi', confidence: 'high' };
  if (looksLikeSelfiesTokens(t)) return { format: 'selfies', confidence: 'high' };
  if (looksLikeMolblock(text)) return { format: 'molblock', confidence: 'high' };
  if (splitXyzFrames(text).length > 0) return { format: 'xyz', confidence: 'high' };
  if (readsAsSmiles(t.replaceAll(' ', '+'))) return { format: 'smiles', confidence: 'medium' };
  // The original falls back to a low-confidence name whether or not the text looks like one.
  return { format: 'iupac', confidence: 'low' };
}

/** The first molecule of an SDF-style text (up to `$$$$`), trailing whitespace trimmed, the header kept. */
export function cleanMolblock(data: string): string {
  const cut = data.indexOf('$$$$');
  return (cut >= 0 ? data.slice(0, cut) : data).trimEnd();
}
