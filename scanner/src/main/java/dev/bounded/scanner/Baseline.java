package dev.bounded.scanner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The findings a team has accepted for now: a reviewed JSON file in the repository. A scan with a
 * baseline reports only findings whose fingerprint is not in it; fingerprints do not depend on line
 * numbers, so edits elsewhere in a file do not bring its old findings back.
 */
public final class Baseline {
  private static final JsonMapper MAPPER = JsonMapper.builder().build();
  private final Set<String> fingerprints;

  private Baseline(Set<String> fingerprints) {
    this.fingerprints = Set.copyOf(fingerprints);
  }

  /**
   * Reads a baseline file.
   *
   * @param file the file {@link #write} wrote
   * @return the baseline
   * @throws IOException if it cannot be read
   * @throws IllegalArgumentException if it is not a baseline
   */
  public static Baseline read(Path file) throws IOException {
    JsonNode root;
    try {
      root = MAPPER.readTree(Files.readString(file, StandardCharsets.UTF_8));
    } catch (JacksonException e) {
      throw new IllegalArgumentException(
          file + " is not a baseline file: " + e.getOriginalMessage(), e);
    }
    JsonNode findings = root.get("findings");
    if (findings == null || !findings.isArray()) {
      throw new IllegalArgumentException(file + " is not a baseline file: no \"findings\" array");
    }
    Set<String> fingerprints = new HashSet<>();
    for (JsonNode f : findings) {
      JsonNode fp = f.get("fingerprint");
      if (fp != null && fp.isString()) {
        fingerprints.add(fp.asString());
      }
    }
    return new Baseline(fingerprints);
  }

  /**
   * Writes the findings as a baseline, sorted so that the file diffs well in review.
   *
   * @param file where to write
   * @param findings the findings to accept
   * @throws IOException if it cannot be written
   */
  public static void write(Path file, List<ScanFinding> findings) throws IOException {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("tool", "bounded");
    root.put("version", 1);
    ArrayNode array = root.putArray("findings");
    List<ScanFinding> sorted = new ArrayList<>(findings);
    sorted.sort(
        java.util.Comparator.comparing(ScanFinding::path)
            .thenComparing(ScanFinding::rule)
            .thenComparing(ScanFinding::fingerprint));
    for (ScanFinding f : sorted) {
      ObjectNode n = array.addObject();
      n.put("fingerprint", f.fingerprint());
      n.put("rule", f.rule());
      n.put("path", f.path());
      n.put("member", f.member());
      n.put("message", f.message());
    }
    Files.writeString(
        file,
        MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n",
        StandardCharsets.UTF_8);
  }

  /**
   * Tells whether the baseline holds a finding.
   *
   * @param finding a finding
   * @return {@code true} if accepted
   */
  public boolean contains(ScanFinding finding) {
    return fingerprints.contains(finding.fingerprint());
  }
}
