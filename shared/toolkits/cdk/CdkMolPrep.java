import java.util.*;
import org.openscience.cdk.CDKConstants;
import org.openscience.cdk.config.Elements;
import org.openscience.cdk.depict.Abbreviations;
import org.openscience.cdk.graph.Cycles;
import org.openscience.cdk.interfaces.*;
import org.openscience.cdk.renderer.generators.standard.StandardGenerator;
import org.openscience.cdk.sgroup.Sgroup;
import org.openscience.cdk.sgroup.SgroupType;
import org.openscience.cdk.stereo.TetrahedralChirality;
import org.openscience.cdk.tools.manipulator.AtomContainerManipulator;

/**
 * What /depict/2D_enhanced does to the molecule before CDK draws it (CdkDepictEnhanced): CXSMILES
 * highlight fields, hydrogen display, abbreviations, dative and multicenter bonds, radicals.
 */
final class CdkMolPrep {
  private CdkMolPrep() {}

  /** Takes the CXSMILES highlight fields (ha: atoms, hb: bonds; CDK 2.8 does not know them) out of the |...| block. */
  static String stripHighlights(String input, List<Integer> atoms, List<Integer> bonds) throws NatprodCdk.BadInput {
    int open = input.indexOf(" |");
    if (open < 0 || !input.endsWith("|")) return input;
    String block = input.substring(open + 2, input.length() - 1);
    List<String> kept = new ArrayList<>();
    // Fields are separated by commas at the top level; a field's own lists also use commas, so split on ",<letter>".
    for (String field : block.split(",(?=[A-Za-z$^&(])")) {
      if (field.startsWith("ha:") || field.startsWith("hb:")) {
        for (String n : field.substring(3).split(",")) {
          if (n.isEmpty()) continue;
          try {
            (field.charAt(1) == 'a' ? atoms : bonds).add(Integer.parseInt(n.trim()));
          } catch (NumberFormatException e) {
            throw new NatprodCdk.BadInput("CXSMILES " + field.substring(0, 2) + ": not a list of atom or bond indices: " + field);
          }
        }
      } else if (!field.isEmpty()) {
        kept.add(field);
      }
    }
    return kept.isEmpty() ? input.substring(0, open) : input.substring(0, open) + " |" + String.join(",", kept) + "|";
  }

  /**
   * Provided: as read. Minimal: every hydrogen implicit. Explicit: every hydrogen an atom. Stereo:
   * minimal, then the implicit hydrogen of each tetrahedral stereocentre drawn (its wedge shows the
   * configuration). Smart: as Stereo, for stereocentres in two or more rings only (fused and bridged
   * ring atoms, where a wedge to a ring bond reads badly); elsewhere minimal.
   */
  static void hydrogens(IAtomContainer mol, String mode) throws NatprodCdk.BadInput {
    switch (mode) {
      case "Provided": return;
      case "Minimal": AtomContainerManipulator.suppressHydrogens(mol); return;
      case "Explicit": AtomContainerManipulator.convertImplicitToExplicitHydrogens(mol); return;
      case "Stereo": case "Smart": break;
      default: throw new NatprodCdk.BadInput("unknown hydrogen_display " + mode);
    }
    AtomContainerManipulator.suppressHydrogens(mol);
    Cycles.markRingAtomsAndBonds(mol);
    List<IStereoElement> replaced = new ArrayList<>();
    for (IStereoElement se : mol.stereoElements()) {
      if (!(se instanceof ITetrahedralChirality)) { replaced.add(se); continue; }
      ITetrahedralChirality tc = (ITetrahedralChirality) se;
      IAtom focus = tc.getChiralAtom();
      Integer h = focus.getImplicitHydrogenCount();
      int ringBonds = 0;
      for (IBond b : mol.getConnectedBondsList(focus)) if (b.isInRing()) ringBonds++;
      if (h == null || h != 1 || (mode.equals("Smart") && ringBonds < 3)) { replaced.add(se); continue; }
      IAtom hydrogen = NatprodCdk.BUILDER.newInstance(IAtom.class, "H");
      hydrogen.setImplicitHydrogenCount(0);
      mol.addAtom(hydrogen);
      hydrogen = mol.getAtom(mol.getAtomCount() - 1);
      mol.addBond(mol.indexOf(focus), mol.getAtomCount() - 1, IBond.Order.SINGLE);
      focus.setImplicitHydrogenCount(0);
      IAtom[] ligands = tc.getLigands().clone();
      for (int i = 0; i < ligands.length; i++) if (ligands[i].equals(focus)) ligands[i] = hydrogen;
      replaced.add(new TetrahedralChirality(focus, ligands, tc.getStereo()));
    }
    mol.setStereoElements(replaced);
  }

