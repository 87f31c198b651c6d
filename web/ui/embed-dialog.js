// The "Copy embed code" dialog (web/page/embed.js fetches it when its button is first
// pressed, and opens it on every press).
import { el, setChildren } from './dom.js';
import { t } from '../i18n/index.js';
import { embedCode, parseEmbedKeys } from '../state/messages.js';

/**
 * The "Copy embed code" dialog: the iframe code for the current run, with choices to
 * open paused, hide the menus and name the host page allowed to control it.
 * shareURL(): the page's link for the current run; title(): the run's title.
 */
export class EmbedDialog {
  constructor(button, { shareURL, title, status }) {
    this.shareURL = shareURL;
    this.title = title;
    this.status = status;
    this.button = button;
    this.dialog = el('dialog', { class: 'embed-dialog', id: 'embed-dialog', 'aria-labelledby': 'embed-dialog-title' });
    document.body.append(this.dialog);
    this.dialog.addEventListener('close', () => button.focus());
  }

  open() {
    const paused = el('input', { type: 'checkbox', id: 'embed-paused', checked: true });
    const bare = el('input', { type: 'checkbox', id: 'embed-bare' });
    const predict = el('input', { type: 'checkbox', id: 'embed-predict' });
    const origin = el('input', {
      type: 'url',
      id: 'embed-origin',
      placeholder: 'https://course.example.org',
      autocomplete: 'off',
      spellcheck: 'false',
      'aria-describedby': 'embed-origin-help',
    });
    const problem = el('p', { class: 'embed-problem', id: 'embed-problem', role: 'alert' });
    const code = el('textarea', { id: 'embed-text', readonly: true, rows: 4, 'aria-label': t('embed.code.label') });
    const copy = el('button', { type: 'button', class: 'btn primary', id: 'embed-copy' }, t('embed.copy'));
    const update = () => {
      problem.textContent = '';
      const text = origin.value.trim();
      let origins = [];
      if (text) {
        try {
          origins = parseEmbedKeys(`?origin=${encodeURIComponent(text.replace(/\/$/, ''))}`).origins;
        } catch (e) {
          problem.textContent = t('embed.origin.bad', { problem: e.problem });
        }
      }
      const choices = { paused: paused.checked, chrome: !bare.checked, predict: predict.checked, origins };
      code.value = embedCode(this.shareURL(), { title: this.title(), ...choices });
    };
    for (const input of [paused, bare, predict, origin]) input.addEventListener('input', update);
    copy.addEventListener('click', async () => {
      let copied = false;
      try {
        await navigator.clipboard.writeText(code.value);
        copied = true;
      } catch {
        code.select();
      }
      this.status(t(copied ? 'embed.copied' : 'embed.selectCopy'));
      copy.textContent = t(copied ? 'embed.copiedButton' : 'embed.copy');
    });
    setChildren(
      this.dialog,
      el('h2', { id: 'embed-dialog-title' }, t('embed.title')),
      el('p', {}, t('embed.intro')),
      code,
      el('label', { class: 'check-row', for: 'embed-paused' }, paused, ' ', t('embed.paused')),
      el('label', { class: 'check-row', for: 'embed-bare' }, bare, ' ', t('embed.bare')),
      el('label', { class: 'check-row', for: 'embed-predict' }, predict, ' ', t('activity.embed')),
      el('label', { class: 'field-row', for: 'embed-origin' }, t('embed.origin'), origin),
      el('p', { class: 'hint', id: 'embed-origin-help' }, t('embed.origin.help')),
      problem,
      el(
        'div',
        { class: 'dialog-actions' },
        copy,
        el('button', { type: 'button', class: 'btn', onclick: () => this.dialog.close() }, t('embed.close')),
      ),
    );
    update();
    this.dialog.showModal();
    code.focus();
    code.select();
  }
}
