// The plugin's words: durations, costs, what a run waits on, what an action did. Pure functions
// (no DOM, no Cockpit), so Node's test runner loads them: tools/plugin-tests/.

const KIND_LABELS = {
  PLAN: 'Plan', THOUGHT: 'Thought', ACTION: 'Action', OBSERVATION: 'Observation',
  HUMAN_INPUT: 'Human input', FINAL_ANSWER: 'Final answer'
};

export function kindLabel(kind) {
  return KIND_LABELS[kind] || kind;
}

/**
 * A duration as a person says it: "0.4 s" and "2.5 s" (a call's latency), "40 s", "2 min 5 s",
 * "15 min", "2 h 5 min", "3 d 4 h"; "–" when unknown.
 */
export function duration(millis) {
  if (millis === null || millis === undefined || !Number.isFinite(millis) || millis < 0) {
    return '–';
  }
  const seconds = millis / 1000;
  if (seconds < 10) {
    return `${seconds.toFixed(1)} s`;
  }
  const whole = Math.floor(seconds);
  if (whole < 60) {
    return `${whole} s`;
  }
  const minutes = Math.floor(whole / 60);
  if (minutes < 10) {
    return whole % 60 ? `${minutes} min ${whole % 60} s` : `${minutes} min`;
  }
  if (minutes < 60) {
    return `${minutes} min`;
  }
  const hours = Math.floor(minutes / 60);
  if (hours < 24) {
    return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  }
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** Whole seconds that count on (a wait, a call under way): "40 s", "15 min", "2 h 5 min". */
export function elapsed(seconds) {
  return seconds < 10 ? `${Math.max(0, Math.floor(seconds))} s` : duration(seconds * 1000);
}

/** What the call behind a step cost: "model call 1.2 s · 120 prompt + 30 completion tokens". */
export function costText(cost) {
  if (!cost) {
    return null;
  }
  if (!cost.modelCall) {
    return `tool call ${duration(cost.latencyMillis)}`;
  }
  const known = value => value !== null && value !== undefined;
  const tokens = known(cost.promptTokens) || known(cost.completionTokens)
    ? `${cost.promptTokens ?? '?'} prompt + ${cost.completionTokens ?? '?'} completion tokens`
    : known(cost.totalTokens) ? `${cost.totalTokens} tokens` : 'tokens not reported by the endpoint';
  return `model call ${duration(cost.latencyMillis)} · ${tokens}`;
}

const plural = (count, word) => `${count.toLocaleString('en-US')} ${word}${count === 1 ? '' : 's'}`;

/** What a run cost, for the list of runs: "1,234 tokens · 3 model calls · 2 tool calls". */
export function runCostText(run) {
  const modelCalls = run.modelCalls || 0;
  const parts = [];
  if (modelCalls > 0 && !run.tokens) {
    parts.push('tokens not reported');
  } else if (run.tokens) {
    parts.push(plural(run.tokens, 'token'));
  }
  parts.push(plural(modelCalls, 'model call'));
  if (run.toolCalls) {
    parts.push(plural(run.toolCalls, 'tool call'));
  }
  return parts.join(' · ');
}

/** The user tasks of the agent process, by task definition key, for runs read without their names. */
const TASK_NAMES = {
  reviewPlan: 'Review the plan', approveAction: 'Approve the action', askHuman: 'Answer the agent',
  reviewAnswer: 'Review the answer'
};

/** What a waiting run waits on: "waiting: Review the answer"; null when it waits on nothing. */
export function waitingText(run) {
  if (run.activeStep && run.activeStep.kind === 'person' && run.activeStep.activityName) {
    return `waiting: ${run.activeStep.activityName}`;
  }
  const tasks = [...new Set(run.waitingFor || [])].map(key => TASK_NAMES[key] || key);
  return tasks.length ? `waiting: ${tasks.join(', ')}` : null;
}

const CONTINUES_AT = {
  think: 'the agent thinks again from there',
  act: 'the action runs',
  approveAction: 'the action waits for approval in Tasklist, because its tool has side effects'
};

export function continuesAt(where) {
  return CONTINUES_AT[where] || `the run continues at ${where}`;
}

/** The side effects left on a superseded branch, as a sentence (empty when there are none). */
export function sideEffects(result) {
  const effects = result.sideEffects || [];
  return effects.length
    ? ` Side effects on the superseded branch (they happened and are not undone): ${effects
      .map(e => `${e.tool} ${JSON.stringify(e.arguments)} at #${e.step}`).join('; ')}.`
    : '';
}

/** What an edit did: "Step #5 replaces #4; the agent thinks again from there. Superseded: #4, #5." */
export function resumedMessage(result) {
  const superseded = (result.superseded || []).map(id => `#${id}`).join(', ');
  return `Step #${result.newStep} replaces #${result.editedStep}; ${continuesAt(result.continuesAt)}.`
    + (superseded ? ` Superseded: ${superseded}.` : '') + sideEffects(result);
}

/** What a regenerate did. */
export function regeneratedMessage(result) {
  return `A new answer is being generated; ${CONTINUES_AT[result.continuesAt] || 'the run goes on'}.${sideEffects(result)}`;
}

/** What a restart did, before the new run's link. */
export function restartedMessage(runId, stepId) {
  return `Run ${runId} restarted from #${stepId} as run `;
}

/**
 * Which model call of the run a step belongs to, "call 3" (the step's `turn` in the API: the number of the model
 * reply it came from, counted along the run); null for a plan, before the first call and for a follow-up question,
 * which opens a turn rather than answering a call. A conversation's turns are its questions, never its calls.
 */
export function callLabel(step) {
  const followUp = step.kind === 'HUMAN_INPUT' && Boolean(step.content && step.content.followUp);
  return step.turn > 0 && step.kind !== 'PLAN' && !followUp ? `call ${step.turn}` : null;
}

const ENDED = ['ANSWERED', 'REJECTED', 'STOPPED', 'CANCELLED'];

/** How the current turn's answer stands, as its label: final only once accepted and the run has ended. */
function answerLabel(run, turn) {
  if ((run.waitingFor || []).includes('reviewAnswer')) {
    return 'Answer (waiting for review)';
  }
  const accepted = turn ? turn.status === 'ANSWERED' : run.status === 'ANSWERED';
  if (accepted) {
    return run.status === 'ANSWERED' ? 'Final answer' : 'Answer (accepted)';
  }
  return ENDED.includes(run.status) ? 'Last answer (not accepted)' : 'Answer (not accepted yet)';
}

/**
 * The status block's question and answer: those of the current turn (the newest question of a conversation,
 * "Question (turn 3)"), its answer labelled by where it stands; `answer` null while the turn has none.
 */
export function currentTurn(run) {
  const turns = Array.isArray(run.turns) ? run.turns : [];
  const turn = turns.length ? turns[turns.length - 1] : null;
  const answer = turn ? turn.answer : run.finalAnswer;
  return {
    questionLabel: turns.length > 1 ? `Question (turn ${turn.number})` : 'Question',
    question: turn ? turn.question : run.question,
    answerLabel: answer === null || answer === undefined ? null : answerLabel(run, turn),
    answer: answer ?? null
  };
}
