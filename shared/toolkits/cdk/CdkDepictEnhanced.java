import java.awt.Color;
import java.util.*;
import javax.vecmath.Point2d;
import org.openscience.cdk.CDKConstants;
import org.openscience.cdk.aromaticity.Aromaticity;
import org.openscience.cdk.aromaticity.ElectronDonation;
import org.openscience.cdk.depict.Depiction;
import org.openscience.cdk.depict.DepictionGenerator;
import org.openscience.cdk.geometry.GeometryUtil;
import org.openscience.cdk.geometry.cip.CIPTool;
import org.openscience.cdk.graph.Cycles;
import org.openscience.cdk.interfaces.*;
import org.openscience.cdk.layout.StructureDiagramGenerator;
import org.openscience.cdk.renderer.SymbolVisibility;
import org.openscience.cdk.renderer.color.CDK2DAtomColors;
import org.openscience.cdk.renderer.color.IAtomColorer;
import org.openscience.cdk.renderer.color.UniColor;
import org.openscience.cdk.renderer.generators.standard.StandardGenerator;
import org.openscience.cdk.smarts.SmartsPattern;
import org.openscience.cdk.smiles.SmilesParser;

/**
 * The original's /depict/2D_enhanced on CDK 2.8's DepictionGenerator (docs/toolkits.md, "Enhanced
 * depiction"): highlighting from CXSMILES `ha:`/`hb:`, atom indices and SMARTS (at most `smalim`
 * matches); hydrogen display; CDK's own abbreviations (its Open Babel superatom list) and natprod's
 * reagent list; dative and multicenter (CXSMILES `m:`) bonds; annotations; style presets and
 * colours; aromatic donuts; zoom, stroke ratio, flip, rotation, IUPAC symbol visibility; radicals;
 * titles; reactions with forward or equilibrium arrows. What CDK 2.8 cannot draw is refused with a
 * BadInput naming the option (the api checks the same first).
 */
final class CdkDepictEnhanced {
  static final Color TRANSPARENT = new Color(0, 0, 0, 0);

  static String svg(Map<String, Object> req) throws Exception {
    String input = str(req, "smiles", "").trim();
    List<Integer> cxAtoms = new ArrayList<>(), cxBonds = new ArrayList<>();
    String smiles = CdkMolPrep.stripHighlights(input, cxAtoms, cxBonds);
    SmilesParser sp = new SmilesParser(NatprodCdk.BUILDER);
    DepictionGenerator dg = style(req);
    dg = dg.withZoom(dbl(req, "zoom", 1.0)).withParam(StandardGenerator.StrokeRatio.class, dbl(req, "ratio", 1.0));
    if (bool(req, "anon")) dg = dg.withParam(StandardGenerator.Visibility.class, SymbolVisibility.iupacRecommendations());
    // CDK ignores the zoom of a drawing filled to fit its size: zoom 1 fills the canvas (as /depict/2D),
    // any other zoom draws CDK's default bond length times zoom, centred.
    if (dbl(req, "zoom", 1.0) == 1.0) dg = dg.withFillToFit();
    String title = str(req, "title", null);
    String units = str(req, "svgunits", "px");
    if (!units.equals("px") && !units.equals("mm")) throw new NatprodCdk.BadInput("svgunits=" + units + ": CDK 2.8 writes SVG in px or mm only");
    if (smiles.contains(">")) return reaction(sp, smiles, dg, req, title).toSvgStr(units);
    IAtomContainer mol;
    try {
      mol = sp.parseSmiles(smiles);
    } catch (Exception e) {
      throw new NatprodCdk.BadInput("CDK could not read the SMILES: " + e.getMessage());
    }
    if (title != null && !title.isEmpty()) mol.setTitle(title);
    if (bool(req, "perceive_radicals")) CdkMolPrep.radicals(mol);
    Set<Integer> atomIds = new TreeSet<>(cxAtoms);
    for (String n : str(req, "atomIds", "").split(",")) if (!n.isEmpty()) atomIds.add(Integer.parseInt(n));
    String abbreviate = str(req, "abbreviate", "off");
    String hydrogens = str(req, "hydrogen_display", "Smart");
    CdkMolPrep.hydrogens(mol, hydrogens);
    if (!abbreviate.equals("off")) CdkMolPrep.abbreviate(mol, abbreviate, atomIds);
    CdkMolPrep.dative(mol, str(req, "dative", "metals"));
    new StructureDiagramGenerator().generateCoordinates(mol);
    String annotate = str(req, "annotate", "none");
    if (bool(req, "CIP") || annotate.equals("cip")) cip(mol);
    CdkMolPrep.multicenter(mol, str(req, "multicenter", "provided"));
    if (bool(req, "donuts")) {
      Aromaticity arom = new Aromaticity(ElectronDonation.daylight(), Cycles.or(Cycles.all(), Cycles.all(6)));
      arom.apply(mol);
      // Donuts only in rings whose bonds are aromatic and drawn delocalised (CDK's StandardDonutGenerator).
      dg = dg.withParam(StandardGenerator.DelocalisedDonutsBondDisplay.class, true)
          .withParam(StandardGenerator.ForceDelocalisedBondDisplay.class, true);
    } else {
      for (IBond b : mol.bonds()) b.setIsAromatic(false);
      for (IAtom a : mol.atoms()) a.setIsAromatic(false);
    }
    if (bool(req, "flip")) {
      for (IAtom a : mol.atoms()) if (a.getPoint2d() != null) a.setPoint2d(new Point2d(-a.getPoint2d().x, a.getPoint2d().y));
    }
    int rotate = CdkDepict.num(req, "rotate", 0);
    if (rotate != 0) GeometryUtil.rotate(mol, GeometryUtil.get2DCenter(mol), Math.toRadians(rotate));
    if (bool(req, "showAtomNumbers")) annotate = "number";
    dg = annotate(dg, mol, annotate);
    if (bool(req, "showtitle")) dg = dg.withMolTitle();
    dg = highlight(dg, mol, req, atomIds, cxBonds);
    return dg.depict(mol).toSvgStr(units);
  }

