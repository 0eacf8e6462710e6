package dev.agentloop.internal.async;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes every thread AgentLoop starts: named, daemon, and with the application's class loader as its
 * context class loader, whoever asked for the thread.
 *
 * <p>Why: a pool makes its threads lazily, on the thread that submits work, and a new thread inherits
 * that thread's context class loader. Work often arrives from a thread AgentLoop did not make (an HTTP
 * client's, the JDK's common pool, a timer), whose loader is the system class loader. In the packaged
 * app (Spring Boot's executable jar) that loader cannot see the nested jars: the engine's first
 * expression on such a thread fails ({@code ELException: Provider com.sun.el.ExpressionFactoryImpl not
 * found}) inside a static initialiser, and expressions stay broken for the whole JVM. Thread-safe.
 */
public final class AgentLoopThreads implements ThreadFactory {

  private final String prefix;
  private final ClassLoader classLoader;
  private final AtomicInteger count = new AtomicInteger();

  /**
   * @param prefix the threads' names are the prefix and a number, e.g. {@code agentloop-worker-1}
   * @param classLoader the application's class loader (the Spring context's); {@code null}: the one that
   *     loaded AgentLoop
   */
  public AgentLoopThreads(String prefix, ClassLoader classLoader) {
    this.prefix = Objects.requireNonNull(prefix, "prefix");
    this.classLoader = classLoader != null ? classLoader : AgentLoopThreads.class.getClassLoader();
  }

  @Override
  public Thread newThread(Runnable task) {
    Thread thread = new Thread(task, prefix + count.incrementAndGet());
    thread.setDaemon(true);
    thread.setContextClassLoader(classLoader);
    return thread;
  }

  /** The class loader every thread of this factory runs with. */
  public ClassLoader classLoader() {
    return classLoader;
  }
}
