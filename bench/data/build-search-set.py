#!/usr/bin/python3
"""Builds the structure-search benchmark set: 100,000 distinct, realistic molecules as a .smi file.

Usage (from the repository root):
    /usr/bin/python3 bench/data/build-search-set.py [OUT.smi] [--count N] [--seed S]
Default output bench/data/search-100k.smi (git-ignored), N = 100000, S = 20261125.
Needs Debian python3-rdkit (2022.09) and rdkit-data (the molecule sets under /usr/share/RDKit).

Output: one molecule a line, `SMILES<TAB>name`, SMILES = RDKit canonical isomeric SMILES, all
distinct (checked at the end by re-parsing every line), each sanitizable, 3 to 80 heavy atoms, at
least one carbon, organic elements only (H B C N O F Si P S Cl Se Br I: metal complexes are left
out; one of them, an Al complex of NCI, is not even readable by the WASM build's RDKit 2026.09).
Multi-fragment records (salts, solvates) keep their largest fragment.

Sources, in this order (a molecule is kept the first time its canonical SMILES is seen):
  lotus     api/catalog/data/lotus_manually_validated_413.tsv.gz and lotus_sample_1000.tsv.gz,
            the catalog's demo natural products (LOTUS, CC0)
  nci       /usr/share/RDKit/Data/NCI/first_5K.smi and first_200.props.sdf (NCI open set)
  wehi      /usr/share/RDKit/Data/Pains/test_data/wehi_mols.csv (10,000 screening compounds of
            the PAINS paper's test data)
  other     further rdkit-data sets: PubChem 200, BZR, EGFR, CDK2 (SDF), two ChEMBL series (.smi)
            and the PubChem example structures of the NIBR substructure-filter table
  decorated systematic decoration of all the above until N molecules: a hydrogen on a carbon
            (aromatic or aliphatic, not a stereocentre) or on an aromatic [nH] is replaced by one
            of Me, OH, OMe, F, Cl, NH2, COOH, acetyl; in each pass every parent molecule gets one
            randomly drawn decoration (a second one at another position with probability 0.3).
            Names: `<parent name>+<group>@<atom index>`.
Deterministic: fixed file order, fixed seed (random.Random), canonical SMILES of this RDKit
version. About a minute on one core.
"""
import argparse
import csv
import gzip
import os
import random
import sys
import time

from rdkit import Chem, RDLogger

RDLogger.DisableLog('rdApp.*')

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
LOTUS = os.path.join(REPO, 'api', 'catalog', 'data')
RD = '/usr/share/RDKit'
MAX_HEAVY = 80
ORGANIC = {1, 5, 6, 7, 8, 9, 14, 15, 16, 17, 34, 35, 53}  # H B C N O F Si P S Cl Se Br I
GROUPS = [('Me', 'C'), ('OH', 'O'), ('OMe', 'OC'), ('F', 'F'), ('Cl', 'Cl'), ('NH2', 'N'),
          ('COOH', 'C(=O)O'), ('Ac', 'C(C)=O')]
GROUP_MOLS = [(name, Chem.MolFromSmiles(smi)) for name, smi in GROUPS]
SECOND_DECORATION = 0.3


def largest_fragment(mol):
    frags = Chem.GetMolFrags(mol, asMols=True, sanitizeFrags=False)
    if len(frags) == 1:
        return mol
    return max(frags, key=lambda f: (f.GetNumHeavyAtoms(), Chem.MolToSmiles(f)))  # ties: fixed order


def acceptable(mol):
    n = mol.GetNumHeavyAtoms()
    elements = {a.GetAtomicNum() for a in mol.GetAtoms()}
    return 3 <= n <= MAX_HEAVY and 6 in elements and elements <= ORGANIC


def text(v):
    v = (v or '').strip()
    return None if v in ('', 'NA', 'NULL') else v


def read_lotus():
    for fname, col in (('lotus_manually_validated_413.tsv.gz', 'structureCleanedSmiles'),
                       ('lotus_sample_1000.tsv.gz', 'structure_smiles')):
        with gzip.open(os.path.join(LOTUS, fname), 'rt', newline='', encoding='utf-8') as fh:
            for line, rec in enumerate(csv.DictReader(fh, delimiter='\t'), start=2):
                if text(rec.get(col)):
                    yield text(rec[col]), f'lotus:{fname.split(".")[0]}:{line}'


def read_smi(path, prefix, smiles_first=True, sep=None):
    with open(path) as fh:
        for line in fh:
            parts = line.split(sep)
            if len(parts) < 2 or line.startswith('#'):
                continue
            smi, ident = (parts[0], parts[1]) if smiles_first else (parts[1], parts[0])
            yield smi.strip(), f'{prefix}:{ident.strip()}'


def read_sdf(path, prefix):
    for i, mol in enumerate(Chem.SDMolSupplier(path)):
        if mol is not None:
            title = mol.GetProp('_Name').strip().replace('\t', ' ').replace(' ', '_') or str(i + 1)
            yield mol, f'{prefix}:{title}'


def read_wehi():
    with open(f'{RD}/Data/Pains/test_data/wehi_mols.csv', newline='') as fh:
        for row in csv.reader(fh):
            if len(row) >= 2:
                yield row[0], f'wehi:{row[1]}'


def read_nibr():
    path = f'{RD}/Contrib/NIBRSubstructureFilters/SubstructureFilter_HitTriaging_wPubChemExamples.csv'
    with open(path, newline='') as fh:
        for row in csv.DictReader(fh):
            for k in ('1', '2', '3', '4'):
                if text(row.get(f'EX{k}')):
                    yield row[f'EX{k}'], f'pubchem:{text(row.get(f"CID_Ex{k}")) or row["PATTERN_NAME"] + "_" + k}'


