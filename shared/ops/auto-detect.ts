/**
 * The `auto_detect` query parameter CM 3.11 added to its single-structure endpoints (default
 * false: the structure argument is SMILES). When true, api/chem/executeOp reads the `smiles`
 * argument as whatever format it is (SMILES, InChI, SELFIES, molblock, XYZ, IUPAC name; as
 * /convert/detect-format detects them) before the operation runs (api/chem/auto-detect.ts).
 * An operation offers it by adding `auto_detect: autoDetect()` to its arguments.
 */
import { bool } from './params.ts';

export const autoDetect = () =>
  bool(false, 'When true, auto-detect the input format (SMILES, InChI, SELFIES, molblock, XYZ, IUPAC name) instead of assuming SMILES');
