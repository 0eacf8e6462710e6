// Process definition view → tab "Agent versions": the agent's versions with their open and all runs, and
// "move waiting runs to version n": first what would happen to each run (a dry run), then, with a reason, the
// move itself, whose progress shows until every run has moved or stays. Runs busy in a model or tool call stay,
// or move when they next wait, as the operator chooses.
import { cockpitTab } from './cockpit-tab.js';
import { clear, h, notice, time } from './dom.js';
import { migrationSummary, outcomeLabel, sourceVersions } from './migration-words.js';
import { runLink } from './runs-tab.js';

const POLL_MILLIS = 2000;
const SHOWN_RUNS = 100;

function versionTable(versions) {
  return h('table', { class: 'table agentloop-version-table' },
    h('thead', {}, h('tr', {}, ['Version', 'Deployed', 'Open runs', 'All runs', ''].map(label => h('th', {}, label)))),
    h('tbody', {}, versions.map(version => h('tr', { 'data-version': version.version },
      h('td', {}, String(version.version), version.versionTag ? ` (${version.versionTag})` : ''),
      h('td', {}, time(version.deployedAt)),
      h('td', { 'data-open-runs': version.version }, String(version.openRuns)),
      h('td', {}, String(version.runs)),
      h('td', {}, version.latest ? h('span', { class: 'label label-info' }, 'new runs start here') : '')))));
}

function select(name, options, selected) {
  return h('select', { class: 'form-control input-sm', 'data-field': name, name },
    options.map(([value, label]) => h('option', { value, selected: String(value) === String(selected) }, label)));
}

function runRows(report) {
  const shown = report.runs.slice(0, SHOWN_RUNS);
  return [h('table', { class: 'table table-condensed agentloop-migration-runs' },
    h('thead', {}, h('tr', {}, ['Run', 'From version', 'Outcome', 'Why'].map(label => h('th', {}, label)))),
    h('tbody', {}, shown.map(run => h('tr', { 'data-migration-run': run.runId, 'data-outcome': run.outcome },
      h('td', {}, runLink(run.runId)),
      h('td', {}, run.fromVersion === null || run.fromVersion === undefined ? '' : String(run.fromVersion)),
      h('td', {}, outcomeLabel(run.outcome, report.dryRun)),
      h('td', { class: 'agentloop-migration-detail' }, run.detail))))),
  report.runs.length > SHOWN_RUNS ? h('p', { class: 'text-muted' }, `… and ${report.runs.length - SHOWN_RUNS} more.`)
    : null];
}

