package dev.agentloop.internal.evaluation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentloop.internal.agent.ReviewKind;
import dev.agentloop.internal.review.ReviewTaskView;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Approval;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields a candidate's review is submitted with: the recorded run's decisions in their order ({@link
 * RecordedReviews}), and where it had none, the evaluation's choice, which the case then marks. One per case, used by
 * the lane's thread only.
 */
final class ReviewReplies {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final RecordedReviews recorded;
  private final ReplayChoices choices;
  private final ToolRegistry tools;
  private final Map<ReviewKind, Integer> used = new HashMap<>();
  private final Map<String, Integer> approvalsUsed = new HashMap<>();

  ReviewReplies(RecordedReviews recorded, ReplayChoices choices, ToolRegistry tools) {
    this.recorded = recorded;
    this.choices = choices;
    this.tools = tools;
  }

  /**
   * The fields, and a mark where they are not the record's.
   *
   * @param mark what the case notes, or {@code null} where the record answered
   */
  record Reply(Map<String, JsonNode> fields, String mark) {}

  /** The reply to an open review task; {@code null} for a user task that is no review of AgentLoop's. */
  Reply reply(ReviewTaskView task) {
    ReviewKind kind = kind(task);
    if (kind == null) {
      return null;
    }
    return switch (kind) {
      case PLAN -> next(kind, recorded.plans()).map(this::plan).orElseGet(() -> anew(task));
      case ASK_HUMAN -> next(kind, recorded.askHuman()).map(answers -> answers(task, answers)).orElseGet(() -> anew(task));
      case APPROVE_ACTION -> approvals(task);
      case ANSWER -> next(kind, recorded.answers()).map(this::answer).orElseGet(() -> anew(task));
      case AGENT_STUCK -> next(kind, recorded.stuck()).map(this::stuck).orElseGet(() -> anew(task));
    };
  }

  /** The evaluation's own reply: for a review the record has none for, or whose recorded reply was refused. */
  Reply anew(ReviewTaskView task) {
    boolean accept = choices.newReviews() == ReplayChoices.NewReviews.ACCEPT;
    ReviewKind kind = kind(task);
    if (kind == null) {
      return null;
    }
    return switch (kind) {
      case PLAN -> new Reply(accept ? fields("decision", "accept", "plan", text(task, "plan"))
          : fields("decision", "reject", "feedback", "rejected by the evaluation: the recorded run had no such review"),
          "plan review asked anew: " + (accept ? "accepted" : "rejected"));
      case ASK_HUMAN -> new Reply(answers(task, List.of()).fields(), "question asked anew: '" + text(task, "question1")
          + "', answered '" + choices.askHumanAnswer() + "'");
      case APPROVE_ACTION -> approvalsAnew(task);
      case ANSWER -> new Reply(fields("decision", "accept"), "answer review asked anew: accepted");
      case AGENT_STUCK -> new Reply(fields("decision", "stop", "note", "stopped by the evaluation: the recorded run"
          + " never got stuck here"), "stuck where the recorded run was not: stopped");
    };
  }

  private Reply plan(RecordedReviews.Reply reply) {
    return switch (reply.decision()) {
      case "revise" -> new Reply(fields("decision", "revise", "feedback", orElse(reply.text(), "revise the plan")), null);
      case "reject" -> new Reply(fields("decision", "reject", "feedback", orElse(reply.text(), "")), null);
      default -> reply.text() == null ? new Reply(fields("decision", "accept"), null)
          : new Reply(fields("decision", "accept", "plan", reply.text()), null);
    };
  }

  private Reply answers(ReviewTaskView task, List<String> answers) {
    Map<String, JsonNode> fields = new LinkedHashMap<>();
    boolean any = false;
    for (int i = 1; task.form().containsKey("question" + i); i++) {
      String answer = i <= answers.size() ? answers.get(i - 1) : "";
      any |= !answer.isEmpty();
      fields.put("answer" + i, TextNode.valueOf(answer));
    }
    if (!any) {
      fields.put("answer1", TextNode.valueOf(choices.askHumanAnswer()));
    }
    return new Reply(fields, null);
  }

