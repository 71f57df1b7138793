import java.io.*;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.*;
import javax.vecmath.Point2d;
import java.awt.Color;
import org.openscience.cdk.CDK;
import org.openscience.cdk.CDKConstants;
import org.openscience.cdk.aromaticity.Aromaticity;
import org.openscience.cdk.aromaticity.ElectronDonation;
import org.openscience.cdk.depict.DepictionGenerator;
import org.openscience.cdk.fingerprint.CircularFingerprinter;
import org.openscience.cdk.fingerprint.IBitFingerprint;
import org.openscience.cdk.fragment.MurckoFragmenter;
import org.openscience.cdk.geometry.GeometryUtil;
import org.openscience.cdk.graph.Cycles;
import org.openscience.cdk.interfaces.*;
import org.openscience.cdk.io.MDLV2000Writer;
import org.openscience.cdk.isomorphism.Pattern;
import org.openscience.cdk.layout.StructureDiagramGenerator;
import org.openscience.cdk.qsar.descriptors.molecular.*;
import org.openscience.cdk.qsar.result.*;
import org.openscience.cdk.renderer.color.CDK2DAtomColors;
import org.openscience.cdk.renderer.color.UniColor;
import org.openscience.cdk.renderer.generators.standard.StandardGenerator;
import org.openscience.cdk.similarity.Tanimoto;
import org.openscience.cdk.silent.SilentChemObjectBuilder;
import org.openscience.cdk.smarts.SmartsPattern;
import org.openscience.cdk.smiles.SmiFlavor;
import org.openscience.cdk.smiles.SmilesGenerator;
import org.openscience.cdk.smiles.SmilesParser;
import org.openscience.cdk.tools.HOSECodeGenerator;
import org.openscience.cdk.tools.manipulator.AtomContainerManipulator;
import org.openscience.cdk.tools.manipulator.MolecularFormulaManipulator;

/**
 * natprod's CDK sidecar (shared/toolkits/cdk.ts). One JSON object per line in, one per line out:
 *   in:  {"id":"7","op":"canonical_smiles","smiles":"CCO", ...op arguments}
 *   out: {"id":"7","ok":true,"value":...} or {"id":"7","ok":false,"kind":"invalid_input","message":"..."}
 * The first line written is {"ready":true,"version":"CDK 2.8"}. Every request gets exactly one
 * answer with its id, whatever CDK throws (a Throwable is a failure line, never a dead process).
 * The calls follow the original service's CDK wrapper: parse, lay out with CDK's SDG, then write.
 */
public final class NatprodCdk {
  static final IChemObjectBuilder BUILDER = SilentChemObjectBuilder.getInstance();

