// A side drawer (Explain, Studies): its button toggles it, Close and Escape shut it,
// focus moves to its heading and back to the button, and it re-renders on a language
// change while open. Subclasses implement render() (may be async).
import { onLanguageChange } from '../i18n/index.js';

export class Drawer {
  constructor(root, button) {
    this.root = root;
    this.button = button;
    this.body = root.querySelector('.drawer-body');
    root.querySelector('.drawer-close').addEventListener('click', () => this.close());
    root.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        this.close();
      }
    });
    button.addEventListener('click', () => (this.isOpen ? this.close() : this.open()));
    onLanguageChange(() => this.isOpen && this.render());
  }

  get isOpen() {
    return !this.root.hidden;
  }

  async open() {
    this.root.hidden = false;
    this.button.setAttribute('aria-expanded', 'true');
    document.body.classList.add('drawer-open');
    await this.render();
    this.root.querySelector('h2')?.focus();
  }

  close() {
    this.root.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
    document.body.classList.remove('drawer-open');
    this.button.focus();
  }

  render() {}
}
