/** Worker tasks of the SELFIES family; see selfies.ts for the registry entries. */
import { AppError } from '../errors.ts';
import { normaliseSmiles } from '../chem/core/rdkit.ts';
import { decodeSelfies, encodeSelfies, SelfiesError } from '../chem/selfies/selfies.ts';
import type { OpTasks } from './types.ts';
import type { selfiesOps } from './selfies.ts';

export { decodeSelfies };

// Branches are derived recursively (as in the reference); absurd nesting exhausts the stack.
const TOO_DEEP = 'branches nested too deeply to translate';

export const selfiesTasks = {
  generate_selfies: (args: { smiles: string }) => {
    try {
      // Unencoded `+` arrives as a space from query strings; SMILES never contain spaces.
      return encodeSelfies(normaliseSmiles(args.smiles));
    } catch (err) {
      // 400, as the original answers it (its tests/test_converters.py, CM 3.11 too).
      if (err instanceof SelfiesError) throw new AppError(400, err.message, 'invalid_input');
      if (err instanceof RangeError) throw new AppError(422, TOO_DEEP, 'invalid_input');
      throw err;
    }
  },
} satisfies OpTasks<typeof selfiesOps>;

/**
 * For `generate_smiles` with representation=selfies: the decoded SMILES, `null` when the string
 * holds no atom (as upstream), 422 `{detail}` for a malformed SELFIES.
 */
export function selfiesToSmiles(selfies: string): string | null {
  try {
    return decodeSelfies(selfies) || null;
  } catch (err) {
    if (err instanceof SelfiesError) throw new AppError(422, err.message, 'invalid_input');
    if (err instanceof RangeError) throw new AppError(422, TOO_DEEP, 'invalid_input');
    throw err;
  }
}
