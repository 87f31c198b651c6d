// Opening a MuJoCo model (MJCF) in the page: "Open a MuJoCo model…" (the settings panel) shows
// the dialog (web/ui/model-dialog.js, fetched when first needed) where the XML is pasted or a
// file chosen; an .xml file dropped anywhere on the page opens the same way. The full module is loaded first (the importer
// is in it), lab.importMjcf turns the XML into a `mechanism` scenario, and the run takes it
// as it takes any other scenario (run.setScenario: validated, then the document, so the
// link carries it). A refusal (the importer's, naming its line; a joint that does not
// close; a file too large or not XML) is shown in the dialog beside the text, and the run
// shown goes on untouched.
import { $ } from '../ui/dom.js';
import { loadLaterWords, t } from '../i18n/index.js';

/** The largest model the page reads (bytes): a model the importer can map is a few kilobytes. */
export const MAX_MODEL_BYTES = 1 << 20;

/** A refusal of the page's own, named as the importer's are (field mjcf), already in the reader's words (no code). */
const refusal = (message) => Object.assign(new Error(message), { field: 'mjcf' });
const kilobytes = (bytes) => Math.max(1, Math.round(bytes / 1024));
const tooLarge = (bytes) => refusal(t('model.tooLarge', { kb: kilobytes(bytes), max: kilobytes(MAX_MODEL_BYTES) }));
const isXmlFile = (file) => /\.(xml|mjcf)$/i.test(file.name) || /xml/.test(file.type);
const carriesFiles = (e) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
/** The words of what follows (English's later area; unreachable, t() falls back to the key). */
const words = () => loadLaterWords().catch(() => {});

/**
 * The button, its dialog and the page as a drop target. Returns { open(xml), readFile(file),
 * show(what) }: open → Promise<Error|null> (null: the run is the model now); readFile → the
 * file's text, or a rejection naming why not (not XML, too large: refused before reading).
 */
export function createModelOpening({ lab, run, notices }) {
  async function open(xml) {
    await words();
    const bytes = new Blob([xml]).size;
    if (bytes > MAX_MODEL_BYTES) return tooLarge(bytes);
    if (lab.build !== 'full') notices.status(t('main.loadingFull'));
    let imported;
    try {
      imported = await lab.withFull(() => lab.importMjcf(xml));
    } catch (e) {
      return e; // the importer's refusal names its line
    }
    const { about, ...scenario } = imported; // the model's name: words, not part of the run
    const err = run.setScenario(scenario, { cause: 'model' });
    if (err) return err;
    run.setPlaying(true);
    notices.dismiss('model');
    const { bodies, joints } = scenario.params;
    notices.status(t('model.opened', { name: about?.title ?? '', bodies: bodies.length, joints: joints.length }));
    return null;
  }

  async function readFile(file) {
    await words();
    if (!isXmlFile(file)) throw refusal(t('model.notXml', { name: file.name }));
    if (file.size > MAX_MODEL_BYTES) throw tooLarge(file.size);
    return file.text();
  }

  let dialog = null; // the promise of the dialog, made when first needed
  const dialogOf = () =>
    (dialog ??= import('../ui/model-dialog.js').then(
      ({ ModelDialog }) => new ModelDialog($('#open-model'), { open, readFile }),
      (e) => {
        dialog = null; // a later try fetches it again
        throw e;
      },
    ));
  /** The dialog shown, with a text and an error when given. */
  const show = (what) =>
    Promise.all([dialogOf(), loadLaterWords()]).then(
      ([d]) => d.show(what),
      (e) => notices.banner('model', [t('main.fullFailed', { message: String(e?.message ?? e) })]),
    );

  /** A dropped file: opened at once; refused, it is shown in the dialog with the reason. */
  async function dropped(file) {
    const shown = await dialog?.catch(() => null);
    if (shown?.isOpen) return shown.openFile(file);
    let xml = '';
    try {
      xml = await readFile(file);
    } catch (error) {
      return show({ error });
    }
    const error = await open(xml);
    if (error) return show({ text: xml, error });
  }

  $('#open-model').addEventListener('click', () => show());
  // a file dragged over the page may be dropped on it (the browser would open it in the tab)
  document.addEventListener('dragover', (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  });
  document.addEventListener('drop', (e) => {
    const file = e.dataTransfer?.files?.[0];
    if (!file) return;
    e.preventDefault();
    dropped(file);
  });
  return { open, readFile, show };
}
