package dev.bounded.checks.javac;

import com.google.errorprone.CompilationTestHelper;
import org.junit.jupiter.api.Test;

final class NonIdempotentRetryTest {
  private final CompilationTestHelper helper =
      CompilationTestHelper.newInstance(NonIdempotentRetry.class, getClass());

  @Test
  void identificationNegatives() {
    helper
        .addSourceLines(
            "A.java",
            """
            import java.io.IOException;
            import java.net.ConnectException;
            import java.net.HttpURLConnection;
            import java.net.URI;
            import java.net.http.HttpClient;
            import java.net.http.HttpRequest;
            import java.net.http.HttpResponse;
            import java.sql.Connection;
            import java.sql.ResultSet;
            import java.sql.SQLException;
            import java.sql.Statement;
            import java.util.UUID;

            class A {
              @interface Idempotent {}

              interface Payments {
                @Idempotent
                void upsert(String id) throws IOException;
              }

              // A GET is a read.
              String get(HttpClient client, URI uri) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    return client.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
                  } catch (IOException e) {
                    // retry
                  }
                }
                return null;
              }

              // The key is made once, before the loop: the server can recognise the retry.
              void keyedPost(HttpClient client, URI uri, String body) throws Exception {
                String key = UUID.randomUUID().toString();
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    HttpRequest request =
                        HttpRequest.newBuilder(uri)
                            .header("Idempotency-Key", key)
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build();
                    client.send(request, HttpResponse.BodyHandlers.discarding());
                    return;
                  } catch (IOException e) {
                    // retry
                  }
                }
              }

              // Only failures that prove nothing was sent are retried.
              void connectFailuresOnly(HttpClient client, HttpRequest post) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    client.send(post, HttpResponse.BodyHandlers.discarding());
                    return;
                  } catch (ConnectException e) {
                    // nothing reached the server
                  }
                }
              }

              // A SELECT is a read.
              int select(Connection c) throws SQLException {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try (Statement s = c.createStatement()) {
                    ResultSet rows = s.executeQuery("select count(*) from orders");
                    rows.next();
                    return rows.getInt(1);
                  } catch (SQLException e) {
                    // retry
                  }
                }
                return -1;
              }

              boolean selectThroughExecute(Connection c) throws SQLException {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try (Statement s = c.createStatement()) {
                    return s.execute("SELECT 1");
                  } catch (SQLException e) {
                    // retry
                  }
                }
                return false;
              }

              // Declared idempotent.
              void idempotent(Payments payments) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    payments.upsert("order-1");
                    return;
                  } catch (IOException e) {
                    // retry
                  }
                }
              }

              // Not a retry loop: one POST per item.
              void each(HttpClient client, java.util.List<HttpRequest> posts) throws Exception {
                for (HttpRequest post : posts) {
                  try {
                    client.send(post, HttpResponse.BodyHandlers.discarding());
                  } catch (IOException e) {
                    System.err.println(e);
                  }
                }
              }

              // The connection is keyed once before the loop.
              void keyedUrlConnection(URI uri, String key) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
                    c.setRequestMethod("POST");
                    c.setRequestProperty("Idempotency-Key", key);
                    c.getResponseCode();
                    return;
                  } catch (IOException e) {
                    // retry
                  }
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void identificationPositives() {
    helper
        .addSourceLines(
            "B.java",
            """
            import java.io.IOException;
            import java.net.HttpURLConnection;
            import java.net.URI;
            import java.net.http.HttpClient;
            import java.net.http.HttpRequest;
            import java.net.http.HttpResponse;
            import java.sql.Connection;
            import java.sql.PreparedStatement;
            import java.sql.SQLException;
            import java.sql.Statement;
            import java.util.UUID;

            class B {
              @interface NonIdempotent {}

              interface Payments {
                @NonIdempotent
                String charge(String card, long cents) throws IOException;
              }

              void post(HttpClient client, URI uri, String body) throws Exception {
                HttpRequest request =
                    HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString(body)).build();
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    // BUG: Diagnostic contains: repeats an HTTP POST, which may have committed
                    client.send(request, HttpResponse.BodyHandlers.discarding());
                    return;
                  } catch (IOException e) {
                    // retry
                  }
                }
              }

              void patch(HttpClient client, URI uri) throws Exception {
                while (true) {
                  try {
                    // BUG: Diagnostic contains: an HTTP PATCH
                    client.send(
                        HttpRequest.newBuilder(uri)
                            .method("PATCH", HttpRequest.BodyPublishers.noBody())
                            .build(),
                        HttpResponse.BodyHandlers.discarding());
                    return;
                  } catch (IOException e) {
                    // retry
                  }
                }
              }

