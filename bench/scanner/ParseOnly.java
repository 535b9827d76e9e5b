import com.github.javaparser.JavaParser;
import com.github.javaparser.ParserConfiguration;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The floor of the scanner benchmark: read and parse every .java file under a directory with
 * javaparser, at the scanner's language level and settings, on N threads, and nothing else.
 *
 * <p>java -cp javaparser-core.jar:. ParseOnly DIR THREADS
 */
public final class ParseOnly {
  public static void main(String[] args) throws Exception {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(Path.of(args[0]))) {
      files = walk.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    }
    int threads = Integer.parseInt(args[1]);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicInteger failed = new AtomicInteger();
    ThreadLocal<JavaParser> parser =
        ThreadLocal.withInitial(
            () ->
                new JavaParser(
                    new ParserConfiguration()
                        .setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_26)
                        .setAttributeComments(false)
                        .setTabSize(1)));
    List<Future<?>> futures =
        files.stream()
            .map(
                f ->
                    pool.submit(
                        () -> {
                          String text = Files.readString(f, StandardCharsets.UTF_8);
                          if (!parser.get().parse(text).isSuccessful()) {
                            failed.incrementAndGet();
                          }
                          return null;
                        }))
            .<Future<?>>map(x -> x)
            .toList();
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    System.out.println(files.size() + " files parsed, " + failed.get() + " failed");
  }
}
