// Banners under the top bar (errors: role=alert; on phones they float above the
// controls bar instead of pushing the view down, see styles.css) and the polite
// status live region. All text is set with textContent; callers pass t() strings.
import { el } from './dom.js';
import { t } from '../i18n/index.js';

export class Notices {
  constructor(bannerHost, statusEl) {
    this.host = bannerHost;
    this.statusEl = statusEl;
    this.byKey = new Map();
  }

  /**
   * Shows a dismissible banner. parts: array of strings or {code: text} pieces.
   * kind: 'error' | 'warn' | 'info'. actions: [{label, onClick}]. data: extra data-*
   * attributes (e.g. { code } of a refused step). Returns the node.
   */
  banner(key, parts, { kind = 'error', actions = [], data = {} } = {}) {
    this.dismiss(key);
    const text = el('p', { class: 'banner-text' });
    for (const p of parts) text.append(typeof p === 'string' ? document.createTextNode(p) : el('code', {}, p.code));
    const buttons = actions.map((a) => el('button', { type: 'button', class: 'btn small', onclick: () => a.onClick() }, a.label));
    const close = el(
      'button',
      { type: 'button', class: 'btn small ghost', 'aria-label': t('page.banner.dismissLabel'), onclick: () => this.dismiss(key) },
      t('page.banner.dismiss'),
    );
    const node = el(
      'div',
      { class: `banner ${kind}`, role: kind === 'error' ? 'alert' : 'status', dataset: { ...data, key } },
      text,
      el('div', { class: 'banner-actions' }, buttons, close),
    );
    this.host.append(node);
    this.byKey.set(key, node);
    return node;
  }

  dismiss(key) {
    const node = this.byKey.get(key);
    if (node) {
      node.remove();
      this.byKey.delete(key);
    }
  }

  has(key) {
    return this.byKey.has(key);
  }

  /** Announces a short status (polite). */
  status(text) {
    // re-set so a repeated message is announced again
    this.statusEl.textContent = '';
    requestAnimationFrame(() => (this.statusEl.textContent = text));
    this.statusEl.dataset.last = text;
  }
}
