/**
 * pdfjs text items turned into positioned text runs on the displayed page: top-left origin,
 * y growing downwards, in PDF points, after the page's rotation and crop box are applied.
 */
import type { TextContent, TextItem, TextStyle } from 'pdfjs-dist/types/src/display/api.js';

export interface TextRun {
  text: string;
  /** Bounding box of the glyphs on the displayed page. */
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  /** Baseline position (y) for horizontal runs. */
  baseline: number;
  /** Font size in points on the displayed page. */
  size: number;
  /** pdfjs' font resource name: equal names mean the same font program. */
  font: string;
  /** Left-to-right upright text; other runs (rotated, vertical) are kept but laid out alone. */
  horizontal: boolean;
}

type Matrix = [number, number, number, number, number, number];

const multiply = (m: Matrix, n: number[]): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

// Fonts without usable metrics report 0; these are typical Latin values.
const DEFAULT_ASCENT = 0.8;
const DEFAULT_DESCENT = -0.2;
/** Sine of the largest baseline slope still treated as horizontal (about 3 degrees). */
const SLOPE = 0.05;

function metrics(style: TextStyle | undefined): { ascent: number; descent: number } {
  const a = style?.ascent;
  const d = style?.descent;
  return {
    ascent: typeof a === 'number' && a >= 0.5 && a <= 1.2 ? a : DEFAULT_ASCENT,
    descent: typeof d === 'number' && d <= 0 && d >= -0.6 ? d : DEFAULT_DESCENT,
  };
}

/** Runs of one page; `viewport` is the page viewport's transform at scale 1. */
export function textRuns(content: TextContent, viewport: number[]): TextRun[] {
  const runs: TextRun[] = [];
  for (const entry of content.items) {
    const item = entry as TextItem;
    if (typeof item.str !== 'string' || item.str.trim() === '') continue;
    const t = multiply(viewport as Matrix, item.transform);
    const size = Math.hypot(t[2], t[3]);
    const scaleX = Math.hypot(t[0], t[1]);
    if (!(size > 0) || !(scaleX > 0)) continue;
    // Unit vectors of the text direction and of "up" for the glyphs, in page space.
    const dx = t[0] / scaleX;
    const dy = t[1] / scaleX;
    const ux = t[2] / size;
    const uy = t[3] / size;
    const { ascent, descent } = metrics(content.styles[item.fontName]);
    const width = Math.max(0, item.width);
    const corners = [
      [0, descent * size], [width, descent * size], [0, ascent * size], [width, ascent * size],
    ].map(([along, up]) => [t[4] + dx * along + ux * up, t[5] + dy * along + uy * up]);
    const xs = corners.map((c) => c[0]);
    const ys = corners.map((c) => c[1]);
    runs.push({
      text: item.str,
      x0: Math.min(...xs),
      x1: Math.max(...xs),
      top: Math.min(...ys),
      bottom: Math.max(...ys),
      baseline: t[5],
      size,
      font: item.fontName,
      horizontal: Math.abs(dy) < SLOPE && dx > 0 && uy < 0,
    });
  }
  return runs;
}
