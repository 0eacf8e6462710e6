// What a run does right now, in words, from GET /api/runs/{id}'s activeStep: "thinking (model call,
// 5 s)", "waiting for a model slot, 37 ahead (12 s)", "running http_get (2 s)", "waiting for a person in Review the
// answer" with a link to the task in Tasklist, "waiting for the next question (3 min)". The seconds go on counting
// between two polls.
import { modelSlot, waitingForAgents } from './child-runs.js';
import { h } from './dom.js';
import { elapsed } from './words.js';

/** Tasklist's page of a task, next to this Cockpit (…/app/cockpit/<engine>/ → …/app/tasklist/<engine>/). */
export function tasklistLink(taskId) {
  const path = window.location.pathname.replace(/\/app\/cockpit\//, '/app/tasklist/');
  return `${path}#/?task=${encodeURIComponent(taskId)}`;
}

function seconds(active, readAt) {
  return active.seconds + Math.max(0, Math.floor((Date.now() - readAt) / 1000));
}

const tools = names => names.map((name, i) => [i ? ', ' : '', h('code', {}, name)]);

/** The active step as a line of text and links; `readAt` is when the API was read. */
export function liveStep(active, readAt) {
  if (!active) {
    return null;
  }
  const s = elapsed(seconds(active, readAt));
  const name = h('em', {}, active.activityName);
  switch (active.kind) {
    case 'model':
      if (modelSlot(active)) {
        return [`${modelSlot(active)} (${s})`];
      }
      return [active.activity === 'plan' ? 'planning' : 'thinking', ` (model call, ${s})`];
    case 'tools':
      return active.tools.length ? ['running ', tools(active.tools), ` (${s})`] : [`running tools (${s})`];
    case 'remote-tool':
      return ['waiting for a remote worker to run ', tools(active.tools), ` (${s})`];
    case 'person':
      return ['waiting for a person in ', h('a', { href: tasklistLink(active.taskId), target: '_blank', rel: 'noopener',
        'data-task-link': active.taskId }, active.activityName), ` (${s})`];
    case 'agents':
      return waitingForAgents(active);
    case 'retry':
      return ['waiting to try ', name, ' again after a failure', active.problem ? `: ${active.problem}` : '', ` (${s})`];
    default:
      // a conversation between two turns waits for people, not for the engine
      return active.activity === 'awaitFollowUp' ? [`waiting for the next question (${s})`]
        : ['at ', name, ` (${s})`];
  }
}
