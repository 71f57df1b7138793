import { AppError } from '../../errors.ts';

/**
 * 422 for a V3000 molblock whose counts lines (`M  V30 COUNTS <atoms> <bonds> ...`) declare more
 * atoms or bonds than its blocks list. RDKit sizes its tables by the declared counts before it
 * reads the blocks and refuses the molblock only afterwards, and a WebAssembly memory never
 * shrinks: `COUNTS 999999 0` in a molblock of 150 bytes grew the thread's RDKit memory from 16 to
 * 35 MiB for the rest of its life (issue 3, found by the fuzzer's broken molblocks). A V2000
 * counts line has three digits per count: at most 999, nothing to guard.
 */
export function assertMolblockCounts(text: string): void {
  if (!text.includes('COUNTS')) return;
  let declaredAtoms = 0, declaredBonds = 0, atoms = 0, bonds = 0;
  let block: 'ATOM' | 'BOND' | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('M  V30 ')) continue;
    const counts = /^M {2}V30 COUNTS\s+(\d+)(?:\s+(\d+))?/.exec(line);
    if (counts) {
      declaredAtoms += Number(counts[1]);
      declaredBonds += Number(counts[2] ?? 0);
    } else if (/^M {2}V30 BEGIN (ATOM|BOND)\b/.test(line)) block = line.includes('ATOM') ? 'ATOM' : 'BOND';
    else if (/^M {2}V30 END (ATOM|BOND)\b/.test(line)) block = undefined;
    else if (block === 'ATOM') atoms++;
    else if (block === 'BOND') bonds++;
  }
  if (declaredAtoms > atoms || declaredBonds > bonds) {
    throw new AppError(422, `Error reading molblock: its counts line declares ${declaredAtoms} atoms and ${declaredBonds} bonds, its blocks list ${atoms} and ${bonds}`, 'invalid_input');
  }
}
