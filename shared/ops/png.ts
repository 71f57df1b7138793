/**
 * Limits of PNG pictures, read by the registry (argument validation, a 422) and by the threads
 * that render them (shared/chem/depict/png.ts). No chemistry here: the registry imports it.
 */

/**
 * Most pixels of a PNG each way (its width or height times its pixel density). resvg's WASM
 * memory on a thread grows to the largest picture rendered and never shrinks: 46 MB after a
 * 2048 px square, 181 MB after 4096 px (measured with @resvg/resvg-wasm 2.6.2).
 */
export const MAX_PNG_SIDE = 2048;

/** Largest pixel density (`scale`) of a PNG. */
export const MAX_PNG_SCALE = 4;
