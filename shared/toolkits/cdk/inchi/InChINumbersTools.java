package org.openscience.cdk.graph.invariant;

import java.util.List;
import natprod.inchi.NatprodInchi;
import org.openscience.cdk.exception.CDKException;
import org.openscience.cdk.interfaces.IAtom;
import org.openscience.cdk.interfaces.IAtomContainer;
import org.openscience.cdk.interfaces.IBond;

/**
 * The class CDK's SmilesGenerator looks up by name for canonical isomeric (absolute) SMILES: with
 * SmiFlavor.Isomeric it labels atoms with getUSmilesNumbers and writes the graph permuted by those
 * labels; without this class (Debian's CDK has no cdk-inchi) it refuses. natprod's own version,
 * on JNI-InChI (natprod.inchi.NatprodInchi): the InChI canonical numbers of O'Boyle's Universal
 * SMILES, read from the AuxInfo of an InChI computed with RecMet and FixedH.
 *  - Rule A: the reconnected-metal numbering (/R: then its /N:) before the plain one; within
 *    that, the fixed-H numbering (/F:) before the standard (/N:); an /F: component written
 *    "m" or "<k>m" takes the next k components of the standard numbering as they are.
 *  - Rule E: when a component starts at a negatively charged oxygen whose only neighbour carries a
 *    neutral doubly bonded oxygen, that oxygen takes the start label instead (InChI sees them as one).
 *  - Atoms without a number (hydrogens InChI keeps implicit) follow, in input order.
 */
public final class InChINumbersTools {
  private InChINumbersTools() {}

  public static long[] getUSmilesNumbers(IAtomContainer container) throws CDKException {
    if (container.isEmpty()) return new long[0];
    return usmilesNumbers(NatprodInchi.usmilesAuxInfo(container), container);
  }

  static long[] usmilesNumbers(String aux, IAtomContainer mol) {
    long[] labels = new long[mol.getAtomCount()];
    long next = 1;
    String reconnected = layer(aux, "/R:", "/N:");
    List<Integer> starts = new java.util.ArrayList<>();
    if (reconnected != null) {
      for (String component : reconnected.split(";")) next = number(component, labels, next, starts);
    } else {
      String standard = layer(aux, "/N:", null);
      if (standard == null) throw new IllegalArgumentException("AuxInfo did not contain extractable base numbers (/N: or /R:).");
      String[] base = standard.split(";");
      String fixed = layer(aux, "/F:", null);
      if (fixed == null) {
        for (String component : base) next = number(component, labels, next, starts);
      } else {
        String[] parts = fixed.split(";");
        for (int i = 0; i < parts.length; i++) {
          String component = parts[i];
          if (component.endsWith("m")) {
            int k = component.length() > 1 ? Integer.parseInt(component.substring(0, component.length() - 1)) : 1;
            for (int j = 0; j < k; j++) next = number(base[i + j], labels, next, starts);
          } else {
            next = number(component, labels, next, null);
          }
        }
      }
    }
    for (int start : starts) {
      IAtom atom = mol.getAtom(start);
      Integer charge = atom.getFormalCharge();
      if (atom.getAtomicNumber() != 8 || charge == null || charge != -1) continue;
      List<IAtom> nbrs = mol.getConnectedAtomsList(atom);
      if (nbrs.size() != 1) continue;
      IAtom carbonyl = neutralDoubleOxygen(mol, nbrs.get(0));
      if (carbonyl == null) continue;
      int other = mol.indexOf(carbonyl);
      long tmp = labels[start];
      labels[start] = labels[other];
      labels[other] = tmp;
    }
    for (int i = 0; i < labels.length; i++) if (labels[i] == 0) labels[i] = next++;
    return labels;
  }

  /** The text of a layer up to the next '/', starting `skip` further in (e.g. /R: then its /N:), or null. */
  private static String layer(String aux, String tag, String then) {
    int at = aux.indexOf(tag);
    if (at < 0) return null;
    int from = at + tag.length();
    if (then != null) {
      int inner = aux.indexOf(then, from);
      if (inner < 0) return null;
      from = inner + then.length();
    }
    int end = aux.indexOf('/', from);
    return aux.substring(from, end < 0 ? aux.length() : end);
  }

  /** Label the comma-separated 1-based atom numbers of one component in order; note its first atom. */
  private static long number(String component, long[] labels, long next, List<Integer> starts) {
    String[] numbers = component.split(",");
    if (starts != null) starts.add(Integer.parseInt(numbers[0]) - 1);
    for (String n : numbers) labels[Integer.parseInt(n) - 1] = next++;
    return next;
  }

  private static IAtom neutralDoubleOxygen(IAtomContainer mol, IAtom atom) {
    for (IBond b : mol.getConnectedBondsList(atom)) {
      if (b.getOrder() != IBond.Order.DOUBLE) continue;
      IAtom o = b.getOther(atom);
      Integer charge = o.getFormalCharge();
      if (o.getAtomicNumber() == 8 && (charge == null || charge == 0)) return o;
    }
    return null;
  }
}
