package dev.bounded.scanner.output;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The one JSON mapper of the writers. */
final class Json {
  static final JsonMapper MAPPER = JsonMapper.builder().build();

  private Json() {}

  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  static String pretty(Object node) {
    return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node) + "\n";
  }
}
