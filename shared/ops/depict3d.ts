/** 3D coordinates (docs/spec/chem-service.md §2.2 (17)) and the 3D viewer page (docs/spec/chem-service.md §2.3 (27)). */
import { z } from 'zod';
import { defineOp } from './types.ts';
import { smiles, toolkit } from './params.ts';
import { autoDetect } from './auto-detect.ts';
import { NATIVE_RDKIT } from './examples.ts';
import { MAX_3D_HEAVY_ATOMS } from '../structure-limits.ts';

// Ethanol after ETKDG embedding and MMFF94 optimisation; MMFF94s+ bond lengths agree within 0.03 Å.
const MMFF_SOURCE = `${NATIVE_RDKIT}: AddHs, EmbedMolecule, MMFFOptimizeMolecule (connection table and bond lengths)`;

export const depict3dOps = [
  defineOp({
    name: 'generate_3d_coordinates',
    method: 'GET',
    path: '/convert/mol3D',
    summary: 'Generates 3D Coordinates for the input molecules',
    description:
      'A V2000 molblock with 3D coordinates and without hydrogens: openchemlib ConformerGenerator (fixed seed, so ' +
      'the same input always gives the same coordinates) refined with the MMFF94s+ force field. Every answer is ' +
      'checked by reading it back with RDKit: stereocentres and double bonds the input specifies keep their ' +
      `configuration. Inputs above ${MAX_3D_HEAVY_ATOMS} heavy atoms are refused (422). \`toolkit=openbabel\`: Open Babel's make3D ` +
      'and gen3D --best (random conformer search, hydrogens removed), as the original. `toolkit=rdkit`: native RDKit, as ' +
      'the original: AddHs, EmbedMolecule from random coordinates (maxAttempts 5000), MMFFOptimizeMolecule (re-embedded ' +
      'when that fails), RemoveHs (random coordinates; docs/toolkits.md).',
    tag: 'convert',
    args: z.object({ smiles: smiles(), toolkit: toolkit(['openchemlib', 'openbabel', 'rdkit'] as const), auto_detect: autoDetect() }),
    output: 'text/plain',
    mode: 'quick',
    task: 'generate_3d_coordinates',
    examples: [{
      query: { smiles: 'CCO' },
      expected: { value: { $molblock: { atoms: ['C', 'C', 'O'], bonds: [[1, 2, 1], [2, 3, 1]], dim: '3D', lengths: [1.515, 1.42], tolerance: 0.03 } }, source: MMFF_SOURCE },
    }],
  }),
  defineOp({
    name: 'depict_3d_molecule_depict_3D_get',
    method: 'GET',
    path: '/depict/3D',
    summary: 'Generates a 3D depiction of a molecule',
    description:
      'An HTML page with an interactive 3D viewer (3Dmol.js, served by this service at /static/3Dmol-min.js, so ' +
      'it works offline) showing the molecule with hydrogens, coordinates as generate_3d_coordinates makes them. ' +
      `Inputs above ${MAX_3D_HEAVY_ATOMS} heavy atoms are refused (422). \`toolkit=openbabel\`: the coordinates of Open Babel's ` +
      'make3D and gen3D --best with hydrogens kept, as the original (random). `toolkit=rdkit`: native RDKit\'s ' +
      'EmbedMolecule and MMFF optimisation with hydrogens kept, as the original (random).',
    tag: 'depict',
    args: z.object({ smiles: smiles(), toolkit: toolkit(['openchemlib', 'openbabel', 'rdkit'] as const), auto_detect: autoDetect() }),
    output: 'text/html',
    mode: 'quick',
    task: 'depict_3d_molecule_depict_3D_get',
    examples: [{
      query: { smiles: 'CCO' },
      expected: {
        value: {
          $html: {
            molblock: {
              atoms: ['C', 'C', 'O', 'H', 'H', 'H', 'H', 'H', 'H'],
              bonds: [[1, 2, 1], [2, 3, 1], [1, 4, 1], [1, 5, 1], [1, 6, 1], [2, 7, 1], [2, 8, 1], [3, 9, 1]],
              dim: '3D',
              lengths: [1.515, 1.42, 1.095, 1.094, 1.095, 1.094, 1.094, 0.972],
              tolerance: 0.03,
            },
          },
        },
        source: MMFF_SOURCE,
      },
    }],
  }),
] as const;
