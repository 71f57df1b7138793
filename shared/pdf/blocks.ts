/**
 * Text blocks (paragraphs, headings, list items, captions) from the lines of one page. A line
 * continues the block above it when it sits at the block's line pitch, overlaps it horizontally,
 * and has the same font and size; a first-line indent, a list marker or a caption prefix starts
 * a new block even without extra vertical space.
 */
import { dominant, type TextLine } from './lines.ts';

export interface TextBlock {
  lines: TextLine[];
  text: string;
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  size: number;
  font: string;
}

export const LIST_MARKER = /^(?:[•◦▪▫■□●○‣⁃∙·*–—-]\s|\(?(?:\d{1,3}|[a-z])[.)]\s|\(\d{1,3}\)\s|\[\d{1,3}\]\s)/;
export const CAPTION = /^(?:fig(?:ure)?\.?|table|scheme|chart|plate|graph)\s*s?\d+[a-z]?\s*[.:|—–-]/i;

/** Baseline distance, in ems, between consecutive lines of a paragraph when a page gives no better estimate. */
const DEFAULT_PITCH_EM = 1.2;
/** A line further below than this multiple of the usual pitch starts a new block. */
const PITCH_TOLERANCE = 1.2;
const SAME_SIZE = 0.1;
const INDENT_EM = 0.8;
const MAX_INDENT_EM = 6;

export function textBlocks(lines: readonly TextLine[]): TextBlock[] {
  const sorted = lines.filter((l) => l.horizontal && l.text !== '').sort((a, b) => a.top - b.top || a.x0 - b.x0);
  const pitch = usualPitch(sorted);
  const open: TextLine[][] = [];
  for (const line of sorted) {
    let best: TextLine[] | undefined;
    let bestDelta = Infinity;
    for (const block of open) {
      const delta = continues(block, line, pitch);
      if (delta !== undefined && delta < bestDelta) [best, bestDelta] = [block, delta];
    }
    if (best) best.push(line);
    else open.push([line]);
  }
  const blocks = open.map(blockOf);
  for (const line of lines) if (!line.horizontal && line.text !== '') blocks.push(blockOf([line]));
  return blocks;
}

/** Baseline delta if `line` continues `block`, else undefined. */
function continues(block: TextLine[], line: TextLine, pitchEm: number): number | undefined {
  const last = block[block.length - 1];
  const delta = line.baseline - last.baseline;
  if (delta <= 0 || delta > pitchEm * PITCH_TOLERANCE * last.size) return undefined;
  if (Math.abs(line.size - last.size) > SAME_SIZE * last.size || line.font !== last.font) return undefined;
  const left = Math.min(...block.map((l) => l.x0));
  const right = Math.max(...block.map((l) => l.x1));
  if (line.x0 >= right || line.x1 <= left) return undefined;
  if (LIST_MARKER.test(line.text) || CAPTION.test(line.text)) return undefined;
  const em = last.size;
  // A list item ends where a line starts back at (or left of) its marker; its other lines hang.
  if (LIST_MARKER.test(block[0].text)) return line.x0 < block[0].x0 + 0.5 * em ? undefined : delta;
  // First-line indent of a new paragraph, told apart from centred lines by their common centre.
  const indent = line.x0 - left;
  const centred = Math.abs((line.x0 + line.x1) / 2 - (last.x0 + last.x1) / 2) < 0.25 * em;
  if (indent > INDENT_EM * em && indent < MAX_INDENT_EM * em && last.x0 - left < 0.3 * em && !centred) return undefined;
  return delta;
}

/**
 * The page's most common baseline distance between a line and the next one below that shares
 * its font and size and overlaps it, in ems; ordinary paragraph lines dominate this count.
 */
function usualPitch(lines: readonly TextLine[]): number {
  const tally = new Map<number, number>();
  for (let i = 0; i < lines.length; i++) {
    const a = lines[i];
    for (let j = i + 1; j < lines.length; j++) {
      const b = lines[j];
      const delta = b.baseline - a.baseline;
      if (delta > 3 * a.size) break;
      if (delta <= 0.5 * a.size || b.font !== a.font || Math.abs(b.size - a.size) > SAME_SIZE * a.size) continue;
      if (b.x0 >= a.x1 || b.x1 <= a.x0) continue;
      const em = Math.round((delta / a.size) * 20) / 20;
      tally.set(em, (tally.get(em) ?? 0) + 1);
      break;
    }
  }
  let best = DEFAULT_PITCH_EM;
  let most = 1;
  for (const [em, n] of tally) if (n > most || (n === most && em < best)) [best, most] = [em, n];
  return Math.min(Math.max(best, 1), 2.5);
}

function blockOf(lines: TextLine[]): TextBlock {
  return {
    lines,
    text: joinLines(lines.map((l) => l.text)),
    x0: Math.min(...lines.map((l) => l.x0)),
    x1: Math.max(...lines.map((l) => l.x1)),
    top: Math.min(...lines.map((l) => l.top)),
    bottom: Math.max(...lines.map((l) => l.bottom)),
    size: dominant(lines, (l) => l.size),
    font: dominant(lines, (l) => l.font),
  };
}

/**
 * Lines of a paragraph joined into one string. A hyphen between two lower-case letters at a line
 * break is taken as a typesetter's hyphenation and removed; any other line-end hyphen (as in
 * `N-\nmethyl` or `2-\namino`) is kept and the line is joined without a space.
 */
export function joinLines(lines: readonly string[]): string {
  let out = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    if (out === '') out = line;
    else if (/\u00ad$/.test(out)) out = out.slice(0, -1) + line;
    else if (/\p{Ll}[-\u2010]$/u.test(out) && /^\p{Ll}/u.test(line)) out = out.slice(0, -1) + line;
    else if (/\S[-\u2010]$/.test(out) && /^[\p{L}\p{N}]/u.test(line)) out += line;
    else out += ' ' + line;
  }
  return out;
}
