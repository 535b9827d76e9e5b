package dev.bounded.scanner.javaparser;

import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.InitializerDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.Statement;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.SourceContext;
import dev.bounded.checks.model.UnitIndex;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The source context of one method: its file's text and its class's fields (read lazily), and which
 * types a fix may introduce. Mirrors {@code JavacSourceContext}.
 */
final class JavaParserSourceContext implements SourceContext {
  private final SourceFile file;
  private final NodeList<BodyDeclaration<?>> members;
  private final JavaParserModelBuilder builder;
  private final Predicate<String> hasType;
  private final UnitIndex unit;
  private Map<String, Expr> fieldValues;
  private Map<String, Expression> fieldInitialisers;

  JavaParserSourceContext(
      SourceFile file,
      NodeList<BodyDeclaration<?>> members,
      JavaParserModelBuilder builder,
      Predicate<String> hasType,
      UnitIndex unit) {
    this.file = file;
    this.members = members;
    this.builder = builder;
    this.hasType = hasType;
    this.unit = unit;
  }

  @Override
  public UnitIndex unit() {
    return unit;
  }

  @Override
  public String source() {
    return file.text();
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
      if (members != null) {
        for (BodyDeclaration<?> member : members) {
          if (member instanceof FieldDeclaration declaration) {
            for (VariableDeclarator v : declaration.getVariables()) {
              v.getInitializer()
                  .ifPresent(init -> fieldInitialisers.put(v.getNameAsString(), init));
            }
          }
        }
      }
    }
    Expression value = fieldInitialisers.get(field);
    return value == null ? null : builder.expr(value);
  }

  @Override
  public String fieldType(String field) {
    if (members != null) {
      for (BodyDeclaration<?> member : members) {
        if (member instanceof FieldDeclaration declaration) {
          for (VariableDeclarator v : declaration.getVariables()) {
            if (v.getNameAsString().equals(field)) {
              return v.getType().asString();
            }
          }
        }
      }
    }
    return null;
  }

  @Override
  public boolean hasType(String qualifiedName) {
    return hasType.test(qualifiedName);
  }

  /** Each field's initialiser, or its only assignment in constructors and initialiser blocks. */
  private Map<String, Expr> readFieldValues() {
    if (members == null) {
      return Map.of();
    }
    Map<String, Expression> values = new HashMap<>();
    Set<String> ambiguous = new HashSet<>();
    for (BodyDeclaration<?> member : members) {
      if (member instanceof FieldDeclaration field) {
        for (VariableDeclarator v : field.getVariables()) {
          if (v.getInitializer().isPresent()) {
            put(values, ambiguous, v.getNameAsString(), v.getInitializer().get());
          }
        }
      } else if (member instanceof ConstructorDeclaration constructor) {
        collectAssignments(constructor.getBody(), values, ambiguous);
      } else if (member instanceof InitializerDeclaration block) {
        collectAssignments(block.getBody(), values, ambiguous);
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
      BlockStmt block, Map<String, Expression> values, Set<String> ambiguous) {
    for (Statement s : block.getStatements()) {
      if (s instanceof ExpressionStmt e
          && e.getExpression() instanceof AssignExpr assign
          && assign.getOperator() == AssignExpr.Operator.ASSIGN) {
        String field = fieldName(assign.getTarget());
        if (field != null) {
          put(values, ambiguous, field, assign.getValue());
        }
      }
    }
  }

  private static String fieldName(Expression target) {
    if (target instanceof FieldAccessExpr select
        && select.getScope() instanceof ThisExpr t
        && t.getTypeName().isEmpty()) {
      return select.getNameAsString();
    }
    if (target instanceof NameExpr id) {
      return id.getNameAsString();
    }
    return null;
  }

  private static void put(
      Map<String, Expression> values, Set<String> ambiguous, String name, Expression value) {
    if (values.putIfAbsent(name, value) != null) {
      ambiguous.add(name);
    }
  }
}
