// Small screens: the Settings toggle and the measured heights the CSS lays out with.
// On a phone in portrait the panel docks above the controls bar and the scrolling page
// above it shrinks by the panel's height, so no layer ever covers another's controls;
// in landscape the toggle reveals the controls bar's speed and time-step fields.
const PHONE = '(max-width: 699px)';

/**
 * Keeps --topbar-h, --transport-h and --sheet-h (CSS px) on <html> up to date. The first
 * value comes from the observer's initial report, in the first frame's layout (measuring
 * here would force a layout of its own while the page starts).
 */
function measureInto(root, name, node, when = () => true) {
  const set = (height) => {
    const value = `${when() ? Math.ceil(height) : 0}px`;
    if (root.style.getPropertyValue(name) !== value) root.style.setProperty(name, value);
  };
  // The report carries the height: reading the node instead, after another observer's
  // write, made Chromium recompute the whole page's style per observer as the page starts
  // (forced style before the first frame: 18–44 ms in 7–8 recalculations, now 16–20 in 4–6).
  new ResizeObserver(([entry]) => set(entry.borderBoxSize?.[0]?.blockSize ?? node.getBoundingClientRect().height)).observe(node, {
    box: 'border-box',
  });
  return () => set(node.getBoundingClientRect().height);
}

// the top bar's buttons that small screens have no room for: they move into the sheet
const SMALL = '(max-width: 699px), (orientation: landscape) and (max-height: 520px)';
const DOCKED = ['#studies-button', '#embed-code', '#projector'];

/** On small screens Studies, Embed and Projector live at the top of the settings sheet (the same buttons, moved). */
function dockTools(tools, topbar) {
  const small = matchMedia(SMALL);
  const buttons = DOCKED.map((s) => topbar.querySelector(s)).filter(Boolean);
  const homes = buttons.map((b) => ({ parent: b.parentNode, next: b.nextSibling }));
  const place = () => {
    if (small.matches) tools.append(...buttons);
    else buttons.forEach((b, i) => homes[i].parent.insertBefore(b, homes[i].next?.parentNode === homes[i].parent ? homes[i].next : null));
  };
  small.addEventListener?.('change', place);
  place();
}

export function setupSheet({ toggle, panel, topbar, transport, tools = null, body = document.body }) {
  if (tools) dockTools(tools, topbar);
  const root = document.documentElement;
  const phone = matchMedia(PHONE);
  const isOpen = () => toggle.getAttribute('aria-expanded') === 'true';
  measureInto(root, '--topbar-h', topbar);
  measureInto(root, '--transport-h', transport);
  const writeSheet = measureInto(root, '--sheet-h', panel, () => isOpen() && phone.matches);

  function setOpen(open) {
    toggle.setAttribute('aria-expanded', String(open));
    body.classList.toggle('sheet-open', open);
    writeSheet();
  }
  toggle.addEventListener('click', () => setOpen(!isOpen()));
  phone.addEventListener?.('change', writeSheet);
  // Escape in the docked panel closes it and gives focus back to the toggle
  panel.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !phone.matches || !isOpen()) return;
    setOpen(false);
    toggle.focus();
  });
  // an opened section scrolls to the top of the docked panel: its fields come into reach
  for (const details of panel.querySelectorAll('details')) {
    details.addEventListener('toggle', () => {
      if (!details.open || !phone.matches || !isOpen()) return;
      const offset = details.getBoundingClientRect().top - panel.getBoundingClientRect().top;
      panel.scrollTo({ top: panel.scrollTop + offset - 4, behavior: 'instant' });
    });
  }
  return { setOpen, isOpen };
}
