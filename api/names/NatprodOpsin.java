/*
 * natprod's bridge to OPSIN (name to structure), run as ONE long-lived JVM per process that needs
 * it (see docs/names.md). Compiled at first use by api/names/opsin.ts into a cache directory.
 *
 * Protocol, one line each way, UTF-8:
 *   request:  <id> TAB <name>
 *   answer:   <id> TAB OK   TAB <smiles>
 *             <id> TAB WARN TAB <smiles> TAB <message>
 *             <id> TAB FAIL TAB <message>
 * Every request line gets exactly one answer line carrying its id, whatever happens while parsing
 * (a Throwable, a StackOverflowError included, is a FAIL), so answers cannot get out of step.
 * The first line written is "READY <OPSIN version>". End of input ends the process, so the JVM
 * never outlives the process that started it (its stdin closes when that process dies).
 */
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import uk.ac.cam.ch.wwmm.opsin.NameToStructure;
import uk.ac.cam.ch.wwmm.opsin.NameToStructureConfig;
import uk.ac.cam.ch.wwmm.opsin.OpsinResult;

public final class NatprodOpsin {
  private NatprodOpsin() {}

  /** Tabs and line breaks would break the framing: messages never carry them. */
  private static String clean(String s) {
    return s == null ? "" : s.replaceAll("[\\t\\r\\n]+", " ").trim();
  }

  private static String answer(NameToStructure n2s, NameToStructureConfig config, String id, String name) {
    try {
      OpsinResult r = n2s.parseChemicalName(name, config);
      String smiles = r.getSmiles();
      switch (r.getStatus()) {
        case SUCCESS:
          if (smiles != null && !smiles.isEmpty()) return id + "\tOK\t" + clean(smiles);
          break;
        case WARNING:
          if (smiles != null && !smiles.isEmpty()) return id + "\tWARN\t" + clean(smiles) + "\t" + clean(r.getMessage());
          break;
        default:
          break;
      }
      String why = clean(r.getMessage());
      return id + "\tFAIL\t" + (why.isEmpty() ? "OPSIN could not interpret the name" : why);
    } catch (Throwable e) {
      return id + "\tFAIL\tOPSIN error: " + clean(e.toString());
    }
  }

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    NameToStructure n2s = NameToStructure.getInstance();
    NameToStructureConfig config = new NameToStructureConfig();
    // Warm the parser so that the first real name is not the slow one.
    n2s.parseChemicalName("ethanol", config);
    out.println("READY " + clean(NameToStructure.getVersion()));
    out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      int tab = line.indexOf('\t');
      String reply = tab < 0
          ? clean(line) + "\tFAIL\tmalformed request (expected <id> TAB <name>)"
          : answer(n2s, config, line.substring(0, tab), line.substring(tab + 1));
      out.println(reply);
      out.flush();
    }
  }
}
