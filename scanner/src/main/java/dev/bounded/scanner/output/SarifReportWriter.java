package dev.bounded.scanner.output;

import dev.bounded.scanner.RuleInfo;
import dev.bounded.scanner.ScanFinding;
import dev.bounded.scanner.ScanProblem;
import dev.bounded.scanner.ScanReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * SARIF 2.1.0 for code-scanning dashboards: rule metadata (short and full description, markdown
 * help, the rule page's link, default level), paths relative to {@code SRCROOT}, stable partial
 * fingerprints, fixes as replacements, and a tool notification for every input that could not be
 * used.
 */
public final class SarifReportWriter implements ReportWriter {
  /** The key of Bounded's fingerprint in {@code partialFingerprints}. */
  public static final String FINGERPRINT_KEY = "boundedFingerprint/v1";

  private static final String SRCROOT = "SRCROOT";
  private final Path base;
  private final String docsUrl;

  /**
   * Creates the writer.
   *
   * @param base the directory paths are relative to ({@code SRCROOT})
   * @param docsUrl where the rule pages live, ending in {@code /}, or {@code null}: then rules
   *     carry no {@code helpUri}, only their page as help text
   */
  public SarifReportWriter(Path base, String docsUrl) {
    this.base = base.toAbsolutePath().normalize();
    this.docsUrl = docsUrl;
  }

  @Override
  public void write(ScanReport report, Appendable out) throws IOException {
    ObjectNode root = Json.object();
    root.put("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    root.put("version", "2.1.0");
    ObjectNode run = root.putArray("runs").addObject();
    ObjectNode driver = run.putObject("tool").putObject("driver");
    driver.put("name", "Bounded");
    driver.put("version", Version.VERSION);
    ArrayNode rules = driver.putArray("rules");
    Map<String, Integer> ruleIndex = new HashMap<>();
    for (RuleInfo info : report.rules()) {
      ruleIndex.put(info.name(), ruleIndex.size());
      ObjectNode r = rules.addObject();
      r.put("id", info.name());
      r.put("name", info.name());
      r.putObject("shortDescription").put("text", info.summary());
      r.putObject("fullDescription").put("text", fullDescription(info));
      ObjectNode help = r.putObject("help");
      help.put("text", info.summary() + " See " + info.docsPath() + ".");
      help.put("markdown", info.markdown());
      if (docsUrl != null) {
        r.put("helpUri", docsUrl + info.name() + ".md");
      }
      r.putObject("defaultConfiguration").put("level", level(info.defaultSeverity()));
      ArrayNode tags = r.putObject("properties").putArray("tags");
      info.tags().forEach(tags::add);
    }
    run.putObject("originalUriBaseIds").putObject(SRCROOT).put("uri", base.toUri().toString());
    ObjectNode invocation = run.putArray("invocations").addObject();
    invocation.put("executionSuccessful", !report.hasInputErrors());
    ArrayNode notifications = invocation.putArray("toolExecutionNotifications");
    for (ScanProblem p : report.problems()) {
      ObjectNode n = notifications.addObject();
      n.put("level", p.isError() ? "error" : "note");
      n.putObject("message").put("text", p.path() + ": " + p.message());
      ObjectNode location = n.putArray("locations").addObject().putObject("physicalLocation");
      artifact(location.putObject("artifactLocation"), p.path());
    }
    ArrayNode results = run.putArray("results");
    for (ScanFinding f : report.findings()) {
      ObjectNode r = results.addObject();
      r.put("ruleId", f.rule());
      Integer index = ruleIndex.get(f.rule());
      if (index != null) {
        r.put("ruleIndex", index);
      }
      r.put("level", level(f.severity()));
      r.putObject("message").put("text", f.message());
      ObjectNode location = r.putArray("locations").addObject();
      ObjectNode physical = location.putObject("physicalLocation");
      artifact(physical.putObject("artifactLocation"), f.path());
      region(physical.putObject("region"), f.line(), f.column(), f.endLine(), f.endColumn());
      location.putArray("logicalLocations").addObject().put("fullyQualifiedName", f.member());
      r.putObject("partialFingerprints").put(FINGERPRINT_KEY, f.fingerprint());
      ArrayNode fixes = r.putArray("fixes");
      for (ScanFinding.FixView fix : f.fixes()) {
        ObjectNode x = fixes.addObject();
        x.putObject("description").put("text", fix.description());
        ObjectNode change = x.putArray("artifactChanges").addObject();
        artifact(change.putObject("artifactLocation"), f.path());
        ArrayNode replacements = change.putArray("replacements");
        for (ScanFinding.EditView e : fix.edits()) {
          ObjectNode rep = replacements.addObject();
          region(
              rep.putObject("deletedRegion"),
              e.startLine(),
              e.startColumn(),
              e.endLine(),
              e.endColumn());
          rep.putObject("insertedContent").put("text", e.replacement());
        }
      }
    }
    out.append(Json.pretty(root));
  }

  private static String fullDescription(RuleInfo info) {
    // The page's first paragraph after its title, else the summary.
    String[] paragraphs = info.markdown().split("\\n\\s*\\n", -1);
    for (String p : paragraphs) {
      String t = p.strip();
      if (!t.isEmpty() && !t.startsWith("#") && !t.startsWith("```")) {
        return t.replaceAll("\\s*\\n\\s*", " ");
      }
    }
    return info.summary();
  }

  private static void artifact(ObjectNode location, String path) {
    location.put("uri", uri(path));
    if (!path.startsWith("/")) {
      location.put("uriBaseId", SRCROOT);
    }
  }

  private static String uri(String path) {
    if (path.startsWith("/")) {
      return Path.of(path).toUri().toString();
    }
    StringBuilder b = new StringBuilder();
    for (String segment : path.split("/", -1)) {
      if (b.length() > 0) {
        b.append('/');
      }
      b.append(
          java.net.URLEncoder.encode(segment, java.nio.charset.StandardCharsets.UTF_8)
              .replace("+", "%20"));
    }
    return b.toString();
  }

  private static void region(ObjectNode region, int line, int column, int endLine, int endColumn) {
    region.put("startLine", line);
    region.put("startColumn", column);
    region.put("endLine", endLine);
    region.put("endColumn", endColumn);
  }

  private static String level(dev.bounded.scanner.Severity severity) {
    return switch (severity) {
      case ERROR -> "error";
      case WARNING -> "warning";
      case NOTE -> "note";
      case OFF -> "none";
    };
  }
}