  private Reply answer(RecordedReviews.Reply reply) {
    return switch (reply.decision()) {
      case "feedback" -> new Reply(fields("decision", "feedback", "feedback", orElse(reply.text(), "try again")), null);
      case "regenerate" -> new Reply(fields("decision", "regenerate", "regenerateReason",
          orElse(reply.text(), "regenerated as in the recorded run")), null);
      case "edit" -> new Reply(fields("decision", "accept"), "the recorded answer was edited by a person; the"
          + " candidate's answer is accepted as it wrote it");
      default -> new Reply(fields("decision", "accept"), null);
    };
  }

  private Reply stuck(RecordedReviews.Reply reply) {
    return new Reply(fields("decision", reply.decision(), "note", orElse(reply.text(), "go on")), null);
  }

  private Reply approvals(ReviewTaskView task) {
    Map<String, JsonNode> fields = new LinkedHashMap<>();
    StringBuilder marks = new StringBuilder();
    for (int n = 1; task.form().containsKey("tool" + n); n++) {
      String signature = signature(task, n);
      List<Approval> decided = recorded.approvals().getOrDefault(signature, List.of());
      int next = approvalsUsed.merge(signature, 1, Integer::sum) - 1;
      if (next < decided.size()) {
        Approval approval = decided.get(next);
        fields.put("decision" + n, TextNode.valueOf(approval.decision().value()));
        fields.put("arguments" + n, approval.decision() == Approval.Decision.EDIT
            ? TextNode.valueOf(approval.arguments().toPrettyString()) : task.form().get("arguments" + n));
        fields.put("reason" + n, TextNode.valueOf(orElse(approval.reason(), "")));
      } else {
        fields.putAll(approvalAnew(task, n));
        marks.append(marks.length() == 0 ? "" : "; ").append("approval of ").append(text(task, "tool" + n))
            .append(" asked anew: ").append(choices.newReviews() == ReplayChoices.NewReviews.ACCEPT ? "approved"
                : "rejected");
      }
    }
    return new Reply(fields, marks.length() == 0 ? null : marks.toString());
  }

  private Reply approvalsAnew(ReviewTaskView task) {
    Map<String, JsonNode> fields = new LinkedHashMap<>();
    for (int n = 1; task.form().containsKey("tool" + n); n++) {
      fields.putAll(approvalAnew(task, n));
    }
    return new Reply(fields, "approval asked anew: " + (choices.newReviews() == ReplayChoices.NewReviews.ACCEPT
        ? "approved" : "rejected"));
  }

  private Map<String, JsonNode> approvalAnew(ReviewTaskView task, int n) {
    boolean accept = choices.newReviews() == ReplayChoices.NewReviews.ACCEPT;
    return fields("decision" + n, accept ? "approve" : "reject", "arguments" + n, text(task, "arguments" + n),
        "reason" + n, accept ? "" : "rejected by the evaluation: the recorded run had no such call to decide on");
  }

  private String signature(ReviewTaskView task, int n) {
    JsonNode arguments;
    try {
      arguments = JSON.readTree(text(task, "arguments" + n));
    } catch (Exception e) {
      arguments = null;
    }
    return RecordedCalls.signature(new Action("", text(task, "tool" + n), arguments, null), tools);
  }

  private <T> java.util.Optional<T> next(ReviewKind kind, List<T> replies) {
    int next = used.getOrDefault(kind, 0);
    if (next >= replies.size()) {
      return java.util.Optional.empty();
    }
    used.put(kind, next + 1);
    return java.util.Optional.of(replies.get(next));
  }

  private static ReviewKind kind(ReviewTaskView task) {
    try {
      return task.kind() == null ? null : ReviewKind.of(task.kind());
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static String text(ReviewTaskView task, String field) {
    JsonNode value = task.form().get(field);
    return value == null || value.isNull() ? "" : value.asText();
  }

  private static String orElse(String text, String otherwise) {
    return text == null || text.isBlank() ? otherwise : text;
  }

  private static Map<String, JsonNode> fields(String... namesAndValues) {
    Map<String, JsonNode> fields = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      fields.put(namesAndValues[i], TextNode.valueOf(namesAndValues[i + 1]));
    }
    return fields;
  }
}
