// Tiny DOM helpers. Text always goes in through textContent: nothing that comes
// from a link, a registry or an error message is ever parsed as HTML.

/**
 * el('button', { class: 'x', type: 'button', onclick }, 'text', child, ...)
 * Attributes starting with "on" become listeners; `dataset`/`style` objects are merged.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value == null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key === 'style' && typeof value === 'object') Object.assign(node.style, value);
    else if (key === 'class') node.className = value;
    else if (key in node && typeof value !== 'string') node[key] = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replaces all children. */
export function setChildren(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

export const $ = (selector, root = document) => root.querySelector(selector);

let uid = 0;
export const uniqueId = (prefix = 'v') => `${prefix}-${++uid}`;
