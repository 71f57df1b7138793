package natprod.inchi;

import java.util.*;
import net.sf.jniinchi.*;
import org.openscience.cdk.CDKConstants;
import org.openscience.cdk.exception.CDKException;
import org.openscience.cdk.interfaces.*;
import org.openscience.cdk.stereo.ExtendedTetrahedral;

/**
 * CDK's InChI on JNI-InChI 0.8 and the InChI 1.03 library (Debian's libjni-inchi-java, libinchi1),
 * for a CDK without cdk-inchi (Debian's libcdk-java). A CDK IAtomContainer becomes a JNI-InChI
 * input the way CDK 2.8's InChIGenerator builds its JNA-InChI input: every atom with its element,
 * charge, mass number, implicit hydrogen count and radical, 3D coordinates when every atom has
 * them, else 2D, else none; every bond with its order (aromatic flags ignored: bonds are Kekulé, as
 * CDK's InChIGeneratorFactory defaults) and its wedge; tetrahedral, double-bond and allene (length
 * 2) stereo as 0D parities. Loaded by reflection from NatprodCdk, compiled only when the jar is there.
 */
public final class NatprodInchi {
  private NatprodInchi() {}

  /** The library's answer for these options, or an exception naming its message when it failed. */
  public static JniInchiOutput generate(IAtomContainer mol, List<INCHI_OPTION> options) throws CDKException {
    JniInchiInput input;
    try {
      input = new JniInchiInput(options);
    } catch (JniInchiException e) {
      throw new CDKException("InChI options refused: " + e.getMessage(), e);
    }
    fill(input, mol);
    JniInchiOutput out;
    try {
      out = JniInchiWrapper.getInchi(input);
    } catch (JniInchiException e) {
      throw new CDKException("InChI generation failed: " + e.getMessage(), e);
    }
    INCHI_RET ret = out.getReturnStatus();
    if (ret != INCHI_RET.OKAY && ret != INCHI_RET.WARNING) {
      String msg = out.getMessage();
      throw new CDKException("InChI " + ret + (msg == null || msg.isEmpty() ? "" : ": " + msg));
    }
    return out;
  }

  /** Standard InChI (CDK's default options: AuxNone). */
  public static String inchi(IAtomContainer mol) throws CDKException {
    return generate(mol, Collections.singletonList(INCHI_OPTION.AuxNone)).getInchi();
  }

  /** The standard InChIKey of a standard InChI. */
  public static String inchiKey(String inchi) throws CDKException {
    try {
      JniInchiOutputKey key = JniInchiWrapper.getInchiKey(inchi);
      if (key.getReturnStatus() != INCHI_KEY.OK) throw new CDKException("Error while creating InChIKey: " + key.getReturnStatus());
      return key.getKey();
    } catch (JniInchiException e) {
      throw new CDKException("Error while creating InChIKey: " + e.getMessage(), e);
    }
  }

  /** AuxInfo with the options InChINumbersTools.getUSmilesNumbers asks for: RecMet and FixedH. */
  public static String usmilesAuxInfo(IAtomContainer mol) throws CDKException {
    JniInchiOutput out = generate(mol, Arrays.asList(INCHI_OPTION.RecMet, INCHI_OPTION.FixedH));
    String aux = out.getAuxInfo();
    if (aux == null || aux.isEmpty()) throw new CDKException("Could not generate InChI Numbers: no AuxInfo");
    return aux;
  }

  /** The version the native library reports (JniInchiWrapper loads it on first use). */
  public static String version() throws Exception {
    JniInchiWrapper.loadLibrary();
    return "JNI-InChI 0.8, InChI 1.03";
  }

