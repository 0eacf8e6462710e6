package dev.agentloop.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.spi.ToolException;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a text document from one configured folder. Names are plain file names: no absolute paths,
 * no '..', and the resolved real path (symbolic links followed) must stay inside the folder.
 */
public class ReadDocumentTool implements AgentTool {

  private static final Logger LOG = LoggerFactory.getLogger(ReadDocumentTool.class);

  private static final JsonNode PARAMETERS = Schemas.parse("""
      {"type": "object",
       "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 255,
                      "description": "file name of the document, e.g. leave-policy.md"}},
       "required": ["name"], "additionalProperties": false}
      """);

  private final Path folder;
  private final int maxChars;

  public ReadDocumentTool(Path folder, int maxChars) {
    this.folder = folder.toAbsolutePath().normalize();
    this.maxChars = maxChars;
    if (!Files.isDirectory(this.folder)) {
      // a relative folder is the working directory's: an application started elsewhere finds none
      LOG.info("read_document's folder {} does not exist (agentloop.tools.read-document.folder, relative to the"
          + " directory the application started in): its calls fail until it does", this.folder);
    }
  }

  @Override
  public String name() {
    return "read_document";
  }

  @Override
  public String description() {
    return "Reads a text document from the document folder by its file name.";
  }

  @Override
  public JsonNode parameters() {
    return PARAMETERS;
  }

  @Override
  public String execute(JsonNode arguments) throws ToolException, IOException {
    String name = arguments.get("name").asText();
    Path document = inside(name);
    char[] buffer = new char[maxChars];
    try (Reader reader = Files.newBufferedReader(document, StandardCharsets.UTF_8)) {
      int read = reader.read(buffer, 0, maxChars);
      boolean cut = read == maxChars && reader.read() != -1;
      return (read < 0 ? "" : new String(buffer, 0, read)) + (cut ? "\n[cut after " + maxChars + " characters]" : "");
    }
  }

  private Path inside(String name) throws ToolException, IOException {
    if (name.contains("/") || name.contains("\\") || name.equals("..") || name.equals(".")) {
      throw new ToolException("'" + name + "' is not a plain file name; available documents: " + available());
    }
    if (!Files.isDirectory(folder)) {
      // the operator's to fix (the log names the folder), not the model's: no document can be read
      throw new ToolException("no document named '" + name + "': there are no documents to read, the document"
          + " folder of this application does not exist");
    }
    Path candidate = folder.resolve(name).normalize();
    if (!candidate.startsWith(folder) || !Files.isRegularFile(candidate)) {
      throw new ToolException("no document named '" + name + "'; available documents: " + available());
    }
    if (!candidate.toRealPath().startsWith(folder.toRealPath())) {
      throw new ToolException("'" + name + "' points outside the document folder");
    }
    return candidate;
  }

  private String available() throws IOException {
    if (!Files.isDirectory(folder)) {
      return "none";
    }
    try (Stream<Path> files = Files.list(folder)) {
      String names = files.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted()
          .collect(Collectors.joining(", "));
      return names.isEmpty() ? "none" : names;
    }
  }
}