  public static void main(String[] args) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, "UTF-8");
    // Libraries must not write to our stdout: the protocol owns it.
    System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    answer(out, "{\"ready\":true,\"version\":" + str("CDK " + CDK.getVersion()) + "}");
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isBlank()) continue;
      String id = "";
      try {
        Map<String, Object> req = Json.parse(line);
        id = String.valueOf(req.getOrDefault("id", ""));
        Object value = run(req);
        answer(out, "{\"id\":" + str(id) + ",\"ok\":true,\"value\":" + Json.write(value) + "}");
      } catch (BadInput e) {
        answer(out, fail(id, "invalid_input", e.getMessage()));
      } catch (Throwable e) {
        answer(out, fail(id, "error", e.getClass().getSimpleName() + ": " + e.getMessage()));
      }
    }
  }

  static void answer(PrintStream out, String line) {
    out.print(line);
    out.print('\n');
    out.flush();
  }

  static String fail(String id, String kind, String message) {
    return "{\"id\":" + str(id) + ",\"ok\":false,\"kind\":" + str(kind) + ",\"message\":" + str(String.valueOf(message)) + "}";
  }

  static String str(String s) {
    return Json.write(s);
  }

  static final class BadInput extends Exception {
    BadInput(String m) { super(m); }
  }

  static Object run(Map<String, Object> req) throws Exception {
    String op = String.valueOf(req.get("op"));
    if (op.equals("ping")) return "pong";
    if (op.equals("sleep")) { Thread.sleep(((Number) req.get("ms")).longValue()); return "slept"; }
    if (op.equals("tanimoto")) return tanimoto(req);
    if (op.equals("depict_enhanced")) return CdkDepictEnhanced.svg(req);
    IAtomContainer mol = parse((String) req.get("smiles"));
    switch (op) {
      case "canonical_smiles": return new SmilesGenerator(SmiFlavor.Absolute).create(layout(mol));
      case "cxsmiles": return new SmilesGenerator(SmiFlavor.Absolute | SmiFlavor.CxSmilesWithCoords).create(layout(mol));
      case "mol2d": return molblock(layout(mol));
      case "descriptors": return CdkDescriptors.of(layout(mol), (String) req.get("smiles"), Boolean.TRUE.equals(req.get("combined")));
      case "hose": return hose(mol, ((Number) req.get("spheres")).intValue(), Boolean.TRUE.equals(req.get("ringsize")));
      case "depict": return CdkDepict.svg(layout(mol), req);
      case "inchi": return inchi(layout(mol));
      case "inchikey": return inchiKey(inchi(layout(mol)));
      case "formats": return formats(mol);
      default: throw new BadInput("unknown operation " + op);
    }
  }

  /**
   * The original's get_InChI: CDK's InChIGeneratorFactory on the SDG-laid-out molecule. Here on
   * JNI-InChI (inchi/NatprodInchi.java, compiled only when Debian's libjni-inchi-java is found),
   * reached by reflection so that the bridge compiles and runs without it.
   */
  static String inchi(IAtomContainer mol) throws Exception {
    return (String) inchiCall("inchi", IAtomContainer.class, mol);
  }

  static String inchiKey(String inchi) throws Exception {
    return (String) inchiCall("inchiKey", String.class, inchi);
  }

  static final String NO_JNI_INCHI = "CDK's InChI needs JNI-InChI and the InChI library, which are not installed here: "
      + "apt-get install libjni-inchi-java libinchi1 (docs/toolkits.md)";

  static Object inchiCall(String method, Class<?> type, Object arg) throws Exception {
    Class<?> c;
    try {
      c = Class.forName("natprod.inchi.NatprodInchi");
    } catch (ClassNotFoundException e) {
      throw new BadInput(NO_JNI_INCHI);
    }
    try {
      return c.getMethod(method, type).invoke(null, arg);
    } catch (java.lang.reflect.InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof UnsatisfiedLinkError || cause instanceof NoClassDefFoundError || cause instanceof ExceptionInInitializerError) {
        throw new BadInput(NO_JNI_INCHI + " (" + cause + ")");
      }
      throw new BadInput("CDK could not compute the InChI: " + cause.getMessage());
    }
  }

  /** The original's CDK branch of /convert/formats: SDG molblock, absolute SMILES, InChI, InChIKey. */
  static Map<String, Object> formats(IAtomContainer mol) throws Exception {
    layout(mol);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("mol", molblock(mol));
    out.put("canonicalsmiles", new SmilesGenerator(SmiFlavor.Absolute).create(mol));
    String inchi = inchi(mol);
    out.put("inchi", inchi);
    out.put("inchikey", inchiKey(inchi));
    return out;
  }

  static IAtomContainer parse(String smiles) throws BadInput {
    if (smiles == null || smiles.isBlank()) throw new BadInput("empty SMILES");
    try {
      return new SmilesParser(BUILDER).parseSmiles(smiles.trim());
    } catch (Exception e) {
      throw new BadInput("CDK could not read the SMILES: " + e.getMessage());
    }
  }

  static IAtomContainer layout(IAtomContainer mol) throws Exception {
    StructureDiagramGenerator sdg = new StructureDiagramGenerator();
    sdg.generateCoordinates(mol);
    return mol;
  }

  /** V2000 molblock as the original writes it (SDF writer, record separator removed). */
  static String molblock(IAtomContainer mol) throws Exception {
    StringWriter sw = new StringWriter();
    try (MDLV2000Writer w = new MDLV2000Writer(sw)) {
      w.write(mol);
    }
    return sw.toString();
  }

  static List<String> hose(IAtomContainer mol, int spheres, boolean ringsize) throws Exception {
    HOSECodeGenerator gen = new HOSECodeGenerator();
    List<String> codes = new ArrayList<>();
    for (IAtom atom : mol.atoms()) codes.add(gen.getHOSECode(mol, atom, spheres, ringsize));
    return codes;
  }

  /**
   * The original's get_tanimoto_similarity_ECFP_CDK: CircularFingerprinter ECFP2/4/6 (its `radius`) of
   * `nBits` bits on the parsed molecules, Tanimoto of the bit fingerprints, "{:.5f}" then float().
   * `smiles` is the comma-separated list; two give one number, more the matrix of every pair (rows in input order).
   */
  static Object tanimoto(Map<String, Object> req) throws Exception {
    int ecfp = ((Number) req.get("radius")).intValue();
    int cls = ecfp == 2 ? CircularFingerprinter.CLASS_ECFP2 : ecfp == 4 ? CircularFingerprinter.CLASS_ECFP4 : ecfp == 6 ? CircularFingerprinter.CLASS_ECFP6 : -1;
    if (cls < 0) throw new BadInput("CDK's circular fingerprints are ECFP2, ECFP4 and ECFP6: radius must be 2, 4 or 6");
    CircularFingerprinter fp = new CircularFingerprinter(cls, ((Number) req.get("nBits")).intValue());
    List<IBitFingerprint> fps = new ArrayList<>();
    for (String s : ((String) req.get("smiles")).split(",", -1)) fps.add(fp.getBitFingerprint(parse(s)));
    if (fps.size() == 2) return round(Tanimoto.calculate(fps.get(0), fps.get(1)), 5);
    List<List<BigDecimal>> rows = new ArrayList<>();
    for (IBitFingerprint a : fps) {
      List<BigDecimal> row = new ArrayList<>();
      for (IBitFingerprint b : fps) row.add(round(Tanimoto.calculate(a, b), 5));
      rows.add(row);
    }
    return rows;
  }

  /** Python's "{:.Nf}".format(x): round the exact binary value half-even. */
  static BigDecimal round(double x, int places) {
    return new BigDecimal(x).setScale(places, RoundingMode.HALF_EVEN);
  }
}
