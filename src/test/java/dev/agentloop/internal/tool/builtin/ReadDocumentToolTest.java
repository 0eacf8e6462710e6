package dev.agentloop.internal.tool.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.spi.ToolException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadDocumentToolTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path root;

  private Path folder;

  @BeforeEach
  void createDocuments() throws Exception {
    folder = Files.createDirectory(root.resolve("docs"));
    Files.writeString(folder.resolve("leave-policy.md"), "# Leave\n30 days a year. Ümlaut ok.", StandardCharsets.UTF_8);
    Files.writeString(folder.resolve("travel.md"), "Travel by train.", StandardCharsets.UTF_8);
    Files.createDirectory(folder.resolve("sub"));
    Files.writeString(folder.resolve("sub").resolve("x.md"), "nested", StandardCharsets.UTF_8);
    Files.writeString(root.resolve("secret.txt"), "top secret", StandardCharsets.UTF_8);
  }

  private static JsonNode name(String name) {
    return JSON.createObjectNode().put("name", name);
  }

  @Test
  void should_read_a_document_by_file_name() throws Exception {
    // given
    ReadDocumentTool tool = new ReadDocumentTool(folder, 1_000);

    // when
    String text = tool.execute(name("leave-policy.md"));

    // then
    assertThat(text).isEqualTo("# Leave\n30 days a year. Ümlaut ok.");
  }

  @Test
  void should_read_a_document_exactly_max_chars_long_without_note() throws Exception {
    ReadDocumentTool tool = new ReadDocumentTool(folder, "Travel by train.".length());

    assertThat(tool.execute(name("travel.md"))).isEqualTo("Travel by train.");
  }

  @Test
  void should_read_an_empty_document_as_empty_text() throws Exception {
    Files.writeString(folder.resolve("empty.md"), "");
    ReadDocumentTool tool = new ReadDocumentTool(folder, 100);

    assertThat(tool.execute(name("empty.md"))).isEmpty();
  }

  @Test
  void should_cut_a_long_document_at_max_chars_with_a_note() throws Exception {
    // given
    ReadDocumentTool tool = new ReadDocumentTool(folder, 6);

    // when
    String text = tool.execute(name("travel.md"));

    // then
    assertThat(text).isEqualTo("Travel\n[cut after 6 characters]");
  }

  @Test
  void should_refuse_a_parent_path() {
    ReadDocumentTool tool = new ReadDocumentTool(folder, 1_000);

    assertThatThrownBy(() -> tool.execute(name("../secret.txt")))
        .isInstanceOf(ToolException.class)
        .hasMessage("'../secret.txt' is not a plain file name; available documents: leave-policy.md, travel.md");
  }

  @Test
  void should_refuse_an_absolute_path() {
    ReadDocumentTool tool = new ReadDocumentTool(folder, 1_000);

    assertThatThrownBy(() -> tool.execute(name("/etc/passwd")))
        .isInstanceOf(ToolException.class)
        .hasMessageStartingWith("'/etc/passwd' is not a plain file name");
  }

  @Test
  void should_refuse_a_path_into_a_sub_folder() {
    ReadDocumentTool tool = new ReadDocumentTool(folder, 1_000);

    assertThatThrownBy(() -> tool.execute(name("sub/x.md")))
        .isInstanceOf(ToolException.class)
        .hasMessageStartingWith("'sub/x.md' is not a plain file name");
  }

  @Test
  void should_refuse_backslashes_dot_and_dot_dot() {
    ReadDocumentTool tool = new ReadDocumentTool(folder, 1_000);

    assertThatThrownBy(() -> tool.execute(name("..")))
        .isInstanceOf(ToolException.class)
        .hasMessageStartingWith("'..' is not a plain file name");
    assertThatThrownBy(() -> tool.execute(name(".")))
        .isInstanceOf(ToolException.class)
        .hasMessageStartingWith("'.' is not a plain file name");
    assertThatThrownBy(() -> tool.execute(name("..\\secret.txt")))
        .isInstanceOf(ToolException.class)
        .hasMessageStartingWith("'..\\secret.txt' is not a plain file name");
  }

  @Test
  void should_refuse_a_folder_name() {
    ReadDocumentTool tool = new ReadDocumentTool(folder, 1_000);

    assertThatThrownBy(() -> tool.execute(name("sub")))
        .isInstanceOf(ToolException.class)
        .hasMessage("no document named 'sub'; available documents: leave-policy.md, travel.md");
  }

  @Test
  void should_refuse_a_symbolic_link_pointing_outside_the_folder() throws Exception {
    // given
    Files.createSymbolicLink(folder.resolve("link.md"), root.resolve("secret.txt"));
    ReadDocumentTool tool = new ReadDocumentTool(folder, 1_000);

    // when / then
    assertThatThrownBy(() -> tool.execute(name("link.md")))
        .isInstanceOf(ToolException.class)
        .hasMessage("'link.md' points outside the document folder");
  }

  @Test
  void should_follow_a_symbolic_link_that_stays_inside_the_folder() throws Exception {
    Files.createSymbolicLink(folder.resolve("alias.md"), folder.resolve("travel.md"));
    ReadDocumentTool tool = new ReadDocumentTool(folder, 1_000);

    assertThat(tool.execute(name("alias.md"))).isEqualTo("Travel by train.");
  }

  @Test
  void should_list_the_available_documents_for_an_unknown_name() {
    ReadDocumentTool tool = new ReadDocumentTool(folder, 1_000);

    assertThatThrownBy(() -> tool.execute(name("holiday.md")))
        .isInstanceOf(ToolException.class)
        .hasMessage("no document named 'holiday.md'; available documents: leave-policy.md, travel.md");
  }

  @Test
  void should_say_that_there_are_no_documents_where_its_folder_does_not_exist() {
    // e.g. an application started in another directory than the one its relative folder is in
    ReadDocumentTool tool = new ReadDocumentTool(root.resolve("missing"), 1_000);

    assertThatThrownBy(() -> tool.execute(name("a.md")))
        .isInstanceOf(ToolException.class)
        .hasMessage("no document named 'a.md': there are no documents to read, the document folder of this"
            + " application does not exist");
  }
}