  private static void fill(JniInchiInput input, IAtomContainer mol) throws CDKException {
    boolean all3d = true, all2d = true;
    for (IAtom a : mol.atoms()) {
      if (a.getPoint3d() == null) all3d = false;
      if (a.getPoint2d() == null) all2d = false;
    }
    Map<IAtom, JniInchiAtom> map = new HashMap<>();
    for (IAtom a : mol.atoms()) {
      double x = 0, y = 0, z = 0;
      if (all3d) {
        x = a.getPoint3d().x; y = a.getPoint3d().y; z = a.getPoint3d().z;
      } else if (all2d) {
        x = a.getPoint2d().x; y = a.getPoint2d().y;
      }
      JniInchiAtom ia = input.addAtom(new JniInchiAtom(x, y, z, a.getSymbol()));
      map.put(a, ia);
      Integer charge = a.getFormalCharge();
      if (charge != null && charge != 0) ia.setCharge(charge);
      if (a.getMassNumber() != null) ia.setIsotopicMass(a.getMassNumber());
      Integer h = a.getImplicitHydrogenCount();
      ia.setImplicitH(h != null ? h : -1);
      int electrons = mol.getConnectedSingleElectronsCount(a);
      if (electrons == 1) {
        ia.setRadical(INCHI_RADICAL.DOUBLET);
      } else if (electrons == 2) {
        Object spin = a.getProperty(CDKConstants.SPIN_MULTIPLICITY);
        boolean singlet = spin instanceof Enum && ((Enum<?>) spin).name().equals("DivalentSinglet");
        ia.setRadical(singlet ? INCHI_RADICAL.SINGLET : INCHI_RADICAL.TRIPLET);
      } else if (electrons != 0) {
        throw new CDKException("Unrecognised radical type");
      }
    }
    for (IBond b : mol.bonds()) {
      if (b.getAtomCount() != 2) throw new CDKException("Failed to generate InChI: a bond joins " + b.getAtomCount() + " atoms");
      INCHI_BOND_TYPE order;
      IBond.Order bo = b.getOrder();
      if (bo == IBond.Order.SINGLE) order = INCHI_BOND_TYPE.SINGLE;
      else if (bo == IBond.Order.DOUBLE) order = INCHI_BOND_TYPE.DOUBLE;
      else if (bo == IBond.Order.TRIPLE) order = INCHI_BOND_TYPE.TRIPLE;
      else throw new CDKException("Failed to generate InChI: Unsupported bond type");
      input.addBond(new JniInchiBond(map.get(b.getBegin()), map.get(b.getEnd()), order, wedge(b.getStereo())));
    }
    for (IStereoElement<?, ?> se : mol.stereoElements()) {
      if (se instanceof ITetrahedralChirality) {
        ITetrahedralChirality tc = (ITetrahedralChirality) se;
        IAtom[] l = tc.getLigands();
        input.addStereo0D(new JniInchiStereo0D(map.get(tc.getChiralAtom()), map.get(l[0]), map.get(l[1]), map.get(l[2]), map.get(l[3]),
            INCHI_STEREOTYPE.TETRAHEDRAL, parity(tc.getStereo())));
      } else if (se instanceof IDoubleBondStereochemistry) {
        IDoubleBondStereochemistry db = (IDoubleBondStereochemistry) se;
        IBond[] around = db.getBonds();
        if (around[0] == null || around[1] == null) throw new CDKException("Cannot generate an InChI with incomplete double bond info");
        IBond middle = db.getStereoBond();
        // at0-at1=at2-at3: at1 and at2 are the double bond's own atoms.
        IAtom a0, a1, a2, a3;
        if (middle.contains(around[0].getBegin())) { a1 = around[0].getBegin(); a0 = around[0].getEnd(); }
        else { a0 = around[0].getBegin(); a1 = around[0].getEnd(); }
        if (middle.contains(around[1].getBegin())) { a2 = around[1].getBegin(); a3 = around[1].getEnd(); }
        else { a2 = around[1].getEnd(); a3 = around[1].getBegin(); }
        INCHI_PARITY p;
        if (db.getStereo() == IDoubleBondStereochemistry.Conformation.TOGETHER) p = INCHI_PARITY.ODD;
        else if (db.getStereo() == IDoubleBondStereochemistry.Conformation.OPPOSITE) p = INCHI_PARITY.EVEN;
        else throw new CDKException("Unknown double bond stereochemistry");
        input.addStereo0D(new JniInchiStereo0D(null, map.get(a0), map.get(a1), map.get(a2), map.get(a3), INCHI_STEREOTYPE.DOUBLEBOND, p));
      } else if (se instanceof ExtendedTetrahedral) {
        allene(input, map, mol, (ExtendedTetrahedral) se);
      }
    }
  }