  static Depiction reaction(SmilesParser sp, String smiles, DepictionGenerator dg, Map<String, Object> req, String title) throws Exception {
    IReaction rxn;
    try {
      rxn = sp.parseReactionSmiles(smiles);
    } catch (Exception e) {
      throw new NatprodCdk.BadInput("CDK could not read the reaction SMILES: " + e.getMessage());
    }
    String arrow = str(req, "arrow", "");
    if (arrow.equals("equ")) rxn.setDirection(IReaction.Direction.BIDIRECTIONAL);
    else if (!arrow.isEmpty() && !arrow.equals("forward")) throw new NatprodCdk.BadInput("arrow=" + arrow + ": CDK 2.8 draws forward and equilibrium arrows only");
    if (title != null && !title.isEmpty()) rxn.setProperty(CDKConstants.TITLE, title);
    dg = dg.withMappedRxnAlign(bool(req, "alignrxnmap"));
    String annotate = str(req, "annotate", "none");
    if (annotate.equals("mapidx")) dg = dg.withAtomMapNumbers();
    else if (annotate.equals("colmap")) dg = dg.withAtomMapHighlight();
    else if (!annotate.equals("none")) throw new NatprodCdk.BadInput("annotate=" + annotate + " is not drawn on reactions (mapidx and colmap are)");
    if (bool(req, "showtitle")) dg = dg.withRxnTitle();
    return dg.depict(rxn);
  }

  /** Style presets (cow, cob, cot, bow, bot, wob, nob), unicolor, then the caller's colours. */
  static DepictionGenerator style(Map<String, Object> req) throws NatprodCdk.BadInput {
    String style = bool(req, "unicolor") ? "bow" : str(req, "style", "cow");
    Color bg, fg;
    IAtomColorer atoms;
    switch (style) {
      case "cow": bg = Color.WHITE; fg = Color.BLACK; atoms = new CDK2DAtomColors(); break;
      case "cot": bg = TRANSPARENT; fg = Color.BLACK; atoms = new CDK2DAtomColors(); break;
      case "cob": bg = Color.BLACK; fg = Color.WHITE; atoms = onBlack(new CDK2DAtomColors()); break;
      case "bow": bg = Color.WHITE; fg = Color.BLACK; atoms = new UniColor(Color.BLACK); break;
      case "bot": bg = TRANSPARENT; fg = Color.BLACK; atoms = new UniColor(Color.BLACK); break;
      case "wob": bg = Color.BLACK; fg = Color.WHITE; atoms = new UniColor(Color.WHITE); break;
      case "nob": bg = Color.BLACK; fg = Color.WHITE; atoms = new UniColor(new Color(0, 255, 255)); break;
      default: throw new NatprodCdk.BadInput("unknown style " + style);
    }
    String bgVar = str(req, "bgcolor", null), fgVar = str(req, "fgcolor", null);
    if (bgVar != null && !bgVar.equals("default")) bg = color(bgVar, "bgcolor");
    if (fgVar != null && !fgVar.equals("default")) fg = color(fgVar, "fgcolor");
    return new DepictionGenerator()
        .withSize(CdkDepict.num(req, "width", 512), CdkDepict.num(req, "height", 512))
        .withAtomColors(atoms)
        .withBackgroundColor(bg)
        .withAnnotationColor(fg)
        .withTitleColor(fg);
  }

  /** CDK's 2D colours with carbon and hydrogen white, for a black background. */
  static IAtomColorer onBlack(IAtomColorer base) {
    return new IAtomColorer() {
      public Color getAtomColor(IAtom a) { return getAtomColor(a, Color.WHITE); }
      public Color getAtomColor(IAtom a, Color dflt) {
        Integer z = a.getAtomicNumber();
        return z != null && (z == 6 || z == 1) ? Color.WHITE : base.getAtomColor(a, dflt);
      }
    };
  }

