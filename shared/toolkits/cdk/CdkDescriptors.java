import java.util.*;
import org.openscience.cdk.aromaticity.Aromaticity;
import org.openscience.cdk.aromaticity.ElectronDonation;
import org.openscience.cdk.fragment.MurckoFragmenter;
import org.openscience.cdk.graph.Cycles;
import org.openscience.cdk.interfaces.*;
import org.openscience.cdk.qsar.DescriptorValue;
import org.openscience.cdk.qsar.IMolecularDescriptor;
import org.openscience.cdk.qsar.descriptors.molecular.*;
import org.openscience.cdk.qsar.result.*;
import org.openscience.cdk.tools.manipulator.AtomContainerManipulator;
import org.openscience.cdk.tools.manipulator.MolecularFormulaManipulator;

/**
 * The COCONUT descriptor set with CDK's definitions, as the original service's CDK wrapper
 * computes it on the SDG-laid-out molecule (docs/spec/chem-service.md §2.1 (2)), upstream's
 * quirks kept: the two donor keys carry the acceptor count, QED is the string "None", Fsp3 has
 * two decimals. The keys only CDK computes here; natprod adds the sugar flags and NP-likeness.
 */
final class CdkDescriptors {
  static Map<String, Object> of(IAtomContainer mol, String smiles) throws Exception {
    return of(mol, smiles, false);
  }

  /**
   * `combined`: also the two values only the original's combined RDKit/CDK table has
   * (all_descriptors.py, get_all_cdk_descriptors): `bond_count` (BondCountDescriptor) and
   * `hydrogen_bond_donors_combined` (HBondDonorCountDescriptor: that table counts real donors).
   */
  static Map<String, Object> of(IAtomContainer mol, String smiles, boolean combined) throws Exception {
    Map<String, Object> d = new LinkedHashMap<>();
    int acceptors = intOf(new HBondAcceptorCountDescriptor(), mol);
    d.put("atom_count", intOf(new AtomCountDescriptor(), mol));
    d.put("heavy_atom_count", mol.getAtomCount());
    d.put("molecular_weight", NatprodCdk.round(dbl(new WeightDescriptor(), mol), 2));
    d.put("exact_molecular_weight", NatprodCdk.round(AtomContainerManipulator.getTotalExactMass(mol), 5));
    DescriptorValue alogp = new ALOGPDescriptor().calculate(mol);
    d.put("alogp", alogp.getException() == null ? NatprodCdk.round(((DoubleArrayResult) alogp.getValue()).get(0), 2) : null);
    d.put("rotatable_bond_count", intOf(new RotatableBondsCountDescriptor(), mol));
    d.put("topological_polar_surface_area", NatprodCdk.round(dbl(new TPSADescriptor(), mol), 2));
    d.put("hydrogen_bond_acceptors", acceptors);
    d.put("hydrogen_bond_donors", acceptors);
    d.put("hydrogen_bond_acceptors_lipinski", acceptors);
    d.put("hydrogen_bond_donors_lipinski", acceptors);
    d.put("lipinski_rule_of_five_violations", intOf(new RuleOfFiveDescriptor(), mol));
    d.put("aromatic_rings_count", aromaticRings(mol));
    d.put("qed_drug_likeliness", "None");
    d.put("formal_charge", AtomContainerManipulator.getTotalFormalCharge(mol));
    d.put("fractioncsp3", NatprodCdk.round(dbl(new FractionalCSP3Descriptor(), mol), 2));
    d.put("number_of_minimal_rings", Cycles.mcb(mol).numberOfCycles());
    double vabc = dbl(new VABCDescriptor(), mol);
    d.put("van_der_waals_volume", Double.isNaN(vabc) ? null : NatprodCdk.round(vabc, 2));
    // As upstream, the framework of a fresh parse (the descriptors above typed and aromatised `mol`).
    d.put("murcko_framework", murcko(NatprodCdk.parse(smiles)));
    d.put("molecular_formula", MolecularFormulaManipulator.getString(MolecularFormulaManipulator.getMolecularFormula(mol)));
    if (combined) {
      d.put("bond_count", intOf(new BondCountDescriptor(), mol));
      d.put("hydrogen_bond_donors_combined", intOf(new HBondDonorCountDescriptor(), mol));
    }
    return d;
  }

  static double dbl(IMolecularDescriptor desc, IAtomContainer mol) {
    DescriptorValue v = desc.calculate(mol);
    if (v.getException() != null) return Double.NaN;
    IDescriptorResult r = v.getValue();
    if (r instanceof DoubleResult) return ((DoubleResult) r).doubleValue();
    if (r instanceof IntegerResult) return ((IntegerResult) r).intValue();
    return Double.NaN;
  }

  static int intOf(IMolecularDescriptor desc, IAtomContainer mol) {
    IDescriptorResult r = desc.calculate(mol).getValue();
    if (r instanceof IntegerResult) return ((IntegerResult) r).intValue();
    if (r instanceof IntegerArrayResult) return ((IntegerArrayResult) r).get(0);
    return (int) dbl(desc, mol);
  }

  /**
   * Rings of the minimum cycle basis whose atoms are all aromatic (Daylight model). Types the
   * atoms of `mol` itself, as upstream does before the descriptors that follow (VABC needs them).
   */
  static int aromaticRings(IAtomContainer mol) throws Exception {
    AtomContainerManipulator.percieveAtomTypesAndConfigureAtoms(mol);
    new Aromaticity(ElectronDonation.daylight(), Cycles.all()).apply(mol);
    int n = 0;
    for (IAtomContainer ring : Cycles.mcb(mol).toRingSet().atomContainers()) {
      boolean all = true;
      for (IAtom a : ring.atoms()) all &= a.isAromatic();
      if (all) n++;
    }
    return n;
  }

  /** CDK's Murcko framework (single framework, minimum size 3), or "None". */
  static String murcko(IAtomContainer mol) throws Exception {
    MurckoFragmenter f = new MurckoFragmenter(true, 3);
    f.generateFragments(mol);
    // Upstream asks twice (`len(getFrameworks())`, then `getFrameworks()[0]`), and the second
    // answer differs: the first writes the SMILES after changing the fragments' hydrogens.
    if (f.getFrameworks().length == 0) return "None";
    return f.getFrameworks()[0];
  }
}
