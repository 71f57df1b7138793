/**
 * Limits of PNG pictures, read by the registry (argument validation, a 422: shared/ops/convert.ts)
 * and by the threads that render them (shared/chem/depict/png.ts). A base module beside
 * structure-limits.ts: it imports nothing, so both the registry (which imports no chemistry) and
 * the chemistry (which imports nothing of the registry) can use it.
 */

/**
 * Most pixels of a PNG each way (its width or height times its pixel density). resvg's WASM
 * memory on a thread grows to the largest picture rendered and never shrinks: 46 MB after a
 * 2048 px square, 181 MB after 4096 px (measured with @resvg/resvg-wasm 2.6.2).
 */
export const MAX_PNG_SIDE = 2048;

/** Largest pixel density (`scale`) of a PNG. */
export const MAX_PNG_SCALE = 4;
