// An evaluation in words: the answers' diff, the fields side by side, what the cases came to, and the body of a new
// evaluation from the form's values. Pure functions (no DOM), so that node --test reads them
// (tools/plugin-tests/evaluation-words.test.mjs).

const plural = (count, word) => `${count} ${word}${count === 1 ? '' : 's'}`;

// above this many token pairs the diff would cost the browser too much: the answers show as replaced whole
const MAX_DIFF_CELLS = 400000;

/**
 * The words of `before` and `after` that stay, go and come, in order: [{kind: 'same'|'del'|'ins', text}]. Words and
 * the spaces between them are tokens, so that the parts put together give back each text exactly.
 */
export function answerDiff(before, after) {
  const a = tokens(before);
  const b = tokens(after);
  if (a.length * b.length > MAX_DIFF_CELLS) {
    return merge([...a.map(text => ({ kind: 'del', text })), ...b.map(text => ({ kind: 'ins', text }))]);
  }
  // longest common subsequence, from the end, so that the walk below goes forward
  const rows = a.length + 1;
  const cols = b.length + 1;
  const lcs = new Uint32Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * cols + j] = a[i] === b[j] ? lcs[(i + 1) * cols + j + 1] + 1
        : Math.max(lcs[(i + 1) * cols + j], lcs[i * cols + j + 1]);
    }
  }
  const parts = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      parts.push({ kind: 'same', text: a[i++] });
      j++;
    } else if (i < a.length && (j === b.length || lcs[(i + 1) * cols + j] >= lcs[i * cols + j + 1])) {
      parts.push({ kind: 'del', text: a[i++] });
    } else {
      parts.push({ kind: 'ins', text: b[j++] });
    }
  }
  return merge(parts);
}

function tokens(text) {
  return text ? String(text).match(/\s+|[^\s]+/g) : [];
}

function merge(parts) {
  const merged = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if (last && last.kind === part.kind) {
      last.text += part.text;
    } else {
      merged.push({ ...part });
    }
  }
  return merged;
}

/** The answer fields of both sides, each name once, in the recorded side's order: [{name, recorded, candidate, same}]. */
export function fieldRows(recorded, candidate) {
  const left = recorded && typeof recorded === 'object' ? recorded : {};
  const right = candidate && typeof candidate === 'object' ? candidate : {};
  const names = [...new Set([...Object.keys(left), ...Object.keys(right)])];
  return names.map(name => {
    const before = name in left ? JSON.stringify(left[name]) : null;
    const after = name in right ? JSON.stringify(right[name]) : null;
    return { name, recorded: before, candidate: after, same: before === after };
  });
}

/** What the cases came to: "3 cases: 1 same, 1 changed, 1 failed, 1 missing (its run is gone), 2 still running". */
export function summaryText(summary) {
  if (!summary) {
    return '';
  }
  const parts = [`${summary.same} same`, `${summary.changed} changed`, `${summary.failed} failed`];
  if (summary.missing) {
    parts.push(`${summary.missing} missing (recorded run gone)`);
  }
  if (summary.pending) {
    parts.push(`${summary.pending} still to run`);
  }
  return `${plural(summary.cases, 'case')}: ${parts.join(', ')}`;
}

/** A side's use: "5 steps · 2 model calls · 1 tool call · 45 tokens · 0.0012 EUR". */
export function useText(use) {
  if (!use) {
    return '–';
  }
  const parts = [];
  if (use.steps !== undefined) {
    parts.push(plural(use.steps, 'step'));
  }
  if (use.runs !== undefined) {
    parts.push(plural(use.runs, 'run'));
  }
  parts.push(plural(use.modelCalls || 0, 'model call'), plural(use.toolCalls || 0, 'tool call'),
    plural(Number(use.tokens || 0), 'token'));
  if (use.cost !== null && use.cost !== undefined) {
    parts.push(`${use.cost} ${use.currency || ''}`.trim());
  }
  return parts.join(' · ');
}

/** What the judge's calls used: "judge: 3 calls · 90 tokens", or null where no judge ran. */
export function judgeText(judge, currency) {
  if (!judge || !judge.calls) {
    return null;
  }
  const cost = judge.cost !== null && judge.cost !== undefined ? ` · ${judge.cost} ${currency || ''}`.trimEnd() : '';
  return `judge: ${plural(judge.calls, 'call')} · ${plural(Number(judge.tokens || 0), 'token')}${cost}`;
}

/** How an evaluation stands, for its line in the list and its head. */
export function statusText(evaluation) {
  if (evaluation.promotion) {
    return `promoted by ${evaluation.promotion.by} as version ${evaluation.promotion.version}`;
  }
  return { QUEUED: 'queued', RUNNING: 'running', DONE: 'done', INTERRUPTED: 'interrupted (its node stopped)' }
    [evaluation.status] || String(evaluation.status).toLowerCase();
}

/** What was evaluated: "version 3" or "an uploaded diagram". */
export function candidateText(evaluation) {
  return evaluation.candidateVersion ? `version ${evaluation.candidateVersion}` : 'an uploaded diagram';
}

/**
 * The body of POST /api/agents/{key}/evaluations from the form's values, or the problems with them in words:
 * {body} or {problems: [...]}. `values`: source ('version'|'diagram'), version, diagram, runs (ids), recent, dataSet
 * (JSON text), rubric, reason.
 */
export function evaluationBody(values) {
  const problems = [];
  const body = { reason: (values.reason || '').trim() };
  if (values.source === 'diagram') {
    if (!(values.diagram || '').trim()) {
      problems.push('Paste or upload the candidate\'s BPMN diagram, or pick a deployed version.');
    }
    body.diagram = values.diagram;
  } else {
    body.version = Number(values.version);
  }
  body.runs = values.runs || [];
  const recent = Number(values.recent || 0);
  if (!Number.isInteger(recent) || recent < 0) {
    problems.push('The number of newest runs must be a whole number, 0 or more.');
  } else if (recent > 0) {
    body.recent = recent;
  }
  if ((values.dataSet || '').trim()) {
    try {
      const cases = JSON.parse(values.dataSet);
      if (!Array.isArray(cases)) {
        problems.push('The data set must be a JSON array of cases, e.g. [{"question": "…", "expect": {"contains": ["…"]}}].');
      } else {
        body.cases = cases;
      }
    } catch (e) {
      problems.push(`The data set is no JSON: ${e.message}`);
    }
  }
  if (!body.runs.length && !body.recent && !body.cases) {
    problems.push('Choose recorded runs, the newest runs, or give a data set: an evaluation needs cases.');
  }
  if ((values.rubric || '').trim()) {
    body.judge = { rubric: values.rubric.trim() };
  }
  if (!body.reason) {
    problems.push('Please give a reason: it is kept with the evaluation.');
  }
  return problems.length ? { problems } : { body };
}