  /** #RRGGBB, #RRGGBBAA, 0x... or a decimal number, as java.awt.Color.decode with an alpha byte. */
  static Color color(String v, String param) throws NatprodCdk.BadInput {
    String hex = v.startsWith("#") ? v.substring(1) : v.startsWith("0x") || v.startsWith("0X") ? v.substring(2) : null;
    try {
      if (hex != null && hex.length() == 8) {
        long rgba = Long.parseLong(hex, 16);
        return new Color((int) (rgba >> 24) & 255, (int) (rgba >> 16) & 255, (int) (rgba >> 8) & 255, (int) rgba & 255);
      }
      return Color.decode(v);
    } catch (NumberFormatException e) {
      throw new NatprodCdk.BadInput(param + "=" + v + " is not a colour (#RRGGBB or #RRGGBBAA)");
    }
  }

  static void cip(IAtomContainer mol) {
    CIPTool.label(mol);
    for (IAtom a : mol.atoms()) {
      Object label = a.getProperty(CDKConstants.CIP_DESCRIPTOR);
      if (label != null && !"NONE".equals(label)) a.setProperty(StandardGenerator.ANNOTATION_LABEL, "(" + label + ")");
    }
    for (IBond b : mol.bonds()) {
      Object label = b.getProperty(CDKConstants.CIP_DESCRIPTOR);
      if (label != null && !"NONE".equals(label)) b.setProperty(StandardGenerator.ANNOTATION_LABEL, "(" + label + ")");
    }
  }

  /** number and bondnumber: 0-based indices (as the original documents); mapidx, atomvalue, colmap: CDK's own. */
  static DepictionGenerator annotate(DepictionGenerator dg, IAtomContainer mol, String mode) throws NatprodCdk.BadInput {
    switch (mode) {
      case "none": case "cip": return dg;
      case "number":
        for (IAtom a : mol.atoms()) a.setProperty(StandardGenerator.ANNOTATION_LABEL, String.valueOf(a.getIndex()));
        return dg;
      case "bondnumber":
        for (IBond b : mol.bonds()) b.setProperty(StandardGenerator.ANNOTATION_LABEL, String.valueOf(b.getIndex()));
        return dg;
      case "mapidx": return dg.withAtomMapNumbers();
      case "atomvalue": return dg.withAtomValues();
      case "colmap": return dg.withAtomMapHighlight();
      default: throw new NatprodCdk.BadInput("unknown annotate mode " + mode);
    }
  }

  /** The atoms and bonds of the SMARTS matches (at most smalim), the given atom indices (with the bonds between them) and bond indices. */
  static DepictionGenerator highlight(DepictionGenerator dg, IAtomContainer mol, Map<String, Object> req, Set<Integer> atomIds, List<Integer> bondIds) throws NatprodCdk.BadInput {
    String style = bool(req, "unicolor") ? "bow" : str(req, "style", "cow");
    Color color = style.equals("nob") ? new Color(255, 170, 170) : Set.of("bow", "wob", "bot").contains(style) ? Color.RED : new Color(170, 255, 170);
    Set<IChemObject> hits = new LinkedHashSet<>();
    String smarts = str(req, "highlight", "");
    if (smarts != null && !smarts.isEmpty()) {
      SmartsPattern pattern;
      try {
        pattern = SmartsPattern.create(smarts);
      } catch (Exception e) {
        throw new NatprodCdk.BadInput("invalid highlight SMARTS: " + e.getMessage());
      }
      int limit = CdkDepict.num(req, "smalim", 100);
      for (int[] match : pattern.matchAll(mol).limit(limit)) {
        Set<IAtom> atoms = new HashSet<>();
        for (int i : match) atoms.add(mol.getAtom(i));
        hits.addAll(atoms);
        for (IBond b : mol.bonds()) if (atoms.contains(b.getBegin()) && atoms.contains(b.getEnd())) hits.add(b);
      }
    }
    Set<IAtom> chosen = new HashSet<>();
    for (int i : atomIds) if (i >= 0 && i < mol.getAtomCount()) chosen.add(mol.getAtom(i));
    hits.addAll(chosen);
    for (IBond b : mol.bonds()) if (chosen.contains(b.getBegin()) && chosen.contains(b.getEnd())) hits.add(b);
    for (int i : bondIds) if (i >= 0 && i < mol.getBondCount()) hits.add(mol.getBond(i));
    return hits.isEmpty() ? dg : dg.withHighlight(hits, color);
  }

  static String str(Map<String, Object> req, String key, String dflt) {
    Object v = req.get(key);
    return v instanceof String ? (String) v : dflt;
  }

  static boolean bool(Map<String, Object> req, String key) {
    return Boolean.TRUE.equals(req.get(key));
  }

  static double dbl(Map<String, Object> req, String key, double dflt) {
    Object v = req.get(key);
    return v instanceof Number ? ((Number) v).doubleValue() : dflt;
  }
}
