/**
 * Open Babel's part of CM 3.11's conversion endpoints (docs/convert.md): `/convert/xyz` with
 * `toolkit=openbabel` (each frame read by the sidecar's `xyz_frame`, the original's
 * get_ob_xyz_conversions) and `/convert/cdx-to-mol` (the sidecar's `cdx_to_mol`). Listed in ROUTES (routes.ts).
 */
import { AppError } from '../errors.ts';
import { collectXyz, MAX_XYZ_ATOMS, type XyzFrameResult } from '../chem/convert/xyz.ts';
import { MAX_CDX_BYTES, MAX_XYZ_BYTES, MAX_XYZ_FRAMES } from '../ops/convert-more.ts';
import { splitXyzFrames } from '../chem/convert/detect.ts';

/** One call into a sidecar (routes.ts's ToolkitCall, repeated here: routes.ts imports this file). */
type ToolkitCall = (toolkit: 'openbabel', request: Record<string, unknown>) => Promise<unknown>;

interface ObXyz { canonicalsmiles: string; inchi: string; inchikey: string; molblock: string }

export async function xyzWithOpenBabel(a: Record<string, unknown>, call: ToolkitCall): Promise<unknown> {
  const data = String(a.data ?? '');
  if (data.trim() === '') throw new AppError(400, 'Empty XYZ block provided', 'invalid_input');
  if (Buffer.byteLength(data, 'utf8') > MAX_XYZ_BYTES) throw new AppError(413, `XYZ payload exceeds ${MAX_XYZ_BYTES / 1_048_576} MB limit`, 'too_large');
  const frames = splitXyzFrames(data);
  if (frames.length === 0) throw new AppError(422, 'Invalid XYZ block (no frames detected)', 'invalid_input');
  if (frames.length > MAX_XYZ_FRAMES) throw new AppError(413, `Frame count exceeds limit (${MAX_XYZ_FRAMES}); this block has ${frames.length}`, 'too_large');
  // Each frame's answer or its error, in order; collectXyz turns them into the answer.
  const answers = await Promise.all(frames.map((xyz) => {
    const count = Number(xyz.split('\n', 1)[0]);
    // The RDKit path's bound (xyz.ts), before Open Babel sees the frame.
    if (count > MAX_XYZ_ATOMS) return new AppError(422, `A frame may have at most ${MAX_XYZ_ATOMS} atoms (this one has ${count})`, 'invalid_input');
    return (call('openbabel', { op: 'xyz_frame', xyz }) as Promise<ObXyz>).catch((e: unknown) => e);
  }));
  let i = 0;
  return collectXyz(frames, (frame): XyzFrameResult => {
    const r = answers[i++];
    if (r instanceof Error) throw r;
    const ob = r as ObXyz;
    return { title: frame.split('\n')[1]?.trim() ?? '', ...ob, method: 'bond_orders', bond_orders_perceived: true, warnings: [] };
  });
}

export async function cdxToMol(a: Record<string, unknown>, call: ToolkitCall): Promise<unknown> {
  const name = String(a.filename ?? '').toLowerCase();
  if (!name.endsWith('.cdx') && !name.endsWith('.cdxml')) throw new AppError(400, 'Only .cdx and .cdxml files are accepted.', 'invalid_input');
  const data = String(a.cdx_base64 ?? '');
  if (Math.floor((data.length * 3) / 4) > MAX_CDX_BYTES + 2) throw new AppError(400, `File too large. Maximum allowed size is ${MAX_CDX_BYTES / 1_048_576} MB.`, 'too_large');
  const molblock = await call('openbabel', { op: 'cdx_to_mol', data, format: name.endsWith('.cdxml') ? 'cdxml' : 'cdx' });
  return { molblock };
}