SOURCES = [
    ('lotus', lambda: read_lotus()),
    ('nci', lambda: read_smi(f'{RD}/Data/NCI/first_5K.smi', 'nci', sep='\t')),
    ('nci', lambda: read_sdf(f'{RD}/Data/NCI/first_200.props.sdf', 'nci-sdf')),
    ('wehi', read_wehi),
    ('other', lambda: read_sdf(f'{RD}/Projects/DbCLI/testData/pubchem.200.sdf', 'pubchem')),
    ('other', lambda: read_sdf(f'{RD}/Projects/DbCLI/testData/bzr.sdf', 'bzr')),
    ('other', lambda: read_sdf(f'{RD}/Contrib/PBF/testData/egfr.sdf', 'egfr')),
    ('other', lambda: read_sdf(f'{RD}/Contrib/Fastcluster/testdata/cdk2.sdf', 'cdk2')),
    ('other', lambda: read_smi(f'{RD}/Contrib/FreeWilson/data/CHEMBL2321810.smi', 'chembl')),
    ('other', lambda: read_smi(f'{RD}/Contrib/fraggle/data/ChEMBL_11265_actives.smi', 'chembl')),
    ('other', read_nibr),
]


def decorate(mol, atom_idx, group):
    """The molecule with one H of atom `atom_idx` replaced by `group` (attached by its atom 0), or None."""
    rw = Chem.RWMol(Chem.CombineMols(mol, group))
    offset = mol.GetNumAtoms()
    rw.AddBond(atom_idx, offset, Chem.BondType.SINGLE)
    a = rw.GetAtomWithIdx(atom_idx)
    if a.GetNumExplicitHs():
        a.SetNumExplicitHs(a.GetNumExplicitHs() - 1)
    try:
        Chem.SanitizeMol(rw)
    except Exception:
        return None
    return rw


def sites(mol):
    """Atoms whose H may be replaced: C with H that is not a stereocentre, and aromatic [nH]."""
    out = []
    for a in mol.GetAtoms():
        if a.GetTotalNumHs() == 0 or a.GetChiralTag() != Chem.ChiralType.CHI_UNSPECIFIED or a.GetFormalCharge():
            continue
        if a.GetAtomicNum() == 6 or (a.GetAtomicNum() == 7 and a.GetIsAromatic()):
            out.append(a.GetIdx())
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('out', nargs='?', default=os.path.join(REPO, 'bench', 'data', 'search-100k.smi'))
    ap.add_argument('--count', type=int, default=100_000)
    ap.add_argument('--seed', type=int, default=20261125)
    args = ap.parse_args()
    t0 = time.time()
    rng = random.Random(args.seed)

    seen = set()
    records = []  # (smiles, name)
    parents = []  # (mol, name, smiles) eligible for decoration
    counts = {}

    def keep(mol, name, source):
        if mol is None or len(records) >= args.count:
            return None
        if source != 'decorated':
            mol = largest_fragment(mol)
            try:
                Chem.SanitizeMol(mol)
            except Exception:
                return None
        if not acceptable(mol):
            return None
        smi = Chem.MolToSmiles(mol)
        if smi in seen:
            return None
        seen.add(smi)
        records.append((smi, name))
        counts[source] = counts.get(source, 0) + 1
        return smi

    for source, reader in SOURCES:
        for item, name in reader():
            mol = Chem.MolFromSmiles(item) if isinstance(item, str) else item
            smi = keep(mol, name, source)
            if smi is not None:
                parents.append((Chem.MolFromSmiles(smi), name))
    print(f'read {len(records)} distinct molecules from the source sets ({time.time() - t0:.1f} s)')

    parent_sites = [sites(m) for m, _ in parents]
    passes = 0
    while len(records) < args.count:
        passes += 1
        before = len(records)
        for (mol, name), where in zip(parents, parent_sites):
            if len(records) >= args.count:
                break
            if not where:
                continue
            idx = rng.choice(where)
            gname, group = rng.choice(GROUP_MOLS)
            new = decorate(mol, idx, group)
            label = f'{name}+{gname}@{idx}'
            if new is not None and rng.random() < SECOND_DECORATION:
                others = [i for i in where if i != idx and new.GetAtomWithIdx(i).GetTotalNumHs()]
                if others:
                    idx2 = rng.choice(others)
                    gname2, group2 = rng.choice(GROUP_MOLS)
                    second = decorate(new, idx2, group2)
                    if second is not None:
                        new, label = second, f'{label}+{gname2}@{idx2}'
            keep(new, label, 'decorated')
        print(f'  decoration pass {passes}: +{len(records) - before} ({len(records)} in all, {time.time() - t0:.1f} s)')
        if len(records) == before:
            sys.exit('no new molecule in a whole pass: cannot reach the requested count')

    # Check: every line parses and the canonical SMILES are distinct.
    check = set()
    for smi, _ in records:
        mol = Chem.MolFromSmiles(smi)
        assert mol is not None and mol.GetNumHeavyAtoms() <= MAX_HEAVY, smi
        check.add(Chem.MolToSmiles(mol))
    assert len(check) == len(records) == args.count, (len(check), len(records))

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, 'w') as fh:
        for smi, name in records:
            fh.write(f'{smi}\t{name}\n')
    for source in ('lotus', 'nci', 'wehi', 'other', 'decorated'):
        print(f'{source:10s} {counts.get(source, 0):7d}')
    print(f'{"total":10s} {len(records):7d} distinct canonical SMILES (checked), written to {args.out}')
    print(f'time {time.time() - t0:.1f} s')


if __name__ == '__main__':
    main()
