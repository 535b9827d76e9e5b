package dev.bounded.scanner.javaparser;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The JDK and library types the scanner knows without a class path, read once from {@code
 * types.txt}: each type's direct supertypes, and the methods whose thrown types, result type or
 * staticness the rules ask about. Immutable and thread-safe.
 */
final class TypeTable {
  /** A type of the table. */
  record TypeInfo(String name, List<String> supertypes, boolean isEnum) {}

  /**
   * A method of the table.
   *
   * @param owner the declaring type
   * @param name the method name
   * @param arity the number of parameters, or -1 for any
   * @param isStatic whether static
   * @param result the erased result type, or {@code null} when unknown (a type variable)
   * @param thrown the declared exception types
   */
  record MethodInfo(
      String owner, String name, int arity, boolean isStatic, String result, List<String> thrown) {}

  private static final Pattern WORDS = Pattern.compile("\\s+");
  private static final TypeTable INSTANCE = load();

  private final Map<String, TypeInfo> types;
  private final Map<String, List<MethodInfo>> methods;

  private TypeTable(Map<String, TypeInfo> types, Map<String, List<MethodInfo>> methods) {
    this.types = types;
    this.methods = methods;
  }

  static TypeTable instance() {
    return INSTANCE;
  }

  TypeInfo type(String qualifiedName) {
    return types.get(qualifiedName);
  }

  /** The table's methods of this name declared by {@code owner} itself. */
  List<MethodInfo> methods(String owner, String name) {
    return methods.getOrDefault(owner + "#" + name, List.of());
  }

  private static TypeTable load() {
    Map<String, TypeInfo> types = new HashMap<>();
    Map<String, List<MethodInfo>> methods = new HashMap<>();
    try (InputStream in = TypeTable.class.getResourceAsStream("types.txt")) {
      if (in == null) {
        throw new IllegalStateException("types.txt is missing from the scanner's jar");
      }
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        line = line.strip();
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        if (line.startsWith("T ")) {
          TypeInfo type = parseType(line.substring(2));
          types.put(type.name(), type);
        } else if (line.startsWith("M ")) {
          MethodInfo method = parseMethod(line.substring(2));
          methods
              .computeIfAbsent(method.owner() + "#" + method.name(), k -> new ArrayList<>())
              .add(method);
        } else {
          throw new IllegalStateException("bad line in types.txt: " + line);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    methods.replaceAll((k, v) -> List.copyOf(v));
    return new TypeTable(Map.copyOf(types), Map.copyOf(methods));
  }

  private static TypeInfo parseType(String spec) {
    String head = spec;
    List<String> supertypes = List.of();
    int lt = spec.indexOf('<');
    if (lt >= 0) {
      head = spec.substring(0, lt).strip();
      supertypes = words(spec.substring(lt + 1));
    }
    String[] words = words(head).toArray(String[]::new);
    boolean isEnum = words.length > 1 && words[1].equals("enum");
    return new TypeInfo(words[0], List.copyOf(supertypes), isEnum);
  }

  private static MethodInfo parseMethod(String spec) {
    String signature = spec;
    List<String> thrown = List.of();
    int bang = spec.indexOf('!');
    if (bang >= 0) {
      signature = spec.substring(0, bang).strip();
      thrown = words(spec.substring(bang + 1));
    }
    int colon = signature.indexOf(':');
    String result = signature.substring(colon + 1).strip();
    String[] words = words(signature.substring(0, colon)).toArray(String[]::new);
    boolean isStatic = words.length > 1 && words[1].equals("static");
    String member = words[0];
    int hash = member.indexOf('#');
    String owner = member.substring(0, hash);
    String name = member.substring(hash + 1);
    int arity = -1;
    int slash = name.indexOf('/');
    if (slash >= 0) {
      arity = Integer.parseInt(name.substring(slash + 1));
      name = name.substring(0, slash);
    }
    return new MethodInfo(owner, name, arity, isStatic, result.equals("?") ? null : result, thrown);
  }

  private static List<String> words(String text) {
    return WORDS.splitAsStream(text.strip()).filter(w -> !w.isEmpty()).toList();
  }
}
