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

/**
 * A drawer whose module is fetched when it is first opened (the page's first load does
 * not carry it). Until then it keeps what it is told (update, setLesson) and hands it to
 * the drawer it builds: make(root, button) → Promise<Drawer>.
 */
export class LazyDrawer {
  constructor(root, button, make) {
    this.root = root;
    this.button = button;
    this.make = make;
    this.drawer = null;
    this.loading = null;
    this.told = { state: undefined, lesson: undefined };
    this.onClick = () => this.open();
    button.addEventListener('click', this.onClick);
  }

  get isOpen() {
    return this.drawer?.isOpen ?? false;
  }

  /** The drawer itself (built on first call). */
  load() {
    this.loading ??= this.make(this.root, this.button).then((drawer) => {
      // the drawer listens to its button from now on
      this.button.removeEventListener('click', this.onClick);
      if (this.told.lesson !== undefined) drawer.setLesson?.(this.told.lesson);
      if (this.told.state !== undefined) drawer.update?.(this.told.state);
      this.drawer = drawer;
      return drawer;
    });
    return this.loading;
  }

  async open() {
    const drawer = await this.load();
    if (!drawer.isOpen) await drawer.open();
  }

  close() {
    this.drawer?.close();
  }

  update(state) {
    if (this.drawer) this.drawer.update(state);
    else this.told.state = state;
  }

  setLesson(id) {
    if (this.drawer) this.drawer.setLesson(id);
    else this.told.lesson = id;
  }
}
