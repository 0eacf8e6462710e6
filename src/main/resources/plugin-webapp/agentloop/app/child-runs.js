// One run tree across agents. A call of another agent is a run of its own (a child run): under the
// caller's observation of that call, the child's steps, folded until the operator opens them (read
// then from GET /api/runs/{child}/trace, and their own children nested the same way), with a link to
// the child's run page; the child's page links back to its caller; and while a caller waits for its
// children, its live line says what each does ("waiting for research-agent: its plan review", "waiting for
// research-agent: stuck — LOOP_DETECTED: …").
import { clear, h, notice } from './dom.js';

/** The child run a step links to: the observation of a call that another agent's run answered. */
export function childRunOf(step) {
  return step && step.kind === 'OBSERVATION' && step.content && step.content.childRun ? step.content.childRun : null;
}

/** What a person's task of a child run is for, in words, by the task's element id in the agent's diagram. */
const PERSON = {
  reviewPlan: 'its plan review',
  reviewAnswer: 'its answer review',
  approveAction: 'approval of its tool calls',
  askHuman: 'a person to answer its question',
  agentStuck: 'a person to help it, as it is stuck'
};

/** What a child run does right now, in a few words, from its `activeStep` (GET /api/runs/{id}). */
export function childDoing(active) {
  if (!active) {
    return 'between two steps';
  }
  switch (active.kind) {
    case 'person':
      if (active.activity === 'agentStuck' && active.problem) {
        return `stuck — ${active.problem}`;
      }
      return PERSON[active.activity] || `a person in “${active.activityName}”`;
    case 'model':
      return active.activity === 'plan' ? 'planning (model call)' : 'thinking (model call)';
    case 'tools':
      return active.tools && active.tools.length ? `running ${active.tools.join(', ')}` : 'running tools';
    case 'remote-tool':
      return `a remote worker to run ${(active.tools || []).join(', ')}`;
    case 'retry':
      return `a retry of “${active.activityName}” after a failure`;
    case 'agents':
      return `its own sub-agents: ${waitingFor(active.children).map(c => `${c.agent} (${c.doing})`).join('; ')}`;
    default:
      return `at “${active.activityName}”`;
  }
}

/** The children a run waits for, in the order they started: `{runId, agent, doing}` each. */
export function waitingFor(children) {
  return (children || []).map(child => ({ runId: child.runId, agent: child.agent, doing: childDoing(child.activeStep) }));
}

const runPage = runId => `#/agentloop/run/${encodeURIComponent(runId)}`;

/** The live line of a run that waits for child runs: each child by agent, what it does, and a link to its page. */
export function waitingForAgents(active) {
  return waitingFor(active.children).map((child, i) => [i ? '; ' : '', 'waiting for ', h('code', {}, child.agent),
    ': ', child.doing, ' (', h('a', { href: runPage(child.runId), 'data-child-link': child.runId }, 'run ', child.runId),
    ')']);
}

/** The caller of a child run, for its facts: a link back to the caller's run page. */
export function calledByLink(runId) {
  return runId ? h('a', { href: runPage(runId), 'data-caller-link': runId }, 'run ', runId) : null;
}

/**
 * Nests, under each observation in the list `trace` (an `ol` of step rows) that a child run answered, the
 * child's steps, folded; opened, they are read once and drawn with `drawSteps(steps)`, which gives the list.
 */
export function nestChildRuns(trace, steps, client, drawSteps) {
  if (!trace) {
    return;
  }
  for (const step of steps) {
    const childRun = childRunOf(step);
    // the list's own rows only: a nested child's steps have numbers of their own
    const row = childRun && trace.querySelector(`:scope > li[data-step="${step.id}"]`);
    if (row && !row.querySelector(':scope > .agentloop-child-run')) {
      row.insertBefore(childSteps(childRun, step.content.tool, client, drawSteps),
        row.querySelector(':scope > .agentloop-step-slot'));
    }
  }
}

function childSteps(childRun, agent, client, drawSteps) {
  const body = h('div', { class: 'agentloop-child-steps' });
  const details = h('details', { class: 'agentloop-child-run', 'data-child-run': childRun },
    h('summary', {}, 'Steps of ', h('code', {}, agent), '\'s run ', h('a', { href: runPage(childRun),
      'data-child-link': childRun }, childRun)),
    body);
  let loaded = false;
  details.addEventListener('toggle', async () => {
    if (!details.open || loaded) {
      return;
    }
    loaded = true;
    clear(body, h('p', { class: 'text-muted' }, 'Reading the child run…'));
    try {
      const trace = await client.trace(childRun, 'active');
      const list = drawSteps(trace);
      clear(body, list);
      nestChildRuns(list, trace.steps, client, drawSteps);
    } catch (e) {
      loaded = false;
      clear(body, notice('danger', e.message));
    }
  });
  return details;
}
