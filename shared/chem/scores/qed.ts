/**
 * QED, quantitative estimate of drug-likeness (Bickerton et al., Nature Chem. 4, 90-98
 * (2012), doi:10.1038/nchem.1243), as RDKit implements it (rdkit.Chem.QED, version 1.1.0):
 * eight properties, each mapped through an asymmetric double sigmoid (ADS) to a
 * desirability in (0, 1], combined as a weighted geometric mean with the "mean" weights.
 * The weights, ADS parameters and SMARTS are data (data/qed.json, taken from RDKit).
 */
import type { Mol, RDKit } from '../core/rdkit.ts';
import type { MorganGraph } from '../core/morgan-env.ts';
import { cycleRank } from '../descriptors/vdw-volume.ts';
import { MolView } from '../core/mol-view.ts';

export interface AdsParameter {
  A: number;
  B: number;
  C: number;
  D: number;
  E: number;
  F: number;
  DMAX: number;
}

export interface QedData {
  properties: string[];
  weightMean: number[];
  ads: Record<string, AdsParameter>;
  aliphaticRingSmarts: string;
  acceptorSmarts: string[];
  alertSmarts: string[];
}

/** The subset of MinimalLib `get_descriptors()` that QED uses (RDKit definitions). */
export interface RDKitDescriptors {
  amw: number;
  CrippenClogP: number;
  NumHBD: number;
  tpsa: number;
  NumRotatableBonds: number;
}

export interface QedProperties {
  MW: number;
  ALOGP: number;
  HBA: number;
  HBD: number;
  PSA: number;
  ROTB: number;
  AROM: number;
  ALERTS: number;
}

function ads(x: number, p: AdsParameter): number {
  const exp1 = 1 + Math.exp((-1 * (x - p.C + p.D / 2)) / p.E);
  const exp2 = 1 + Math.exp((-1 * (x - p.C - p.D / 2)) / p.F);
  const dx = p.A + (p.B / exp1) * (1 - 1 / exp2);
  return dx / p.DMAX;
}

/**
 * Ring count of the molecule left after deleting aliphatic ring atoms that carry a
 * non-aromatic neighbour, as RDKit's QED does (len(GetSSSR(DeleteSubstructs(...)))). The
 * SSSR size of a graph is its cycle rank: edges - vertices + connected components.
 */
function aromaticRingProxy(view: MolView, graph: MorganGraph, data: QedData): number {
  const removed = new Set<number>();
  for (const a of view.matchingAtoms(data.aliphaticRingSmarts)) removed.add(a);
  return cycleRank(graph, removed);
}

export function qedProperties(
  rdkit: RDKit,
  mol: Mol,
  graph: MorganGraph,
  desc: RDKitDescriptors,
  data: QedData,
  view: MolView = new MolView(rdkit, mol),
): QedProperties {
  // ~130 fixed SMARTS per molecule: the view skips those its screen proves absent.
  let hba = 0;
  for (const smarts of data.acceptorSmarts) hba += view.count(smarts);
  let alerts = 0;
  for (const smarts of data.alertSmarts) if (view.hasMatch(smarts)) alerts++;
  return {
    MW: desc.amw,
    ALOGP: desc.CrippenClogP,
    HBA: hba,
    HBD: desc.NumHBD,
    PSA: desc.tpsa,
    ROTB: desc.NumRotatableBonds,
    AROM: aromaticRingProxy(view, graph, data),
    ALERTS: alerts,
  };
}

export function qedFromProperties(props: QedProperties, data: QedData): number {
  let t = 0;
  let wsum = 0;
  data.properties.forEach((name, i) => {
    const w = data.weightMean[i];
    t += w * Math.log(ads(props[name as keyof QedProperties], data.ads[name]));
    wsum += w;
  });
  return Math.exp(t / wsum);
}

export function qed(
  rdkit: RDKit, mol: Mol, graph: MorganGraph, desc: RDKitDescriptors, data: QedData, view?: MolView,
): number {
  return qedFromProperties(qedProperties(rdkit, mol, graph, desc, data, view), data);
}