              // A key made anew for each attempt is no key.
              void keyPerAttempt(HttpClient client, URI uri) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    HttpRequest request =
                        HttpRequest.newBuilder(uri)
                            .header("Idempotency-Key", UUID.randomUUID().toString())
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build();
                    // BUG: Diagnostic contains: an HTTP POST
                    client.send(request, HttpResponse.BodyHandlers.discarding());
                    return;
                  } catch (IOException e) {
                    // retry
                  }
                }
              }

              // Retried on a 5xx status: the server may have processed it.
              void onStatus(HttpClient client, HttpRequest post) throws Exception {
                HttpRequest request =
                    HttpRequest.newBuilder(URI.create("http://x")).POST(HttpRequest.BodyPublishers.noBody()).build();
                for (int attempt = 0; attempt < 3; attempt++) {
                  // BUG: Diagnostic contains: an HTTP POST
                  HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
                  if (response.statusCode() < 500) {
                    return;
                  }
                  Thread.sleep(100);
                }
              }

              void urlConnection(URI uri) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
                    // BUG: Diagnostic contains: an HTTP POST
                    c.setRequestMethod("POST");
                    c.getResponseCode();
                    return;
                  } catch (IOException e) {
                    // retry
                  }
                }
              }

              int update(Connection c) throws SQLException {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try (PreparedStatement s = c.prepareStatement("update stock set n = n - 1")) {
                    // BUG: Diagnostic contains: a JDBC executeUpdate
                    return s.executeUpdate();
                  } catch (SQLException e) {
                    // retry
                  }
                }
                return 0;
              }

              void insertThroughExecute(Connection c) throws SQLException {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try (Statement s = c.createStatement()) {
                    // BUG: Diagnostic contains: a JDBC execute of INSERT
                    s.execute("insert into audit values (1)");
                    return;
                  } catch (SQLException e) {
                    // retry
                  }
                }
              }

              void deleteThroughPrepared(Connection c) throws SQLException {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try (PreparedStatement s = c.prepareStatement("DELETE FROM carts WHERE id = ?")) {
                    s.setLong(1, 42);
                    // BUG: Diagnostic contains: a JDBC execute of DELETE
                    s.execute();
                    return;
                  } catch (SQLException e) {
                    // retry
                  }
                }
              }

              String charge(Payments payments) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    // BUG: Diagnostic contains: @NonIdempotent charge()
                    return payments.charge("4242", 1999);
                  } catch (IOException e) {
                    // retry
                  }
                }
                return null;
              }
            }
            """)
        .doTest();
  }

  @Test
  void configuredMethodsAndHeaders() {
    helper
        .setArgs(
            "-XepOpt:Bounded:NonIdempotent=C.Mailer#send",
            "-XepOpt:Bounded:IdempotencyKeyHeader=X-Request-Id")
        .addSourceLines(
            "C.java",
            """
            import java.io.IOException;
            import java.net.URI;
            import java.net.http.HttpClient;
            import java.net.http.HttpRequest;
            import java.net.http.HttpResponse;

            class C {
              interface Mailer {
                void send(String to) throws IOException;
              }

              void mail(Mailer mailer) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    // BUG: Diagnostic contains: C.Mailer#send (configured as non-idempotent)
                    mailer.send("ops@example.com");
                    return;
                  } catch (IOException e) {
                    // retry
                  }
                }
              }

              void keyedWithACustomHeader(HttpClient client, URI uri, String requestId) throws Exception {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    client.send(
                        HttpRequest.newBuilder(uri)
                            .header("X-Request-Id", requestId)
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build(),
                        HttpResponse.BodyHandlers.discarding());
                    return;
                  } catch (IOException e) {
                    // retry
                  }
                }
              }
            }
            """)
        .doTest();
  }

  @Test
  void knownClientWritesOutOfTheBox() {
    helper
        .addSourceLines(
            "org/apache/kafka/clients/producer/Producer.java",
            """
            package org.apache.kafka.clients.producer;

            public interface Producer<K, V> {
              Object send(Object record);
            }
            """)
        .addSourceLines(
            "redis/clients/jedis/Jedis.java",
            """
            package redis.clients.jedis;

            public class Jedis {
              public long incr(String key) { return 0; }
              public String get(String key) { return null; }
            }
            """)
        .addSourceLines(
            "org/apache/zookeeper/ZooKeeper.java",
            """
            package org.apache.zookeeper;

            public class ZooKeeper {
              public enum CreateMode { PERSISTENT, PERSISTENT_SEQUENTIAL }

              public String create(String path, byte[] data, Object acl, CreateMode mode)
                  throws java.io.IOException {
                return path;
              }
            }
            """)
        .addSourceLines(
            "K.java",
            """
            import java.io.IOException;
            import org.apache.kafka.clients.producer.Producer;
            import org.apache.zookeeper.ZooKeeper;
            import redis.clients.jedis.Jedis;

            class K {
              void publish(Producer<String, String> producer, Object record) {
                for (int attempt = 0; attempt < 3; attempt++) {
                  try {
                    // BUG: Diagnostic contains: repeats a Kafka send
                    producer.send(record);
                    return;
                  } catch (RuntimeException e) {
                    // retry
                  }
                }
              }

              long count(Jedis jedis) {
                while (true) {
                  try {
                    // BUG: Diagnostic contains: repeats a Redis INCR
                    return jedis.incr("hits");
                  } catch (RuntimeException e) {
                    // retry
                  }
                }
              }

              String read(Jedis jedis) {
                while (true) {
                  try {
                    return jedis.get("hits");
                  } catch (RuntimeException e) {
                    // a read: safe to repeat
                  }
                }
              }

              String enqueue(ZooKeeper zk) {
                while (true) {
                  try {
                    // BUG: Diagnostic contains: a ZooKeeper create of a sequential node
                    return zk.create("/q/item-", new byte[0], null,
                        ZooKeeper.CreateMode.PERSISTENT_SEQUENTIAL);
                  } catch (IOException e) {
                    // retry
                  }
                }
              }

              String register(ZooKeeper zk) {
                while (true) {
                  try {
                    // a plain node created twice fails with NodeExists: visible, not duplicated
                    return zk.create("/members/a", new byte[0], null,
                        ZooKeeper.CreateMode.PERSISTENT);
                  } catch (IOException e) {
                    // retry
                  }
                }
              }
            }
            """)
        .doTest();
  }
}
