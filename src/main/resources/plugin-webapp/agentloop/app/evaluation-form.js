// The form that starts an evaluation: the candidate (a deployed version, or a BPMN diagram pasted or uploaded), its
// cases (recorded runs found by a search and ticked, the agent's newest finished runs, a data set in JSON), a judge's
// rubric, and the reason. evaluation-words.js turns the values into the request and says what is missing.
import { clear, h, notice, time } from './dom.js';
import { runLink } from './runs-tab.js';

const FOUND_RUNS = 20;

function candidatePart(versions) {
  const latest = versions.length ? versions[versions.length - 1].version : 1;
  const source = (value, label, checked) => h('label', { class: 'radio-inline' },
    h('input', { type: 'radio', name: 'agentloop-eval-source', value, checked, 'data-field': `source-${value}` }),
    ` ${label}`);
  const version = versions.length ? h('select', { class: 'form-control input-sm', 'data-field': 'candidate-version' },
    versions.map(v => h('option', { value: v.version, selected: v.version === latest },
      `version ${v.version}${v.versionTag ? ` (${v.versionTag})` : ''}${v.latest ? ' – new runs start here' : ''}`)))
    : h('input', { class: 'form-control input-sm', type: 'number', min: 1, value: 1, style: 'width: 80px',
      'data-field': 'candidate-version' });
  const diagram = h('textarea', { class: 'form-control', rows: 4, 'data-field': 'candidate-diagram',
    placeholder: 'the changed diagram\'s BPMN XML, as Modeler saves it' });
  const file = h('input', { type: 'file', accept: '.bpmn,.xml', 'data-field': 'candidate-file',
    onchange: async () => {
      if (file.files.length) {
        diagram.value = await file.files[0].text();
        root.querySelector('[data-field=source-diagram]').checked = true;
      }
    } });
  const root = h('fieldset', {}, h('legend', {}, 'Candidate'),
    h('div', {}, source('version', 'a deployed version ', true), version),
    h('div', {}, source('diagram', 'a changed diagram (paste it, or upload the .bpmn file) ', false), file), diagram);
  return {
    root,
    values: () => ({ source: root.querySelector('[data-field=source-diagram]').checked ? 'diagram' : 'version',
      version: version.value, diagram: diagram.value })
  };
}

function runsPart(client, agent) {
  const chosen = new Set();
  const q = h('input', { class: 'form-control input-sm', type: 'text', size: 28, 'data-field': 'run-search',
    placeholder: 'a piece of the question' });
  const status = h('select', { class: 'form-control input-sm', 'data-field': 'run-status' },
    [['', 'any end'], ['ANSWERED', 'answered'], ['REJECTED', 'rejected'], ['STOPPED', 'stopped']]
      .map(([value, label]) => h('option', { value }, label)));
  const found = h('div', { class: 'agentloop-eval-found' });
  const recent = h('input', { class: 'form-control input-sm', type: 'number', min: 0, value: 0, style: 'width: 80px',
    'data-field': 'recent' });
  async function search() {
    clear(found, h('span', { class: 'text-muted' }, 'Searching…'));
    try {
      const { items, total } = await client.searchRuns(agent, { finished: true, q: q.value.trim(),
        status: status.value, size: FOUND_RUNS });
      clear(found, items.length ? h('table', { class: 'table table-condensed' },
        h('tbody', {}, items.map(run => h('tr', { 'data-found-run': run.id },
          h('td', {}, h('input', { type: 'checkbox', 'data-pick-run': run.id, checked: chosen.has(run.id),
            onchange: event => event.target.checked ? chosen.add(run.id) : chosen.delete(run.id) })),
          h('td', {}, runLink(run.id)), h('td', { class: 'agentloop-question' }, run.question),
          h('td', {}, run.status), h('td', {}, time(run.createdAt)))))) :
        h('p', { class: 'text-muted' }, 'No finished run matches.'),
      total > items.length ? h('p', { class: 'text-muted' }, `${items.length} of ${total} shown: narrow the search.`)
        : null);
    } catch (e) {
      clear(found, notice('danger', e.message));
    }
  }
  const root = h('fieldset', {}, h('legend', {}, 'Recorded runs'),
    h('div', { class: 'form-inline agentloop-search' }, q, ' ', status, ' ',
      h('button', { class: 'btn btn-sm btn-default', type: 'button', 'data-action': 'search-runs', onclick: search },
        'Find runs')),
    found, h('label', { class: 'form-inline' }, 'and the agent\'s newest finished runs: ', recent));
  search();
  return { root, values: () => ({ runs: [...chosen], recent: recent.value }) };
}

/** The form; `onStart(values)` starts the evaluation and gives the problems in words (none: it started). */
export function evaluationForm(client, agent, versions, onStart, onCancel) {
  const candidate = candidatePart(versions);
  const runs = runsPart(client, agent);
  const dataSet = h('textarea', { class: 'form-control', rows: 3, 'data-field': 'data-set',
    placeholder: '[{"question": "What do apples cost?", "expect": {"contains": ["3 EUR"]}}]' });
  const rubric = h('input', { class: 'form-control input-sm', type: 'text', size: 60, 'data-field': 'judge-rubric',
    placeholder: 'optional: what a good answer is, for the judge (e.g. "names the same price")' });
  const reason = h('input', { class: 'form-control input-sm', type: 'text', size: 60, 'data-field': 'evaluation-reason',
    placeholder: 'why you evaluate this candidate (kept with the evaluation)' });
  const problems = h('div', { class: 'agentloop-form-problem' });
  const submit = h('button', { class: 'btn btn-sm btn-primary', type: 'submit', 'data-action': 'start-evaluation' },
    'Start the evaluation');
  const form = h('form', { class: 'agentloop-editor agentloop-eval-form' },
    h('h4', {}, `Evaluate a candidate of ${agent}`),
    h('p', { class: 'text-muted' }, 'The candidate runs on the recorded questions with the recorded tool results and'
      + ' review decisions; it does not go live, and no tool with side effects runs.'),
    candidate.root, runs.root,
    h('fieldset', {}, h('legend', {}, 'Data set (optional)'), dataSet),
    h('fieldset', {}, h('legend', {}, 'Judge and reason'), h('div', {}, rubric), h('div', {}, reason)),
    problems, submit, ' ',
    h('button', { class: 'btn btn-sm btn-link', type: 'button', onclick: onCancel }, 'Cancel'));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    clear(problems);
    submit.disabled = true;
    const found = await onStart({ ...candidate.values(), ...runs.values(), dataSet: dataSet.value,
      rubric: rubric.value, reason: reason.value });
    submit.disabled = false;
    found.forEach(problem => problems.append(notice('warning', problem)));
  });
  return form;
}
