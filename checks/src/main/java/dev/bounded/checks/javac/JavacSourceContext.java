package dev.bounded.checks.javac;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.SourceContext;
import dev.bounded.checks.model.UnitIndex;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/** The source context of one method: its file's text and its class's fields, both read lazily. */
final class JavacSourceContext implements SourceContext {
  private final Supplier<String> sourceSupplier;
  private String source;
  private final ClassTree enclosingClass;
  private final JavacModelBuilder builder;
  private final JavacTypes types;
  private final UnitIndex unit;
  private Map<String, Expr> fieldValues;
  private Map<String, ExpressionTree> fieldInitialisers;

  JavacSourceContext(
      Supplier<String> source,
      ClassTree enclosingClass,
      JavacModelBuilder builder,
      JavacTypes types,
      UnitIndex unit) {
    this.sourceSupplier = source;
    this.enclosingClass = enclosingClass;
    this.builder = builder;
    this.types = types;
    this.unit = unit;
  }

  @Override
  public UnitIndex unit() {
    return unit;
  }

  @Override
  public String source() {
    if (source == null) {
      source = sourceSupplier.get(); // only rules that build a message or fix need the text
    }
    return source;
  }

  @Override
  public Expr fieldValue(String field) {
    if (fieldValues == null) {
      fieldValues = readFieldValues();
    }
    return fieldValues.get(field);
  }

  @Override
  public Expr fieldInitialiser(String field) {
    if (fieldInitialisers == null) {
      fieldInitialisers = new HashMap<>();
      if (enclosingClass != null) {
        for (Tree member : enclosingClass.getMembers()) {
          if (member instanceof VariableTree variable && variable.getInitializer() != null) {
            fieldInitialisers.put(variable.getName().toString(), variable.getInitializer());
          }
        }
      }
    }
    ExpressionTree value = fieldInitialisers.get(field);
    return value == null ? null : builder.expr(value);
  }

  @Override
  public String fieldType(String field) {
    if (enclosingClass != null) {
      for (Tree member : enclosingClass.getMembers()) {
        if (member instanceof VariableTree variable
            && variable.getName().contentEquals(field)
            && variable.getType() != null) {
          return variable.getType().toString();
        }
      }
    }
    return null;
  }

  @Override
  public boolean hasType(String qualifiedName) {
    return types.exists(qualifiedName);
  }

  /** Each field's initialiser, or its only assignment in constructors and initialiser blocks. */
  private Map<String, Expr> readFieldValues() {
    Map<String, ExpressionTree> values = new HashMap<>();
    Set<String> ambiguous = new HashSet<>();
    if (enclosingClass == null) {
      return Map.of();
    }
    for (Tree member : enclosingClass.getMembers()) {
      if (member instanceof VariableTree field && field.getInitializer() != null) {
        put(values, ambiguous, field.getName().toString(), field.getInitializer());
      } else if (member instanceof MethodTree method
          && method.getName().contentEquals("<init>")
          && method.getBody() != null) {
        collectAssignments(method.getBody(), values, ambiguous);
      } else if (member instanceof BlockTree block) {
        collectAssignments(block, values, ambiguous);
      }
    }
    Map<String, Expr> result = new HashMap<>();
    values.forEach(
        (name, value) -> {
          if (!ambiguous.contains(name)) {
            result.put(name, builder.expr(value));
          }
        });
    return result;
  }

  private static void collectAssignments(
      BlockTree block, Map<String, ExpressionTree> values, Set<String> ambiguous) {
    for (StatementTree s : block.getStatements()) {
      if (s instanceof ExpressionStatementTree e
          && e.getExpression() instanceof AssignmentTree assign) {
        String field = fieldName(assign.getVariable());
        if (field != null) {
          put(values, ambiguous, field, assign.getExpression());
        }
      }
    }
  }

  private static String fieldName(ExpressionTree target) {
    if (target instanceof MemberSelectTree select
        && select.getExpression() instanceof IdentifierTree id
        && id.getName().contentEquals("this")) {
      return select.getIdentifier().toString();
    }
    if (target instanceof IdentifierTree id) {
      return id.getName().toString();
    }
    return null;
  }

  private static void put(
      Map<String, ExpressionTree> values,
      Set<String> ambiguous,
      String name,
      ExpressionTree value) {
    if (values.putIfAbsent(name, value) != null) {
      ambiguous.add(name);
    }
  }
}