  private static INCHI_BOND_STEREO wedge(IBond.Stereo s) {
    if (s == null) return INCHI_BOND_STEREO.NONE;
    switch (s) {
      case UP: return INCHI_BOND_STEREO.SINGLE_1UP;
      case UP_INVERTED: return INCHI_BOND_STEREO.SINGLE_2UP;
      case DOWN: return INCHI_BOND_STEREO.SINGLE_1DOWN;
      case DOWN_INVERTED: return INCHI_BOND_STEREO.SINGLE_2DOWN;
      case UP_OR_DOWN: return INCHI_BOND_STEREO.SINGLE_1EITHER;
      case UP_OR_DOWN_INVERTED: return INCHI_BOND_STEREO.SINGLE_2EITHER;
      case E_OR_Z: return INCHI_BOND_STEREO.DOUBLE_EITHER;
      default: return INCHI_BOND_STEREO.NONE;
    }
  }

  private static INCHI_PARITY parity(ITetrahedralChirality.Stereo s) throws CDKException {
    if (s == ITetrahedralChirality.Stereo.ANTI_CLOCKWISE) return INCHI_PARITY.ODD;
    if (s == ITetrahedralChirality.Stereo.CLOCKWISE) return INCHI_PARITY.EVEN;
    throw new CDKException("Unknown tetrahedral chirality");
  }

  /**
   * An allene (cumulene of length 2): InChI wants the four neighbours as p0, t0, t1, p3 (each
   * terminal atom in the middle places), so an explicit neighbour is replaced by its terminal atom
   * and every exchange of two places inverts the winding.
   */
  private static void allene(JniInchiInput input, Map<IAtom, JniInchiAtom> map, IAtomContainer mol, ExtendedTetrahedral et) throws CDKException {
    IAtom focus = et.getFocus();
    if (ExtendedTetrahedral.getLength(mol, focus) > 2) return;
    ITetrahedralChirality.Stereo winding = et.winding();
    IAtom[] t = et.findTerminalAtoms(mol);
    IAtom[] p = et.peripherals();
    List<IBond> t0 = singles(mol.getConnectedBondsList(t[0])), t1 = singles(mol.getConnectedBondsList(t[1]));
    if (t0.size() == 2) replace(p, t0.remove(0).getOther(t[0]), t[0]);
    if (t1.size() == 2) replace(p, t1.remove(0).getOther(t[1]), t[1]);
    IAtom n0 = t0.get(0).getOther(t[0]), n1 = t1.get(0).getOther(t[1]);
    IAtom[] want = {n0, t[0], t[1], n1};
    for (int i = 0; i < p.length; i++) {
      for (int k = 0; k < 4; k++) {
        if (i != k && want[k].equals(p[i])) {
          IAtom tmp = p[i]; p[i] = p[k]; p[k] = tmp;
          winding = winding.invert();
          break;
        }
      }
    }
    input.addStereo0D(new JniInchiStereo0D(map.get(focus), map.get(p[0]), map.get(p[1]), map.get(p[2]), map.get(p[3]),
        INCHI_STEREOTYPE.ALLENE, parity(winding)));
  }

  private static void replace(IAtom[] p, IAtom from, IAtom to) {
    for (int i = 0; i < p.length; i++) if (p[i] == from) p[i] = to;
  }

  private static List<IBond> singles(List<IBond> bonds) {
    List<IBond> out = new ArrayList<>();
    for (IBond b : bonds) if (b.getOrder() == IBond.Order.SINGLE) out.add(b);
    return out;
  }
}
