package dev.agentloop.internal.evaluation;

import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.tool.builtin.AskHumanTool;
import dev.agentloop.internal.trace.Decision;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Approval;
import dev.agentloop.internal.trace.step.Approvals;
import dev.agentloop.internal.trace.step.FollowUp;
import dev.agentloop.internal.trace.step.HumanInput;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.internal.trace.step.Plan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What people decided in a recorded run, in the order they decided it, for the candidate's reviews to be answered as
 * they were: plan reviews (accepted, edited, sent back, rejected), the answers given to the agent's questions, the
 * approvals of tool calls (by the call they approved), answer reviews, the help given to a stuck run, and a
 * conversation's later questions. What AgentLoop decided itself (an agent that accepts its own plans) is no person's
 * decision and not replayed. Immutable.
 */
record RecordedReviews(List<Reply> plans, List<List<String>> askHuman, Map<String, List<Approval>> approvals,
    List<Reply> answers, List<Reply> stuck, List<String> followUps) {

  static final RecordedReviews NONE = new RecordedReviews(List.of(), List.of(), Map.of(), List.of(), List.of(),
      List.of());

  private static final Set<String> PLAN = Set.of("accept", "revise", "reject");
  private static final Set<String> ANSWER = Set.of("accept", "regenerate", "feedback", "edit", "follow_up");
  private static final Set<String> STUCK = Set.of("guide", "retry", "stop");

  /** A decision as a form takes it, with its text: an edited plan, feedback, a reason or a note; or {@code null}. */
  record Reply(String decision, String text) {}

  static RecordedReviews of(RunState run, List<Decision> decisions, ToolRegistry tools) {
    Map<Integer, Step> byNo = new HashMap<>();
    run.steps().forEach(step -> byNo.put(step.stepNo(), step));
    List<Reply> plans = new ArrayList<>();
    List<Reply> answers = new ArrayList<>();
    List<Reply> stuck = new ArrayList<>();
    for (Decision decision : decisions) {
      Step step = byNo.get(decision.stepNo());
      if (step == null || decision.author().equals(Steps.AGENTLOOP)) {
        continue;
      }
      String value = decision.decision();
      if (step.kind() == StepKind.PLAN && PLAN.contains(value)) {
        plans.add(new Reply(value, planText(run, step, value, decision)));
      } else if (step.kind() == StepKind.FINAL_ANSWER && ANSWER.contains(value)) {
        answers.add(new Reply(value, value.equals("feedback") ? childText(run, step, "answer feedback")
            .orElse(decision.reason()) : decision.reason()));
      } else if (STUCK.contains(value)) {
        stuck.add(new Reply(value, decision.reason()));
      }
    }
    List<Step> path = run.activePath();
    return new RecordedReviews(plans, askHuman(path), approvals(path, tools), answers, stuck, followUps(path));
  }

  private static String planText(RunState run, Step plan, String decision, Decision decided) {
    return switch (decision) {
      case "accept" -> run.steps().stream().filter(step -> step.kind() == StepKind.PLAN
              && Integer.valueOf(plan.stepNo()).equals(step.parentNo()) && !step.author().equals(Steps.MODEL))
          .map(step -> String.join("\n", ((Plan) step.content()).steps())).findFirst().orElse(null);
      case "revise" -> childText(run, plan, "plan feedback").orElse(decided.reason());
      default -> decided.reason();
    };
  }

  /** The text of a person's input written right after the step, for the reason it was written. */
  private static Optional<String> childText(RunState run, Step parent, String reason) {
    return run.steps().stream().filter(step -> Integer.valueOf(parent.stepNo()).equals(step.parentNo())
            && reason.equals(step.reason()) && step.content() instanceof HumanInput)
        .map(step -> ((HumanInput) step.content()).text()).findFirst();
  }

  /** Each answered question of the agent to a person: the answers, in the order of its questions. */
  private static List<List<String>> askHuman(List<Step> path) {
    return path.stream().filter(step -> step.content() instanceof Observation observation
            && AskHumanTool.NAME.equals(observation.tool()) && !observation.isError()
            && !step.author().equals(Steps.AGENTLOOP))
        .map(step -> answersIn(((Observation) step.content()).result())).toList();
  }

  /** The answers of an ask-human observation ("Q: …\nA: …"), "(no answer)" as none. */
  static List<String> answersIn(String observed) {
    List<String> answers = new ArrayList<>();
    StringBuilder current = null;
    for (String line : observed.split("\n", -1)) {
      if (line.startsWith("A: ")) {
        current = new StringBuilder(line.substring(3));
        answers.add(null);
      } else if (line.startsWith("Q: ")) {
        current = null;
      } else if (current != null) {
        current.append('\n').append(line);
      }
      if (current != null) {
        String text = current.toString().strip();
        answers.set(answers.size() - 1, text.equals("(no answer)") ? "" : text);
      }
    }
    return answers;
  }

  /** People's decisions on calls, by the call as the model made it. */
  private static Map<String, List<Approval>> approvals(List<Step> path, ToolRegistry tools) {
    Map<String, Action> actions = new HashMap<>();
    Map<String, List<Approval>> bySignature = new LinkedHashMap<>();
    for (Step step : path) {
      if (step.content() instanceof Action action) {
        actions.put(action.callId(), action);
      } else if (step.content() instanceof Approvals approvals) {
        for (Approval approval : approvals.approvals()) {
          Action call = actions.get(approval.callId());
          if (call != null) {
            bySignature.computeIfAbsent(RecordedCalls.signature(call, tools), key -> new ArrayList<>()).add(approval);
          }
        }
      }
    }
    return Map.copyOf(bySignature);
  }

  private static List<String> followUps(List<Step> path) {
    return path.stream().filter(step -> step.content() instanceof FollowUp).map(step -> ((FollowUp) step.content()).text())
        .toList();
  }
}
