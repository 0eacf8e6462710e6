// Redoing an earlier turn of a conversation from Cockpit: a reason and whether the later questions are
// asked again on the new branch (the caller's choice; offered checked, as keeping the conversation whole
// is what an operator redoing one answer usually wants). The step editor offers the same checkbox when
// the edited step lies in an earlier turn. Text nodes only (dom.js).
import { h } from './dom.js';

/** The checkbox "ask the later questions again", checked; `box.checked` is the choice. */
export function replayCheckbox(name) {
  const box = h('input', { type: 'checkbox', checked: true, 'data-field': name, id: `agentloop-${name}` });
  const field = h('div', { class: 'checkbox' }, h('label', { for: box.id }, box, ' ask the later questions again'),
    h('p', { class: 'help-block' }, 'Checked: the questions of the later turns are asked again on the new branch, in'
      + ' order. Unchecked: they stay only on the old branch.'));
  return { box, field };
}

/**
 * The form under turn `turn`: `onSubmit(replay, reason)` returns a promise (the form stays while it runs,
 * and shows the error if it fails), `onCancel()` closes it.
 */
export function turnRedoForm(turn, onSubmit, onCancel) {
  const reason = h('input', { class: 'form-control input-sm', type: 'text', 'data-field': 'redo-reason',
    placeholder: 'why this turn is redone (kept in the trace)' });
  const replay = replayCheckbox('redo-replay');
  const problem = h('div', { class: 'agentloop-form-problem' });
  const submit = h('button', { class: 'btn btn-sm btn-primary', type: 'submit', 'data-action': 'submit-redo' },
    `Redo turn ${turn}`);
  const form = h('form', { class: 'agentloop-redo', 'data-redo-form': turn },
    h('p', { class: 'help-block' }, `A new answer to turn ${turn}, on a new branch from the step before its answer;`
      + ' the old answer and the later turns stay stored on the old branch.'),
    reason, replay.field, problem,
    h('div', { class: 'agentloop-buttons' }, submit, ' ',
      h('button', { class: 'btn btn-sm btn-default', type: 'button', onclick: onCancel }, 'Cancel')));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    problem.replaceChildren();
    // a new answer is asked for with a reason, as everywhere (Tasklist's answer review, the run's Regenerate)
    if (!reason.value.trim()) {
      problem.append(h('div', { class: 'alert alert-warning', role: 'alert' }, 'Please give a reason: it is kept with'
        + ' the run.'));
      return;
    }
    submit.disabled = true;
    try {
      await onSubmit(replay.box.checked, reason.value.trim());
    } catch (e) {
      problem.append(h('div', { class: 'alert alert-danger', role: 'alert' }, e.message));
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
