// The CSV and PNG downloads: the CSV simulates the run again from t = 0 (the same bits;
// web/ui/export.js), the PNG is the whole view (bodies, plots, time, fingerprint). The
// exporters are a chunk of their own, fetched on the first download.
import { seconds } from '../sim/format.js';
import { el, $ } from '../ui/dom.js';
import { t, registryText } from '../i18n/index.js';

function download(name, href) {
  const a = el('a', { href, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
}

let exporters = null;
const loadExporters = () => (exporters ??= import('../ui/export.js'));

/** The buttons; csvText() and pngURL() (promises) for the test hook. */
export function createDownloads({ lab, store, runner, view, plots, notices }) {
  const fileStem = () => {
    const st = store.get();
    return `vilab-${st.scenario.system}-${st.scenario.integrator}${st.compare ? '-vs-' + st.compare : ''}`;
  };

  /** The exact CSV of the run so far (when the exporters are in). */
  async function csvText() {
    const { exactCSV } = await loadExporters();
    const a = runner.a;
    if (!a) return '';
    const tracks = [{ label: 'A', scenario: a.scenario, step: a.sim.step }];
    const b = runner.b;
    // a B from outside the registry (MuJoCo) runs again by its own source, named by its title
    const own = b && lab.integrator(b.integrator.id);
    if (b)
      tracks.push({
        label: 'B',
        scenario: b.scenario,
        step: b.sim.step,
        ...(own ? {} : { simulate: b.simulate, title: b.integrator.title }),
      });
    return exactCSV(lab, tracks, { hash: a.sim.hash() });
  }

  /** The PNG's data URL (when the exporters are in): drawn and read in one task. */
  async function pngURL() {
    const { wholeViewPNG } = await loadExporters();
    const a = runner.a;
    const st = store.get();
    const header = t('main.png.header', {
      system: registryText('system', lab.system(st.scenario.system), 'title'),
      t: seconds(a.sim.time),
      step: a.sim.step,
      hash: a.sim.hash(),
    });
    const legend = [...document.querySelectorAll('#legend li')].map((li) => li.textContent);
    const plotCards = [...document.querySelectorAll('#plots .plot-card')].map((fig) => ({
      title: fig.querySelector('.plot-title')?.textContent ?? '',
      values: fig.querySelector('.plot-values')?.textContent ?? '',
      canvas: fig.querySelector('.plot-host canvas'),
    }));
    plots.drawAll(runner.time);
    return wholeViewPNG({ view, legend, header, plotCards });
  }

  const failed = (e) => notices.banner('export', [t('main.exportFailed', { message: e?.message ?? String(e) })], { kind: 'warn' });
  $('#csv').addEventListener('click', async () => {
    const text = await csvText().catch(failed);
    if (text == null) return;
    const blob = new Blob([text], { type: 'text/csv' });
    const url = URL.createObjectURL(blob);
    download(`${fileStem()}.csv`, url);
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    notices.status(t('main.csv.done'));
  });
  $('#png').addEventListener('click', async () => {
    const url = await pngURL().catch(failed);
    if (url == null) return;
    download(`${fileStem()}.png`, url);
    notices.status(t('main.png.done'));
  });
  return { csvText, pngURL };
}
