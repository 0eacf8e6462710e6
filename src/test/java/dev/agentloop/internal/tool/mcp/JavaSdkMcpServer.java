package dev.agentloop.internal.tool.mcp;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.core.ConsoleAppender;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.transport.HttpServletSseServerTransportProvider;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.Filter;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.slf4j.LoggerFactory;

/**
 * An MCP server written with the official MCP Java SDK, run by the tests as a process of its own
 * ({@link #start}): over stdio ({@code stdio <log>}) or over HTTP ({@code http <port> <log>}, the
 * streamable HTTP transport at {@code /mcp} and the older HTTP+SSE transport at {@code /sse}, on
 * embedded Tomcat). Its tools: {@code plan_trip}, whose input schema is shaped as pydantic generates
 * it for a model argument ({@code $defs}, {@code $ref}, {@code anyOf} with null, titles), and
 * {@code slow}, which takes {@code seconds} to answer and is not read-only. Every call and every
 * {@code notifications/cancelled} it receives is appended to the call log, one line each:
 * {@code call <tool> <arguments>}, {@code done <tool>}, {@code cancelled <params>}.
 */
public final class JavaSdkMcpServer {

  /** The input schema of {@code plan_trip}, as pydantic 2 writes it for {@code plan_trip(trip: Trip)}. */
  static final String PLAN_TRIP_SCHEMA = """
      {"$defs": {
         "Leg": {"properties": {
             "from_city": {"title": "From City", "type": "string"},
             "to_city": {"title": "To City", "type": "string"},
             "mode": {"$ref": "#/$defs/Mode", "default": "train"}},
           "required": ["from_city", "to_city"], "title": "Leg", "type": "object"},
         "Mode": {"enum": ["train", "plane", "bus"], "title": "Mode", "type": "string"},
         "Traveller": {"properties": {
             "name": {"title": "Name", "type": "string"},
             "age": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null, "title": "Age"}},
           "required": ["name"], "title": "Traveller", "type": "object"}},
       "properties": {
         "traveller": {"$ref": "#/$defs/Traveller"},
         "legs": {"items": {"$ref": "#/$defs/Leg"}, "title": "Legs", "type": "array"}},
       "required": ["traveller", "legs"],
       "title": "plan_tripArguments",
       "type": "object"}""";

  private static Path log;

  private JavaSdkMcpServer() {}

