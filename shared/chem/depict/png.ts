/**
 * SVG → PNG on a chemistry thread, with resvg compiled to WebAssembly (@resvg/resvg-wasm,
 * MPL-2.0): one platform-independent package, like RDKit's MinimalLib, so a thread needs no
 * native addon. RDKit draws atom labels as paths (its FreeType text), so no font is loaded and
 * resvg's text support is never used; a drawing with <text> would lose that text.
 *
 * The module is compiled and instantiated once per thread, on the thread's first PNG. Its WASM
 * memory grows to the largest image rendered and never shrinks (measured: 4 MB after a 512 px
 * square, 12.5 MB after 1024 px, 46 MB after 2048 px, 181 MB after 4096 px), so a PNG is at most
 * MAX_PNG_SIDE pixels each way (shared/png-limits.ts): that bounds what one request can leave
 * behind in a thread.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import { AppError } from '../../errors.ts';
import { MAX_PNG_SIDE } from '../../png-limits.ts';

let ready: Promise<void> | undefined;

/** Loads resvg's WebAssembly on this thread (once; later calls share the first). */
export function loadRasterizer(): Promise<void> {
  // The package's own file, found by Node's resolution from this module: the same from the
  // TypeScript sources (tsx) and from dist/ (packages stay external; import.meta.url is this file's).
  ready ??= (async () => {
    const path = createRequire(import.meta.url).resolve('@resvg/resvg-wasm/index_bg.wasm');
    await initWasm(readFileSync(path));
  })();
  return ready;
}

export interface PngOptions {
  /** PNG pixels per SVG pixel (the SVG's width and height attributes); default 1. */
  scale?: number;
  /** Shrink the picture to MAX_PNG_SIDE when it would be larger, instead of refusing it (422). */
  fit?: boolean;
}

/** The size of an SVG as its root element's width and height say (RDKit writes `width='512px'`). */
export function svgSize(svg: string): { width: number; height: number } {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0];
  const attr = (name: string) => {
    const m = root && new RegExp(`\\s${name}\\s*=\\s*['"]\\s*([0-9.]+)(px)?\\s*['"]`).exec(root);
    return m ? Number(m[1]) : NaN;
  };
  const width = attr('width');
  const height = attr('height');
  if (!(width > 0) || !(height > 0)) throw new AppError(422, 'The SVG has no width and height in pixels', 'invalid_input');
  return { width, height };
}

/** Renders an SVG to PNG bytes, `scale` PNG pixels per SVG pixel, on a white background. */
export async function svgToPng(svg: string, opts: PngOptions = {}): Promise<Uint8Array> {
  await loadRasterizer();
  const { width, height } = svgSize(svg);
  let scale = opts.scale ?? 1;
  const side = Math.max(width, height) * scale;
  if (side > MAX_PNG_SIDE) {
    if (!opts.fit) {
      throw new AppError(422, `A PNG is at most ${MAX_PNG_SIDE} pixels each way; ${Math.round(width * scale)}×${Math.round(height * scale)} asked (width and height times scale)`, 'invalid_input');
    }
    scale *= MAX_PNG_SIDE / side;
  }
  const pixels = Math.round(width * scale);
  let renderer: InstanceType<typeof Resvg>;
  try {
    renderer = new Resvg(svg, { fitTo: { mode: 'width', value: pixels }, background: 'white' });
  } catch (e) {
    throw new AppError(422, `Unreadable SVG: ${e instanceof Error ? e.message : String(e)}`, 'invalid_input');
  }
  try {
    const image = renderer.render();
    try {
      return image.asPng();
    } finally {
      image.free();
    }
  } finally {
    renderer.free();
  }
}