class VersionsTab {
  constructor(node, client, definitionId) {
    this.client = client;
    this.definitionId = definitionId;
    this.body = h('div', {}, h('p', { class: 'text-muted' }, 'Loading the versions…'));
    this.result = h('div', { class: 'agentloop-migration' });
    this.root = h('div', { class: 'agentloop agentloop-versions' }, this.body, this.result);
    node.append(this.root);
    this.load();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  async load() {
    try {
      this.agent = this.agent || (await this.client.processDefinition(this.definitionId)).key;
      this.versions = await this.client.versions(this.agent);
      this.draw();
    } catch (e) {
      clear(this.body, notice(e.status === 400 && !this.versions ? 'info' : 'danger',
        e.status === 400 && !this.versions ? 'This process is not an AgentLoop agent.' : e.message));
    }
  }

  draw() {
    const latest = this.versions[this.versions.length - 1].version;
    const sources = sourceVersions(this.versions, latest);
    const from = select('from-version', sources.map(v => [v.version, `version ${v.version} (${v.openRuns} open)`]));
    const to = select('to-version', this.versions.map(v => [v.version, `version ${v.version}`]), latest);
    const busy = h('input', { type: 'checkbox', 'data-field': 'move-when-waiting' });
    const check = h('button', { class: 'btn btn-sm btn-default', type: 'submit', 'data-action': 'dry-run',
      disabled: sources.length === 0 }, 'Check what would happen');
    const form = h('form', { class: 'form-inline agentloop-migration-form' },
      h('label', {}, 'Move waiting runs of ', from), ' ', h('label', {}, ' to ', to), ' ',
      h('label', { class: 'checkbox-inline' }, busy, ' runs in a model or tool call move when they next wait'), ' ',
      check);
    form.addEventListener('submit', event => {
      event.preventDefault();
      this.dryRun({ fromVersion: Number(from.value), toVersion: Number(to.value),
        whenBusy: busy.checked ? 'moveWhenWaiting' : 'refuse' });
    });
    clear(this.body, h('h4', {}, `Versions of ${this.agent}`), versionTable(this.versions),
      sources.length ? form : h('p', { class: 'text-muted', 'data-no-runs-to-move': '' },
        'No older version has open runs: there is nothing to move.'));
  }

  async dryRun(choice) {
    clear(this.result, h('p', { class: 'text-muted' }, 'Checking each run…'));
    try {
      const report = await this.client.migrate(this.agent, { ...choice, dryRun: true });
      this.showDryRun(choice, report);
    } catch (e) {
      clear(this.result, notice('danger', e.message));
    }
  }

  showDryRun(choice, report) {
    const moving = report.migrated + report.pending;
    const reason = h('input', { class: 'form-control input-sm', type: 'text', size: 48, 'data-field': 'migration-reason',
      placeholder: 'why the runs move (kept with each run)' });
    const problem = h('div', { class: 'agentloop-form-problem' });
    const move = h('button', { class: 'btn btn-sm btn-primary', type: 'submit', 'data-action': 'migrate',
      disabled: moving === 0 }, `Move ${moving} run${moving === 1 ? '' : 's'} to version ${choice.toVersion}`);
    const form = h('form', { class: 'form-inline agentloop-action' }, reason, ' ', move);
    form.addEventListener('submit', async event => {
      event.preventDefault();
      clear(problem);
      if (!reason.value.trim()) {
        problem.append(h('div', { class: 'alert alert-warning', role: 'alert' },
          'Please give a reason: it is kept with every run that moves.'));
        return;
      }
      move.disabled = true;
      try {
        this.follow(await this.client.migrate(this.agent, { ...choice, reason: reason.value.trim() }));
      } catch (e) {
        move.disabled = false;
        problem.append(h('div', { class: 'alert alert-danger', role: 'alert' }, e.message));
      }
    });
    clear(this.result, h('h4', {}, 'What would happen (nothing has moved yet)'),
      h('p', { 'data-dry-run-summary': '' }, migrationSummary(report)), runRows(report), moving ? form : null, problem);
    // the tab sits below the diagram: the result is what the person asked for, so bring it into view
    this.result.scrollIntoView({ block: 'start', behavior: 'auto' });
  }

  /** Shows how the migration stands, again every few seconds while runs are left to move. */
  follow(report) {
    clear(this.result, h('h4', {}, `Moving runs to version ${report.toVersion}`),
      h('p', { 'data-migration-summary': report.migrationId, 'data-done': String(report.done) },
        migrationSummary(report)),
      report.batchId ? h('p', { class: 'text-muted' }, `A Camunda batch moves them (${report.batchId}): live work`
        + ' goes on meanwhile.') : null,
      runRows(report));
    // runs that wait to move are not followed here: they move when they wait, maybe days later
    const settled = report.migrated + report.refused + report.pending === report.total;
    if (report.done || settled || this.stopped) {
      this.load();
      return;
    }
    this.timer = setTimeout(async () => {
      try {
        this.follow(await this.client.migration(this.agent, report.migrationId));
      } catch (e) {
        this.result.append(notice('danger', e.message));
      }
    }, POLL_MILLIS);
  }
}

export default cockpitTab({
  id: 'agentloop.processDefinition.versions',
  pluginPoint: 'cockpit.processDefinition.runtime.tab',
  // after "Agent runs"
  priority: 4,
  label: 'Agent versions',
  open: (node, client, id) => new VersionsTab(node, client, id)
});
