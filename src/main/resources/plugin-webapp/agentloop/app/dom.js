// A few lines of DOM building. Text always goes in as text nodes, never as HTML: steps are written
// by models and tools, and must not be able to inject markup into Cockpit.

/** h('button', {class: 'btn', onclick: f, disabled: true}, 'Edit', ...) */
export function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) {
      continue;
    }
    if (name.startsWith('on')) {
      element.addEventListener(name.substring(2), value);
    } else if (name in element && typeof value !== 'string') {
      element[name] = value;
    } else {
      element.setAttribute(name, value === true ? '' : value);
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) {
      continue;
    }
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

export function time(instant) {
  return instant ? new Date(instant).toLocaleString() : '';
}

export function json(value) {
  return JSON.stringify(value, null, 2);
}

/** An alert the operator reads: `kind` is success, danger, warning or info. */
export function notice(kind, text) {
  return h('div', { class: `alert alert-${kind} agentloop-notice`, role: kind === 'danger' ? 'alert' : 'status' }, text);
}
