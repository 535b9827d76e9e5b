package dev.bounded.scanner;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * Fingerprints that survive edits which only move a finding: a hash of the rule, the file, the
 * enclosing member and the flagged line's code with all whitespace removed, plus an occurrence
 * number for identical lines in the same member. Line numbers are not part of it.
 */
final class Fingerprints {
  private Fingerprints() {}

  /**
   * Returns the fingerprint of one finding.
   *
   * @param rule the rule
   * @param path the file's path
   * @param member the enclosing member
   * @param lineText the flagged line
   * @param seen occurrences so far of the same key, updated
   * @return a 32-digit hexadecimal fingerprint
   */
  static String of(
      String rule, String path, String member, String lineText, Map<String, Integer> seen) {
    String key = rule + '\0' + path + '\0' + member + '\0' + lineText.replaceAll("\\s+", "");
    int occurrence = seen.merge(key, 1, Integer::sum);
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      byte[] hash = digest.digest((key + '\0' + occurrence).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
