package dev.agentloop.benchmark;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Counts, for a benchmark only, what the application asks of its database: statements by kind
 * (select, insert, update, delete; a batched row counts as one) and commits (explicit ones, and
 * statements run in auto-commit). It wraps the application's {@link DataSource} bean in a proxy, so
 * nothing in the application changes and no driver-level tool is needed. Thread-safe.
 */
final class SqlCounter implements BeanPostProcessor {

  private static final AtomicLong SELECTS = new AtomicLong();
  private static final AtomicLong INSERTS = new AtomicLong();
  private static final AtomicLong UPDATES = new AtomicLong();
  private static final AtomicLong DELETES = new AtomicLong();
  private static final AtomicLong OTHERS = new AtomicLong();
  private static final AtomicLong COMMITS = new AtomicLong();
  private static final Map<String, AtomicLong> BY_TEXT = new ConcurrentHashMap<>();

  /** What was counted so far; the difference of two is what happened in between. */
  record Counts(long selects, long inserts, long updates, long deletes, long others, long commits) {

    static Counts now() {
      return new Counts(SELECTS.get(), INSERTS.get(), UPDATES.get(), DELETES.get(), OTHERS.get(), COMMITS.get());
    }

    Counts since(Counts before) {
      return new Counts(selects - before.selects, inserts - before.inserts, updates - before.updates,
          deletes - before.deletes, others - before.others, commits - before.commits);
    }

    /** Without {@code count} queries of one select each, in a transaction or auto-commit of their own. */
    Counts withoutPolls(long count) {
      return new Counts(selects - count, inserts, updates, deletes, others, commits - count);
    }

    long statements() {
      return selects + inserts + updates + deletes + others;
    }

    /** Per unit of work, e.g. per iteration: "41.2 statements (12.0 select, ...), 2.0 commits". */
    String per(double units) {
      return String.format(Locale.ROOT, "%5.1f statements (%4.1f select, %4.1f insert, %4.1f update, %4.1f delete),"
              + " %4.2f commits", statements() / units, selects / units, inserts / units, updates / units,
          deletes / units, commits / units);
    }
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (bean instanceof DataSource dataSource) {
      return proxy(DataSource.class, dataSource, (target, method, args) -> {
        Object result = invoke(target, method, args);
        return result instanceof Connection connection ? counting(connection) : result;
      });
    }
    return bean;
  }

  private static Connection counting(Connection connection) {
    return proxy(Connection.class, connection, (target, method, args) -> {
      Object result = invoke(target, method, args);
      String name = method.getName();
      if (name.equals("commit")) {
        COMMITS.incrementAndGet();
      } else if (result instanceof Statement statement && !(result instanceof Proxy)) {
        String sql = args != null && args.length > 0 && args[0] instanceof String text ? text : null;
        return counting(statement, connection, sql);
      }
      return result;
    });
  }

  private static Statement counting(Statement statement, Connection connection, String preparedSql) {
    Class<?> type = statement instanceof java.sql.CallableStatement ? java.sql.CallableStatement.class
        : statement instanceof java.sql.PreparedStatement ? java.sql.PreparedStatement.class : Statement.class;
    InvocationHandler handler = (proxy, method, args) -> {
      Statement target = statement;
      String name = method.getName();
      if (name.equals("addBatch") || (name.startsWith("execute") && !name.equals("executeBatch"))) {
        String sql = args != null && args.length > 0 && args[0] instanceof String text ? text : preparedSql;
        count(sql);
        if (!name.equals("addBatch") && connection.getAutoCommit()) {
          COMMITS.incrementAndGet();
        }
      } else if (name.equals("executeBatch") && connection.getAutoCommit()) {
        COMMITS.incrementAndGet();
      }
      return invoke(target, method, args);
    };
    return (Statement) Proxy.newProxyInstance(SqlCounter.class.getClassLoader(), new Class<?>[] {type}, handler);
  }

  /** How often each statement ran so far, by its text (whitespace collapsed, cut at 90 characters). */
  static Map<String, Long> byText() {
    Map<String, Long> counts = new HashMap<>();
    BY_TEXT.forEach((sql, count) -> {
      String text = sql.strip().replaceAll("\\s+", " ");
      counts.merge(text.length() > 90 ? text.substring(0, 90) : text, count.get(), Long::sum);
    });
    return counts;
  }

  /** The statements that ran most often between two {@link #byText()}, per unit of work, one a line. */
  static String mostFrequent(Map<String, Long> before, Map<String, Long> after, double units, int limit) {
    StringBuilder lines = new StringBuilder();
    after.entrySet().stream()
        .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
        .filter(e -> e.getValue() > 0)
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(limit)
        .forEach(e -> lines.append(String.format(Locale.ROOT, "      %5.2f  %s%n", e.getValue() / units, e.getKey())));
    return lines.toString();
  }

  private static void count(String sql) {
    BY_TEXT.computeIfAbsent(sql == null ? "?" : sql, k -> new AtomicLong()).incrementAndGet();
    String verb = sql == null ? "" : sql.stripLeading().toLowerCase(Locale.ROOT);
    (verb.startsWith("select") ? SELECTS : verb.startsWith("insert") ? INSERTS : verb.startsWith("update") ? UPDATES
        : verb.startsWith("delete") ? DELETES : OTHERS).incrementAndGet();
  }

  private interface Handler<T> {
    Object handle(T target, Method method, Object[] args) throws Throwable;
  }

  private static <T> T proxy(Class<T> type, T target, Handler<T> handler) {
    InvocationHandler invocation = (proxy, method, args) -> handler.handle(target, method, args);
    return type.cast(Proxy.newProxyInstance(SqlCounter.class.getClassLoader(), new Class<?>[] {type}, invocation));
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
