// A run's step tree as a picture (SVG): the active path straight down on the left, each superseded
// branch in a column beside the step it branched from, an arrow from an edited step to the step
// that replaced it, and under the picture each edit as old → new with its author and reason.
// Built with createElementNS and text nodes only, like dom.js: step texts never become markup.
import { h } from './dom.js';
import { layout, summary } from './tree-layout.js';
import { kindLabel } from './words.js';

export { layout, summary };

const SVG = 'http://www.w3.org/2000/svg';
const BOX_W = 170;
const BOX_H = 26;
const COL_W = 210;
const ROW_H = 36;
const PAD = 8;

function svg(tag, attributes, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (name.startsWith('on')) {
      element.addEventListener(name.substring(2), value);
    } else if (value !== undefined && value !== null) {
      element.setAttribute(name, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) {
      element.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return element;
}

/** The picture; `onSelect(step)` is called when a step is clicked. */
export function stepTree(active, all, onSelect) {
  const steps = all && all.length ? all : active;
  const place = layout(active, steps);
  const cols = Math.max(...[...place.values()].map(p => p.col)) + 1;
  const rows = Math.max(...[...place.values()].map(p => p.row)) + 1;
  const x = p => PAD + p.col * COL_W;
  const y = p => PAD + p.row * ROW_H;
  const edges = [];
  const nodes = [];
  for (const step of steps) {
    const at = place.get(step.id);
    const parent = step.parent !== null && step.parent !== undefined ? place.get(step.parent) : null;
    if (parent) {
      const sameCol = parent.col === at.col;
      edges.push(svg('path', {
        class: `agentloop-tree-edge${step.status === 'SUPERSEDED' ? ' agentloop-tree-edge-superseded' : ''}`,
        d: sameCol
          ? `M${x(parent) + BOX_W / 2},${y(parent) + BOX_H} L${x(at) + BOX_W / 2},${y(at)}`
          : `M${x(parent) + BOX_W},${y(parent) + BOX_H / 2} C${x(at) - 20},${y(parent) + BOX_H / 2} ${x(at) - 30},${y(at) + BOX_H / 2} ${x(at)},${y(at) + BOX_H / 2}`
      }));
    }
    if (step.supersedes !== null && step.supersedes !== undefined && place.has(step.supersedes)) {
      const old = place.get(step.supersedes);
      edges.push(svg('path', {
        class: 'agentloop-tree-edit',
        d: `M${x(old)},${y(old) + BOX_H / 2} L${x(at) + BOX_W},${y(at) + BOX_H / 2}`,
        'marker-end': 'url(#agentloop-arrow)'
      }, svg('title', {}, `#${step.supersedes} was replaced by #${step.id}`)));
    }
    nodes.push(svg('g', {
      class: `agentloop-tree-node agentloop-tree-${step.kind.toLowerCase()}${step.status === 'SUPERSEDED' ? ' agentloop-tree-superseded' : ''}`,
      'data-node': step.id, 'data-col': at.col, 'data-row': at.row, 'data-status': step.status,
      transform: `translate(${x(at)},${y(at)})`, tabindex: 0, role: 'button',
      onclick: () => onSelect && onSelect(step),
      onkeydown: event => { if (event.key === 'Enter' && onSelect) { onSelect(step); } }
    },
    svg('title', {}, `#${step.id} ${kindLabel(step.kind)} by ${step.author}: ${summary(step, 200)}`),
    svg('rect', { width: BOX_W, height: BOX_H, rx: 4 }),
    svg('text', { x: 8, y: 17 }, `#${step.id} ${kindLabel(step.kind)}`, svg('tspan', { class: 'agentloop-tree-snippet', dx: 6 },
      summary(step, 14)))));
  }
  const width = PAD * 2 + (cols - 1) * COL_W + BOX_W;
  const height = PAD * 2 + (rows - 1) * ROW_H + BOX_H;
  return svg('svg', { class: 'agentloop-tree', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img',
    'aria-label': `Step tree: ${active.length} steps on the active path, ${steps.length - active.length} superseded` },
  svg('defs', {}, svg('marker', { id: 'agentloop-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7,
    markerHeight: 7, orient: 'auto-start-reverse' }, svg('path', { d: 'M0,0 L10,5 L0,10 z' }))),
  edges, nodes);
}

/** Each edit of the run: the old step → the new one, who and why. */
export function edits(all) {
  const byId = new Map(all.map(step => [step.id, step]));
  const edited = all.filter(step => step.supersedes !== null && step.supersedes !== undefined && byId.has(step.supersedes));
  return edited.length ? h('ul', { class: 'agentloop-edits' }, edited.map(step => {
    const old = byId.get(step.supersedes);
    return h('li', { 'data-edit': step.id },
      h('strong', {}, `#${old.id} → #${step.id}`), ` ${kindLabel(step.kind)}, by ${step.author}`,
      step.reason ? `: “${step.reason}”` : '',
      h('div', { class: 'agentloop-diff' },
        h('del', { class: 'agentloop-diff-old' }, summary(old, 300)),
        h('span', {}, ' → '),
        h('ins', { class: 'agentloop-diff-new' }, summary(step, 300))));
  })) : null;
}