  public static void main(String[] args) throws Exception {
    logToStandardError(); // stdout is the stdio transport's
    McpJsonMapper json = McpJsonDefaults.getMapper();
    if ("stdio".equals(args[0])) {
      log = Path.of(args[1]);
      InputStream in = new CancellationTap(System.in);
      McpServer.sync(new StdioServerTransportProvider(json, in, System.out)).serverInfo("java-sdk-test", "1")
          .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build()).tools(tools(json)).build();
      Thread.currentThread().join();
    } else {
      int port = Integer.parseInt(args[1]);
      log = Path.of(args[2]);
      HttpServletStreamableServerTransportProvider streamable = HttpServletStreamableServerTransportProvider.builder()
          .jsonMapper(json).mcpEndpoint("/mcp").build();
      McpServer.sync(streamable).serverInfo("java-sdk-test", "1")
          .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build()).tools(tools(json)).build();
      HttpServletSseServerTransportProvider sse = HttpServletSseServerTransportProvider.builder().jsonMapper(json)
          .sseEndpoint("/sse").messageEndpoint("/message").build();
      McpServer.sync(sse).serverInfo("java-sdk-test", "1")
          .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build()).tools(tools(json)).build();
      Tomcat tomcat = new Tomcat();
      tomcat.setPort(port);
      tomcat.setBaseDir(Files.createTempDirectory("java-sdk-mcp").toString());
      Context context = tomcat.addContext("", null);
      add(tomcat, context, "streamable", streamable, "/mcp");
      add(tomcat, context, "sse", sse, "/sse", "/message");
      FilterDef tap = new FilterDef();
      tap.setFilterName("tap");
      tap.setFilter((Filter) (request, response, chain) -> chain.doFilter(
          new TappedRequest((HttpServletRequest) request), response));
      tap.setAsyncSupported("true");
      context.addFilterDef(tap);
      FilterMap everything = new FilterMap();
      everything.setFilterName("tap");
      everything.addURLPattern("/*");
      context.addFilterMap(everything);
      tomcat.getConnector();
      tomcat.start();
      tomcat.getServer().await();
    }
  }

  private static void add(Tomcat tomcat, Context context, String name, HttpServlet servlet, String... paths) {
    Wrapper wrapper = Tomcat.addServlet(context, name, servlet);
    wrapper.setAsyncSupported(true);
    for (String path : paths) {
      context.addServletMappingDecoded(path, name);
    }
  }

  private static List<SyncToolSpecification> tools(McpJsonMapper json) {
    McpSchema.Tool planTrip = McpSchema.Tool.builder().name("plan_trip").description("Plans a trip for a traveller.")
        .inputSchema(json, PLAN_TRIP_SCHEMA)
        .annotations(new McpSchema.ToolAnnotations(null, true, false, true, false, null)).build();
    McpSchema.Tool slow = McpSchema.Tool.builder().name("slow").description("Answers after the given seconds.")
        .inputSchema(json, "{\"type\": \"object\", \"properties\": {\"seconds\": {\"type\": \"number\"}},"
            + " \"required\": [\"seconds\"]}").build();
    return List.of(
        SyncToolSpecification.builder().tool(planTrip).callHandler((exchange, request) -> {
          record("call plan_trip " + json(json, request.arguments()));
          @SuppressWarnings("unchecked")
          Map<String, Object> traveller = (Map<String, Object>) request.arguments().get("traveller");
          return text("trip planned for " + traveller.get("name") + ": "
              + ((List<?>) request.arguments().get("legs")).size() + " legs");
        }).build(),
        SyncToolSpecification.builder().tool(slow).callHandler((exchange, request) -> {
          record("call slow " + json(json, request.arguments()));
          double seconds = ((Number) request.arguments().get("seconds")).doubleValue();
          try {
            Thread.sleep((long) (seconds * 1000));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          record("done slow");
          return text("slept " + seconds + " s");
        }).build());
  }

  private static McpSchema.CallToolResult text(String text) {
    return McpSchema.CallToolResult.builder().addTextContent(text).isError(false).build();
  }

  private static String json(McpJsonMapper json, Object value) {
    try {
      return json.writeValueAsString(value);
    } catch (IOException e) {
      return String.valueOf(value);
    }
  }

  static synchronized void record(String line) {
    try {
      Files.writeString(log, line.replace('\n', ' ') + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Notes every cancellation that arrives: the SDK's server takes notifications/cancelled without a word. */
  private static void noteIfCancelled(String message) {
    if (message.contains("\"notifications/cancelled\"")) {
      int params = message.indexOf("\"params\"");
      record("cancelled " + (params < 0 ? message : message.substring(params)));
    }
  }

  private static void logToStandardError() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%d %-5level %logger{20} %msg%n");
    encoder.start();
    ConsoleAppender<ch.qos.logback.classic.spi.ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    console.setTarget("System.err");
    console.setEncoder(encoder);
    console.start();
    ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.WARN);
    root.addAppender(console);
  }

  /** Standard input, line by line as the stdio transport reads it, with cancellations noted on the way. */
  private static final class CancellationTap extends FilterInputStream {

    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    CancellationTap(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        seen(new byte[] {(byte) b}, 0, 1);
      } else {
        clientGone();
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      if (n > 0) {
        seen(buffer, offset, n);
      } else if (n < 0) {
        clientGone();
      }
      return n;
    }

    /** Standard input ended: the client closed it or died. A stdio server ends then, as the npm ones do. */
    private static void clientGone() {
      System.exit(0);
    }

    private synchronized void seen(byte[] buffer, int offset, int length) {
      for (int i = offset; i < offset + length; i++) {
        if (buffer[i] == '\n') {
          noteIfCancelled(line.toString(StandardCharsets.UTF_8));
          line.reset();
        } else {
          line.write(buffer[i]);
        }
      }
    }
  }

  /** A request whose body is read once, noted when it is a cancellation, and then read by the SDK. */
  private static final class TappedRequest extends HttpServletRequestWrapper {

    private byte[] body;

    TappedRequest(HttpServletRequest request) {
      super(request);
    }

    private byte[] body() throws IOException {
      if (body == null) {
        body = super.getInputStream().readAllBytes();
        noteIfCancelled(new String(body, StandardCharsets.UTF_8));
      }
      return body;
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
      ByteArrayInputStream in = new ByteArrayInputStream(body());
      return new ServletInputStream() {
        @Override
        public int read() {
          return in.read();
        }

        @Override
        public boolean isFinished() {
          return in.available() == 0;
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
          throw new UnsupportedOperationException();
        }
      };
    }

    @Override
    public BufferedReader getReader() throws IOException {
      return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body()), StandardCharsets.UTF_8));
    }
  }

  /** Starts the server as a process of its own, with this JVM's class path; HTTP: returns once it listens. */
  static Process start(Path log, String... transportAndPort) {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", classPath(), JavaSdkMcpServer.class.getName()));
    command.addAll(List.of(transportAndPort));
    command.add(log.toString());
    try {
      Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      int port = Integer.parseInt(transportAndPort[1]);
      long deadline = System.nanoTime() + java.time.Duration.ofSeconds(60).toNanos();
      while (!listening(port)) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          process.destroyForcibly();
          throw new IllegalStateException("the Java SDK MCP server did not listen on port " + port);
        }
        process.waitFor(50, java.util.concurrent.TimeUnit.MILLISECONDS);
      }
      return process;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static boolean listening(int port) {
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** The command line that runs the server over stdio, for {@code agentloop.tools.mcp.<server>.command/args}. */
  static List<String> stdioCommand(Path log) {
    return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPath(),
        JavaSdkMcpServer.class.getName(), "stdio", log.toString());
  }

  private static String classPath() {
    // surefire's own class path is a manifest-only jar; it names the real one here
    return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
  }
}