  static void abbreviate(IAtomContainer mol, String mode, Set<Integer> keep) throws Exception {
    Abbreviations abbr = new Abbreviations();
    abbr.setContractToSingleLabel(true);
    if (mode.equals("groups") || mode.equals("on")) abbr.loadFromFile("obabel_superatoms.smi");
    if (mode.equals("reagents") || mode.equals("on")) for (String line : CdkReagents.LIST) abbr.add(line);
    List<Sgroup> sgroups = abbr.generate(mol);
    List<Sgroup> use = new ArrayList<>();
    // An abbreviation never hides an atom the caller asked to highlight.
    for (Sgroup sg : sgroups) {
      boolean hides = false;
      for (IAtom a : sg.getAtoms()) if (keep.contains(mol.indexOf(a))) hides = true;
      if (!hides) use.add(sg);
    }
    if (use.isEmpty()) return;
    List<Sgroup> all = new ArrayList<>();
    List<Sgroup> existing = mol.getProperty(CDKConstants.CTAB_SGROUPS);
    if (existing != null) all.addAll(existing);
    all.addAll(use);
    mol.setProperty(CDKConstants.CTAB_SGROUPS, all);
  }

  /**
   * Dative bonds from charge-separated single bonds: a donor (N, O, P, S, As, Se) at +1 bonded to an
   * acceptor at -1 becomes donor→acceptor with both charges removed. metals: acceptors are metals;
   * always: any acceptor (e.g. B in H3N+-B-H3, or the O of an amine oxide, drawn N→O).
   */
  static void dative(IAtomContainer mol, String mode) throws NatprodCdk.BadInput {
    if (mode.equals("never")) return;
    if (!mode.equals("metals") && !mode.equals("always")) throw new NatprodCdk.BadInput("unknown dative mode " + mode);
    for (IBond b : mol.bonds()) {
      if (b.getOrder() != IBond.Order.SINGLE) continue;
      IAtom x = b.getBegin(), y = b.getEnd();
      for (IAtom[] pair : new IAtom[][] {{x, y}, {y, x}}) {
        IAtom donor = pair[0], acceptor = pair[1];
        if (charge(donor) != 1 || charge(acceptor) != -1 || !DONORS.contains(donor.getAtomicNumber())) continue;
        if (mode.equals("metals") && !Elements.isMetal(acceptor.getAtomicNumber())) continue;
        donor.setFormalCharge(0);
        acceptor.setFormalCharge(0);
        b.setDisplay(b.getBegin().equals(donor) ? IBond.Display.ArrowEnd : IBond.Display.ArrowBeg);
        break;
      }
    }
  }

  static final Set<Integer> DONORS = new HashSet<>(Arrays.asList(7, 8, 15, 16, 33, 34));

  static int charge(IAtom a) {
    return a.getFormalCharge() == null ? 0 : a.getFormalCharge();
  }

  /** The bonds of CXSMILES positional-variation (m:) groups, drawn as CDK does, as arrows, dashed, or hidden. */
  static void multicenter(IAtomContainer mol, String mode) throws NatprodCdk.BadInput {
    if (mode.equals("provided")) return;
    List<Sgroup> sgroups = mol.getProperty(CDKConstants.CTAB_SGROUPS);
    if (sgroups == null) return;
    for (Sgroup sg : sgroups) {
      if (sg.getType() != SgroupType.ExtMulticenter) continue;
      for (IBond b : sg.getBonds()) {
        switch (mode) {
          case "dative": b.setDisplay(IBond.Display.ArrowEnd); break;
          case "dashed": case "dashed_neutral": b.setDisplay(IBond.Display.Dash); break;
          case "hidden": case "hidden_neutral": b.setProperty(StandardGenerator.HIDDEN, true); break;
          default: throw new NatprodCdk.BadInput("unknown multicenter mode " + mode);
        }
      }
      if (mode.endsWith("_neutral")) for (IAtom a : sg.getAtoms()) a.setFormalCharge(0);
    }
  }

  /** Unpaired electrons where an atom of a main-group element has fewer bonds and hydrogens than its usual valence. */
  static void radicals(IAtomContainer mol) {
    Map<Integer, Integer> valence = Map.of(5, 3, 6, 4, 7, 3, 8, 2, 9, 1, 17, 1, 35, 1, 53, 1);
    for (IAtom a : mol.atoms()) {
      Integer v = valence.get(a.getAtomicNumber());
      if (v == null || charge(a) != 0 || mol.getConnectedSingleElectronsCount(a) > 0) continue;
      int used = a.getImplicitHydrogenCount() == null ? 0 : a.getImplicitHydrogenCount();
      for (IBond b : mol.getConnectedBondsList(a)) used += b.getOrder() == null ? 1 : b.getOrder().numeric();
      for (int i = used; i < v && i < used + 2; i++) mol.addSingleElectron(mol.indexOf(a));
    }
  }
}
