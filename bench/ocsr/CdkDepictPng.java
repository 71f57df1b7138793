import java.io.BufferedReader;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import org.openscience.cdk.depict.DepictionGenerator;
import org.openscience.cdk.interfaces.IAtomContainer;
import org.openscience.cdk.silent.SilentChemObjectBuilder;
import org.openscience.cdk.smiles.SmilesParser;

/**
 * CDK 2.8 (Debian libcdk-java) drawings for bench/ocsr.ts: each SMILES of the TSV (third column,
 * header skipped) drawn by DepictionGenerator, black on white, fill to fit, at SIZE x SIZE px, into
 * OUT/cdk-SIZE/N.png.   usage: java -cp <classes>:<CDK jars> CdkDepictPng TSV OUT SIZE [SIZE...]
 */
public final class CdkDepictPng {
  public static void main(String[] args) throws Exception {
    List<String> lines = Files.readAllLines(Paths.get(args[0]));
    SmilesParser parser = new SmilesParser(SilentChemObjectBuilder.getInstance());
    for (int s = 2; s < args.length; s++) {
      int size = Integer.parseInt(args[s]);
      File dir = new File(args[1], "cdk-" + size);
      dir.mkdirs();
      DepictionGenerator dg = new DepictionGenerator().withSize(size, size).withFillToFit().withBackgroundColor(java.awt.Color.WHITE);
      for (int n = 1; n < lines.size(); n++) {
        String smiles = lines.get(n).split("\t")[2];
        try {
          IAtomContainer mol = parser.parseSmiles(smiles);
          dg.depict(mol).writeTo("png", new File(dir, (n - 1) + ".png").getPath());
        } catch (Exception e) {
          System.err.println("row " + (n - 1) + ": " + e.getMessage());
        }
      }
    }
  }
}
