// AgentLoop's REST API (agentloop.api.base-path, /api by default) as the Cockpit user: the webapp
// session authenticates every call, and every change carries the session's CSRF token, as Cockpit's
// own requests do.
import { regenerateTurnBody } from './conversation.js';
import settings from './settings.js';

// <servlet context>/<base path>, as the server knows it (settings.js is made per request)
export const API = settings.api;

const WHAT_WENT_WRONG = {
  400: 'The server did not accept this input',
  401: 'AgentLoop\'s API did not accept your Cockpit session: log in again',
  403: 'You may not do this',
  404: 'Not found',
  409: "This conflicts with the run's current state"
};

// a 401 or 403 without AgentLoop's problem document came from the application's own security in front of it
const NOT_AGENTLOOP = {
  401: url => `the application's security refused ${url} before AgentLoop saw the request; ask its administrators`
    + ' to leave AgentLoop\'s paths to AgentLoop (see the embedding guide)',
  403: url => `the application's security forbids ${url} before AgentLoop saw the request; ask its administrators`
    + ' to leave AgentLoop\'s paths to AgentLoop (see the embedding guide)'
};

/** An API error with the problem document's words (RFC 9457 `detail`) for the operator. */
export class ApiError extends Error {
  constructor(status, title, detail) {
    const what = WHAT_WENT_WRONG[status] || (status ? 'The request failed' : 'No connection to the server');
    super(`${what}${status ? ` (${status})` : ''}: ${detail || title || 'no details given'}`);
    this.status = status;
    this.detail = detail;
  }
}

function cookie(name) {
  const match = document.cookie.split(/;\s*/).find(part => part.startsWith(name + '='));
  return match ? decodeURIComponent(match.substring(name.length + 1)) : null;
}

const path = (...parts) => parts.map(encodeURIComponent).join('/');

/** The calls the plugin makes; `api` is what Cockpit passes to a plugin's render. */
export function agentLoopApi(api) {
  // the token can change with the session (a new login), so read it when it is needed
  const csrfToken = () => cookie('XSRF-TOKEN') || api.CSRFToken;

  async function call(method, url, body, withTotal) {
    const headers = { Accept: 'application/json, application/problem+json' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
    }
    if (method !== 'GET') {
      headers['X-XSRF-TOKEN'] = csrfToken();
    }
    let response;
    try {
      response = await fetch(url, {
        method, headers, credentials: 'same-origin',
        body: body === undefined ? undefined : JSON.stringify(body)
      });
    } catch (e) {
      throw new ApiError(0, null, e.message);
    }
    const text = await response.text();
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch (e) {
      json = null;
    }
    if (!response.ok) {
      // Spring's own error bodies (no problem document) carry `error` instead of `detail`
      const detail = json ? json.detail : text.substring(0, 300);
      throw new ApiError(response.status, json && (json.title || json.error),
        detail || (NOT_AGENTLOOP[response.status] ? NOT_AGENTLOOP[response.status](url) : detail));
    }
    return withTotal ? { items: json, total: Number(response.headers.get('X-Total-Count') ?? (json || []).length) } : json;
  }

  const runs = id => `${API}/runs/${path(id)}`;
  return {
    run: id => call('GET', runs(id)),
    trace: (id, branches) => call('GET', `${runs(id)}/trace?branches=${branches}`),
    actions: id => call('GET', `${runs(id)}/actions`),
    finishedRuns: agent => call('GET', `${API}/runs?agent=${encodeURIComponent(agent)}&finished=true&limit=50`),
    /** One page of an agent's runs: `search` has status, from, to, editedBy, q, page, size; gives {items, total}. */
    searchRuns: (agent, search) => call('GET', `${API}/runs?${new URLSearchParams({ agent,
      ...Object.fromEntries(Object.entries(search).filter(([, v]) => v !== '' && v !== null && v !== undefined)) })}`,
    undefined, true),
    prompt: (id, stepId) => call('GET', `${runs(id)}/steps/${path(stepId)}/prompt`),
    /** `replayLaterTurns` (true or false) only for a step in an earlier turn of a conversation. */
    edit: (id, stepId, content, reason, baseVersion, replayLaterTurns) =>
      call('POST', `${runs(id)}/steps/${path(stepId)}/edit`, { content, reason, baseVersion, replayLaterTurns }),
    regenerate: (id, reason) => call('POST', `${runs(id)}/regenerate`, { reason }),
    /** Redoes turn `turn` of a conversation; `replay`: ask the later questions again on the new branch. */
    regenerateTurn: (id, turn, replay, reason) => call('POST', `${runs(id)}/regenerate`,
      regenerateTurnBody(turn, replay, reason)),
    stop: (id, reason) => call('POST', `${runs(id)}/stop`, { reason }),
    restart: (id, fromStep, reason) => call('POST', `${runs(id)}/restart`, { fromStep, reason }),
    /** The agent's versions with their open and all runs, oldest first. */
    versions: agent => call('GET', `${API}/agents/${path(agent)}/versions`),
    /** Moves runs to a version, or (dryRun) says what would happen: `body` as POST /api/agents/{key}/migrations. */
    migrate: (agent, body) => call('POST', `${API}/agents/${path(agent)}/migrations`, body),
    /** How a migration stands: what became of each of its runs so far. */
    migration: (agent, id) => call('GET', `${API}/agents/${path(agent)}/migrations/${path(id)}`),
    /** The agent's evaluations, newest first, without their cases. */
    evaluations: agent => call('GET', `${API}/agents/${path(agent)}/evaluations`),
    /** Starts an evaluation: `body` as POST /api/agents/{key}/evaluations. */
    startEvaluation: (agent, body) => call('POST', `${API}/agents/${path(agent)}/evaluations`, body),
    /** One evaluation, case by case. */
    evaluation: id => call('GET', `${API}/evaluations/${path(id)}`),
    /** Makes the evaluated candidate the version new runs start on. */
    promote: (id, reason) => call('POST', `${API}/evaluations/${path(id)}/promote`, { reason }),
    /** The circuit breakers, or null where this AgentLoop has no breaker endpoint. */
    breakers: () => call('GET', `${API}/breakers`).catch(e => {
      if (e.status === 404) {
        return null;
      }
      throw e;
    }),
    /** The engine's process definition (for its key), through Cockpit's own engine API. */
    processDefinition: id => call('GET', `${api.engineApi}/process-definition/${path(id)}`)
  };
}
