package dev.agentloop.internal.tool.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * The observation of a tool result: text kept as it is, structured content as JSON, and binary
 * content (images, audio, blobs) and resource links named but never put into the prompt, where
 * base64 would only eat the model's context.
 */
final class McpResults {

  private static final ObjectMapper JSON = new ObjectMapper();

  private McpResults() {}

  static String observation(McpSchema.CallToolResult result) {
    List<String> parts = new ArrayList<>();
    if (result.content() != null) {
      result.content().forEach(content -> parts.add(describe(content)));
    }
    boolean hasText = result.content() != null
        && result.content().stream().anyMatch(McpSchema.TextContent.class::isInstance);
    if (!hasText && result.structuredContent() != null) {
      parts.add(json(result.structuredContent()));
    }
    return String.join("\n", parts);
  }

  private static String describe(McpSchema.Content content) {
    if (content instanceof McpSchema.TextContent text) {
      return text.text() == null ? "" : text.text();
    }
    if (content instanceof McpSchema.ImageContent image) {
      return "[image " + image.mimeType() + ", " + bytes(image.data()) + " bytes, not shown]";
    }
    if (content instanceof McpSchema.AudioContent audio) {
      return "[audio " + audio.mimeType() + ", " + bytes(audio.data()) + " bytes, not shown]";
    }
    if (content instanceof McpSchema.ResourceLink link) {
      return "[resource link " + link.uri() + (link.name() == null ? "" : " (" + link.name() + ")")
          + (link.mimeType() == null ? "" : ", " + link.mimeType()) + "]";
    }
    if (content instanceof McpSchema.EmbeddedResource embedded) {
      McpSchema.ResourceContents resource = embedded.resource();
      if (resource instanceof McpSchema.TextResourceContents text) {
        return "[resource " + text.uri() + (text.mimeType() == null ? "" : ", " + text.mimeType()) + "]\n" + text.text();
      }
      if (resource instanceof McpSchema.BlobResourceContents blob) {
        return "[resource " + blob.uri() + (blob.mimeType() == null ? "" : ", " + blob.mimeType()) + ", "
            + bytes(blob.blob()) + " bytes, not shown]";
      }
    }
    return "[" + content.type() + " content, not shown]";
  }

  /** The decoded size of base64 data, without decoding it. */
  private static long bytes(String base64) {
    if (base64 == null) {
      return 0;
    }
    int padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
    return Math.max(0, base64.length() * 3L / 4 - padding);
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      return String.valueOf(value);
    }
  }
}
