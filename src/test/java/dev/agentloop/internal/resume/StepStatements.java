package dev.agentloop.internal.resume;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Records, for tests only, the statements the application sends about the step tree of one watched run:
 * each statement on {@code agentloop_step} or {@code agentloop_run} that binds the run's id, with the thread
 * that sent it, in order. It wraps the application's {@link DataSource} bean; nothing in the application
 * changes. A statement is recorded once when it is prepared (a batch of rows is one statement: one call of
 * the store). Thread-safe.
 */
final class StepStatements implements BeanPostProcessor {

  /** One statement about the watched run. */
  record Statement(String thread, String sql) {

    /** A read of the run's steps: any query of {@code agentloop_step}. */
    boolean readsSteps() {
      return select() && sql.contains("from agentloop_step");
    }

    /** A read of the run's row (plain or locked). */
    boolean readsRun() {
      return select() && sql.contains("from agentloop_run");
    }

    /**
     * A write of the step tree: every one (append, branch, rewind) moves the run's head and version once,
     * whatever number of steps it inserts or supersedes.
     */
    boolean writesSteps() {
      return sql.startsWith("update agentloop_run") && sql.contains("version = version + 1");
    }

    private boolean select() {
      return sql.startsWith("select");
    }
  }

  private static volatile String watched;
  private static final List<Statement> RECORDED = new ArrayList<>();

  /** Records the statements about this run from now on, and forgets those recorded before. */
  static void watch(String runId) {
    synchronized (RECORDED) {
      RECORDED.clear();
      watched = runId;
    }
  }

  /** What was recorded since {@link #watch}, in order. */
  static List<Statement> recorded() {
    synchronized (RECORDED) {
      return List.copyOf(RECORDED);
    }
  }

  /** What the current thread sent since {@link #watch}: the statements of a command it ran. */
  static List<Statement> ofThisThread() {
    String thread = Thread.currentThread().getName();
    return recorded().stream().filter(statement -> statement.thread().equals(thread)).toList();
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (bean instanceof DataSource dataSource) {
      return proxy(DataSource.class, dataSource, (method, args) -> {
        Object result = invoke(dataSource, method, args);
        return result instanceof Connection connection ? recording(connection) : result;
      });
    }
    return bean;
  }

  private static Connection recording(Connection connection) {
    return proxy(Connection.class, connection, (method, args) -> {
      Object result = invoke(connection, method, args);
      if (method.getName().equals("prepareStatement") && result instanceof PreparedStatement statement
          && args[0] instanceof String sql) {
        String text = sql.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
        if (text.contains("agentloop_step") || text.contains("agentloop_run")) {
          return recording(statement, text);
        }
      }
      return result;
    });
  }

  /** Records the statement when it runs with the watched run's id bound. */
  private static PreparedStatement recording(PreparedStatement statement, String sql) {
    boolean[] aboutWatched = {false};
    boolean[] recorded = {false};
    return proxy(PreparedStatement.class, statement, (method, args) -> {
      String name = method.getName();
      if (name.startsWith("set") && args != null && args.length == 2 && watched != null
          && watched.equals(args[1])) {
        aboutWatched[0] = true;
      }
      if ((name.startsWith("execute") || name.equals("addBatch")) && aboutWatched[0] && !recorded[0]) {
        recorded[0] = true;
        synchronized (RECORDED) {
          RECORDED.add(new Statement(Thread.currentThread().getName(), sql));
        }
      }
      return invoke(statement, method, args);
    });
  }

  private interface Handler {
    Object handle(Method method, Object[] args) throws Throwable;
  }

  private static <T> T proxy(Class<T> type, T target, Handler handler) {
    InvocationHandler invocation = (proxy, method, args) -> handler.handle(method, args);
    return type.cast(Proxy.newProxyInstance(StepStatements.class.getClassLoader(), new Class<?>[] {type}, invocation));
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
