package dev.bounded.scanner;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * SARIF and rdjson output validated against the official schemas (test resources {@code schemas/},
 * see their README), on a scan with findings, fixes and a file that cannot be parsed.
 */
final class SchemaValidationTest {
  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  @TempDir Path dir;

  @BeforeEach
  void tree() throws IOException {
    Samples.write(dir, "src/demo/Pause.java", Samples.SWALLOWED);
    Samples.write(
        dir, "src/demo/Ünïcode Dir/Waits.java", Samples.SWALLOWED.replace("Pause", "Waits"));
    Files.writeString(dir.resolve("src/demo/Broken.java"), "class Broken {");
  }

  private static Schema schema(String resource, SpecificationVersion version) throws IOException {
    try (InputStream in = SchemaValidationTest.class.getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      return SchemaRegistry.withDefaultDialect(version).getSchema(in);
    }
  }

  @Test
  void sarifIsValidSarif210() throws IOException {
    Cli cli = Cli.run(dir, "scan", "-f", "sarif", "--docs-url", "https://example.com/rules");
    assertThat(cli.exit).isEqualTo(2);
    Schema sarif = schema("/schemas/sarif-schema-2.1.0.json", SpecificationVersion.DRAFT_7);
    List<Error> errors = sarif.validate(cli.out, InputFormat.JSON);
    assertThat(errors).isEmpty();

    JsonNode run = MAPPER.readTree(cli.out).get("runs").get(0);
    JsonNode rule = run.get("tool").get("driver").get("rules").get(0);
    assertThat(rule.get("shortDescription").get("text").asString()).isNotBlank();
    assertThat(rule.get("fullDescription").get("text").asString()).isNotBlank();
    assertThat(rule.get("help").get("markdown").asString()).startsWith("#");
    assertThat(rule.get("helpUri").asString()).startsWith("https://example.com/rules/");
    assertThat(rule.get("defaultConfiguration").get("level").asString()).isNotBlank();
    JsonNode result = run.get("results").get(0);
    JsonNode location = result.get("locations").get(0).get("physicalLocation");
    assertThat(location.get("artifactLocation").get("uriBaseId").asString()).isEqualTo("SRCROOT");
    assertThat(location.get("artifactLocation").get("uri").asString()).doesNotStartWith("/");
    assertThat(result.get("partialFingerprints").get("boundedFingerprint/v1").asString())
        .hasSize(32);
    assertThat(result.get("fixes").get(0).get("artifactChanges").get(0).get("replacements"))
        .isNotEmpty();
    JsonNode notification = run.get("invocations").get(0).get("toolExecutionNotifications").get(0);
    assertThat(notification.get("message").get("text").asString())
        .startsWith("src/demo/Broken.java");
  }

  @Test
  void rdjsonIsValidReviewdogDiagnostics() throws IOException {
    Cli cli = Cli.run(dir, "scan", "-f=rdjson");
    Schema rdjson = schema("/schemas/rdjson/DiagnosticResult.json", SpecificationVersion.DRAFT_4);
    assertThat(rdjson.validate(cli.out, InputFormat.JSON)).isEmpty();
    JsonNode diagnostic = MAPPER.readTree(cli.out).get("diagnostics").get(0);
    assertThat(diagnostic.get("suggestions")).isNotEmpty();
    assertThat(diagnostic.get("code").get("value").asString()).isEqualTo("InterruptSwallowed");
  }

  @Test
  void theSchemasRejectWhatIsNotValid() throws IOException {
    Cli cli = Cli.run(dir, "scan", "-f", "sarif");
    ObjectNode broken = (ObjectNode) MAPPER.readTree(cli.out);
    broken.put("version", "9.9");
    Schema sarif = schema("/schemas/sarif-schema-2.1.0.json", SpecificationVersion.DRAFT_7);
    assertThat(sarif.validate(broken.toString(), InputFormat.JSON)).isNotEmpty();
    Schema rdjson = schema("/schemas/rdjson/DiagnosticResult.json", SpecificationVersion.DRAFT_4);
    assertThat(rdjson.validate("{\"diagnostics\": [{\"severity\": \"LOUD\"}]}", InputFormat.JSON))
        .isNotEmpty();
  }
}
