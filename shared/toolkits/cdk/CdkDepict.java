import java.awt.Color;
import java.util.*;
import org.openscience.cdk.depict.Depiction;
import org.openscience.cdk.depict.DepictionGenerator;
import org.openscience.cdk.geometry.GeometryUtil;
import org.openscience.cdk.interfaces.*;
import org.openscience.cdk.renderer.color.CDK2DAtomColors;
import org.openscience.cdk.renderer.color.UniColor;
import org.openscience.cdk.renderer.generators.standard.StandardGenerator;
import org.openscience.cdk.smarts.SmartsPattern;

/**
 * CDK's 2D depiction as the original service draws it (docs/spec/chem-service.md §2.3 (26)):
 * DepictionGenerator at width×height, stroke ratio 1, fill to fit, white background, CDK 2D atom
 * colours (black with unicolor), optional CIP labels, rotation about the 2D centre, every match of
 * the highlight SMARTS with a light blue outer glow. SVG in px.
 */
final class CdkDepict {
  static String svg(IAtomContainer mol, Map<String, Object> req) throws Exception {
    int width = num(req, "width", 512), height = num(req, "height", 512), rotate = num(req, "rotate", 0);
    boolean unicolor = Boolean.TRUE.equals(req.get("unicolor")), cip = Boolean.TRUE.equals(req.get("CIP"));
    String highlight = req.get("highlight") instanceof String ? (String) req.get("highlight") : "";
    DepictionGenerator dg = new DepictionGenerator()
        .withSize(width, height)
        .withParam(StandardGenerator.StrokeRatio.class, 1.0)
        .withFillToFit()
        .withBackgroundColor(Color.WHITE);
    dg = unicolor
        ? dg.withAnnotationColor(Color.BLACK).withParam(StandardGenerator.AtomColor.class, new UniColor(Color.BLACK))
        : dg.withAtomColors(new CDK2DAtomColors());
    if (cip) CdkDepictEnhanced.cip(mol);
    if (rotate != 0) GeometryUtil.rotate(mol, GeometryUtil.get2DCenter(mol), Math.toRadians(rotate));
    if (!highlight.isEmpty()) {
      SmartsPattern pattern;
      try {
        pattern = SmartsPattern.create(highlight);
      } catch (Exception e) {
        throw new NatprodCdk.BadInput("invalid highlight SMARTS: " + e.getMessage());
      }
      Set<IChemObject> hits = new HashSet<>();
      for (int[] match : pattern.matchAll(mol)) {
        for (int i : match) hits.add(mol.getAtom(i));
        for (IBond b : mol.bonds()) {
          if (hits.contains(b.getBegin()) && hits.contains(b.getEnd())) hits.add(b);
        }
      }
      if (!hits.isEmpty()) dg = dg.withHighlight(hits, new Color(173, 216, 230)).withOuterGlowHighlight();
    }
    Depiction d = dg.depict(mol);
    return d.toSvgStr(Depiction.UNITS_PX);
  }

  static int num(Map<String, Object> req, String key, int dflt) {
    Object v = req.get(key);
    return v instanceof Number ? ((Number) v).intValue() : dflt;
  }
}
