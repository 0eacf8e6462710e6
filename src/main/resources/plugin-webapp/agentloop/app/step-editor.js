// The form that edits one step: fields by kind (text, tool and arguments, result, plan lines),
// a reason, and submit. `read()` gives the new content in the step's own shape, or throws an
// Error whose message tells the operator what to fix.
import { h, json } from './dom.js';
import { jsonObject, planSteps, required } from './edit-text.js';
import { replayCheckbox } from './turn-redo.js';
import { kindLabel } from './words.js';

function field(label, name, input, hint) {
  input.setAttribute('data-field', name);
  input.id = `agentloop-${name}`;
  return h('div', { class: 'form-group' },
    h('label', { for: input.id }, label), input, hint && h('p', { class: 'help-block' }, hint));
}

const textarea = (value, rows) => h('textarea', { class: 'form-control', rows: String(rows || 4) }, value ?? '');

function textEditor(content) {
  const text = textarea(content.text, 5);
  return {
    fields: [field('Text', 'text', text)],
    read: () => ({ text: required(text.value, 'the text') })
  };
}

function planEditor(content) {
  const lines = textarea((content.steps || []).join('\n'), 5);
  return {
    fields: [field('Plan', 'plan', lines, 'One step per line.')],
    read: () => ({ steps: planSteps(lines.value) })
  };
}

function actionEditor(content) {
  const tool = h('input', { class: 'form-control', type: 'text', value: content.tool ?? '' });
  const args = textarea(json(content.arguments ?? {}), 6);
  return {
    fields: [field('Tool', 'tool', tool), field('Arguments (JSON)', 'arguments', args)],
    read: () => ({ callId: content.callId, tool: required(tool.value, 'the tool'), arguments: jsonObject(args.value) })
  };
}

function observationEditor(content) {
  const failed = 'error' in content;
  const outcome = h('select', { class: 'form-control' },
    h('option', { value: 'result', selected: !failed }, 'the tool returned a result'),
    h('option', { value: 'error', selected: failed }, 'the tool failed with an error'));
  const value = failed ? content.error : content.result;
  const text = textarea(typeof value === 'string' ? value : json(value), 5);
  return {
    fields: [field('Outcome', 'outcome', outcome), field('Result or error text', 'result', text)],
    read: () => ({ callId: content.callId, tool: content.tool, [outcome.value]: text.value })
  };
}

function jsonEditor(content) {
  const text = textarea(json(content), 8);
  return {
    fields: [field('Content (JSON)', 'content', text)],
    read: () => jsonObject(text.value, 'The content')
  };
}

const EDITORS = {
  THOUGHT: textEditor, HUMAN_INPUT: textEditor, FINAL_ANSWER: textEditor,
  PLAN: planEditor, ACTION: actionEditor, OBSERVATION: observationEditor
};

/**
 * A form for the step; `onSubmit(content, reason, replayLaterTurns)` returns a promise (the form stays
 * while it runs), `onCancel()` closes it. `laterTurns` true (the step lies in an earlier turn of a
 * conversation) offers "ask the later questions again"; otherwise `replayLaterTurns` is undefined.
 */
export function stepEditor(step, onSubmit, onCancel, laterTurns) {
  const editor = (EDITORS[step.kind] || jsonEditor)(step.content || {});
  const reason = h('input', { class: 'form-control', type: 'text', placeholder: 'why the step changes (kept in the trace)' });
  const problem = h('div', { class: 'agentloop-form-problem' });
  const replay = laterTurns ? replayCheckbox('edit-replay') : null;
  const submit = h('button', { class: 'btn btn-primary', type: 'submit', 'data-action': 'submit-edit' }, 'Save and resume');
  const form = h('form', { class: 'agentloop-editor', 'data-editor': step.id },
    h('h4', {}, `Edit #${step.id} (${kindLabel(step.kind)})`),
    h('p', { class: 'help-block' },
      'The edited step replaces this one; the steps after it are kept as a superseded branch, and the run continues from the edited step.'),
    editor.fields,
    field('Reason', 'reason', reason),
    replay && replay.field,
    problem,
    h('div', { class: 'agentloop-buttons' },
      submit, ' ',
      h('button', { class: 'btn btn-default', type: 'button', onclick: onCancel }, 'Cancel')));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    problem.replaceChildren();
    let content;
    try {
      content = editor.read();
      required(reason.value, 'a reason');
    } catch (e) {
      problem.append(h('div', { class: 'alert alert-warning', role: 'alert' }, e.message));
      return;
    }
    submit.disabled = true;
    try {
      await onSubmit(content, reason.value.trim(), replay ? replay.box.checked : undefined);
    } catch (e) {
      problem.append(h('div', { class: 'alert alert-danger', role: 'alert' }, e.message,
        e.status === 409 ? ' (Cancel shows the run as it is now.)' : null));
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
