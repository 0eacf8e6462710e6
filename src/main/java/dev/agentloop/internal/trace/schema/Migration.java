package dev.agentloop.internal.trace.schema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * One versioned script of AgentLoop's tables, {@code META-INF/agentloop/db/<database>/V<n>__<what>.sql}
 * in the jar; the same files a DBA or Flyway applies.
 */
record Migration(int version, String description, Resource script) {

  static final String LOCATION = "META-INF/agentloop/db/";

  private static final Pattern NAME = Pattern.compile("V(\\d+)__(\\w+)\\.sql");

  Migration {
    Objects.requireNonNull(script, "script");
  }

  /** The scripts for a database ({@code h2}, {@code postgres}), oldest first; empty where none is shipped. */
  static List<Migration> of(String database) {
    try {
      Resource[] scripts = new PathMatchingResourcePatternResolver(Migration.class.getClassLoader())
          .getResources("classpath*:" + LOCATION + database + "/V*__*.sql");
      return Arrays.stream(scripts).map(Migration::of).sorted(Comparator.comparingInt(Migration::version)).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list AgentLoop's table scripts", e);
    }
  }

  private static Migration of(Resource script) {
    Matcher name = NAME.matcher(Objects.requireNonNull(script.getFilename()));
    if (!name.matches()) {
      throw new IllegalStateException("not a script name of AgentLoop's tables: " + script.getFilename());
    }
    return new Migration(Integer.parseInt(name.group(1)), name.group(2).replace('_', ' '), script);
  }

  String sql() {
    try {
      return script.getContentAsString(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + script.getFilename(), e);
    }
  }
}
