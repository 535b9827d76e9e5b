package dev.bounded.scanner.javaparser;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** One file's declarations laid over a workspace's: the language server's view while editing. */
final class DeclarationIndexTest {
  private static FileDeclarations declarations(String text) throws Exception {
    return ParsedFile.parse(new SourceFile("X.java", text)).declarations();
  }

  @Test
  void anOverlayReplacesOneFilesTypesAndLeavesTheBaseAlone() throws Exception {
    FileDeclarations a = declarations("package p; class A { class Inner {} }");
    FileDeclarations b = declarations("package p; import q.Util; class B {}");
    DeclarationIndex base = DeclarationIndex.of(List.of(a, b));
    assertThat(a.typeNames()).containsExactlyInAnyOrder("p.A", "p.A.Inner");
    assertThat(base.size()).isEqualTo(3);

    FileDeclarations aNow = declarations("package p; class Renamed {}");
    DeclarationIndex overlay = base.overlay(a, aNow);

    assertThat(overlay.type("p.A")).isNull();
    assertThat(overlay.type("p.A.Inner")).isNull();
    assertThat(overlay.type("p.Renamed")).isNotNull();
    assertThat(overlay.type("p.B")).isNotNull();
    assertThat(overlay.size()).isEqualTo(2);
    assertThat(overlay.usesPackage("q")).isTrue();
    assertThat(base.type("p.A")).isNotNull();
    assertThat(base.type("p.Renamed")).isNull();
  }
}
