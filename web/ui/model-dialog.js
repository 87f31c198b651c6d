// The "Open a MuJoCo model" dialog: MJCF text pasted (or a file chosen, or dropped on the
// page), Open (or Ctrl+Enter) hands it to the page (web/page/model.js), and a refusal is
// shown under the text, the line it names selected in it; the run shown goes on untouched.
import { el, setChildren } from './dom.js';
import { t } from '../i18n/index.js';
import { apiErrorText } from './api-error.js';

/** The 1-based line an importer's error names (field "mjcf line 12"), or null. */
export function lineOf(error) {
  const m = String(error?.field ?? '').match(/\bline (\d+)$/);
  return m ? Number(m[1]) : null;
}

/** The [start, end) offsets of a 1-based line of text (clamped to the text). */
export function lineRange(text, line) {
  let start = 0;
  for (let i = 1; i < line; i++) {
    const next = text.indexOf('\n', start);
    if (next < 0) return [text.length, text.length];
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  return [start, end < 0 ? text.length : end];
}

export class ModelDialog {
  /** button: what opened it (focus returns there); actions { open(xml) → Promise<Error|null>, readFile(file) → Promise<string> }. */
  constructor(button, { open, readFile }) {
    Object.assign(this, { button, actions: { open, readFile } });
    this.busy = false;
    this.dialog = el('dialog', { class: 'model-dialog', id: 'model-dialog', 'aria-labelledby': 'model-dialog-title' });
    document.body.append(this.dialog);
    this.dialog.addEventListener('close', () => button.focus());
    this.text = el('textarea', {
      id: 'model-text',
      rows: 12,
      spellcheck: 'false',
      autocomplete: 'off',
      'aria-describedby': 'model-help model-problem',
      onkeydown: (e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          this.submit();
        }
      },
      oninput: () => this.#setError(null),
    });
    this.file = el('input', {
      type: 'file',
      id: 'model-file',
      accept: '.xml,.mjcf,text/xml,application/xml',
      onchange: () => {
        const file = this.file.files?.[0];
        this.file.value = '';
        if (file) this.openFile(file);
      },
    });
    this.problem = el('p', { class: 'model-problem', id: 'model-problem', role: 'alert' });
    this.openButton = el('button', { type: 'button', class: 'btn primary', id: 'model-open', onclick: () => this.submit() });
  }

  get isOpen() {
    return this.dialog.open;
  }

  /** Shows the dialog (its words in the language shown), with a text and an error when given. */
  show({ text, error } = {}) {
    setChildren(
      this.dialog,
      el('h2', { id: 'model-dialog-title' }, t('model.title')),
      el('p', { class: 'hint', id: 'model-help' }, t('model.intro')),
      el('label', { for: 'model-text' }, t('model.text')),
      this.text,
      this.problem,
      el('label', { class: 'field-row', for: 'model-file' }, t('model.file'), this.file),
      el(
        'div',
        { class: 'dialog-actions' },
        this.openButton,
        el('button', { type: 'button', class: 'btn', onclick: () => this.dialog.close() }, t('model.close')),
      ),
    );
    this.text.placeholder = t('model.placeholder');
    this.openButton.textContent = t('model.open');
    if (text !== undefined) this.text.value = text;
    this.#setError(error ?? null);
    if (!this.dialog.open) this.dialog.showModal();
    this.text.focus();
    if (error) this.#selectLine(error);
  }

  /** A file chosen or dropped: its text in the box, then opened. */
  async openFile(file) {
    try {
      this.text.value = await this.actions.readFile(file);
    } catch (error) {
      return this.#setError(error);
    }
    return this.submit();
  }

  /** Opens the text as the run's model; refused, the reason stays beside the text. */
  async submit() {
    if (this.busy) return;
    const xml = this.text.value;
    if (!xml.trim()) return this.#setError({ message: t('model.empty') });
    this.busy = true;
    this.openButton.disabled = true;
    this.openButton.textContent = t('model.opening');
    try {
      const error = await this.actions.open(xml);
      this.#setError(error);
      if (error) this.#selectLine(error);
      else this.dialog.close();
    } finally {
      this.busy = false;
      this.openButton.disabled = false;
      this.openButton.textContent = t('model.open');
    }
  }

  #setError(error) {
    this.problem.textContent = error ? apiErrorText(error) : '';
    if (error) this.text.setAttribute('aria-invalid', 'true');
    else this.text.removeAttribute('aria-invalid');
  }

  /** The line the error names, selected in the text (and scrolled to). */
  #selectLine(error) {
    const line = lineOf(error);
    if (!line) return;
    const [start, end] = lineRange(this.text.value, line);
    this.text.focus();
    this.text.setSelectionRange(start, end);
  }
}
