// The CSV and PNG downloads: the CSV simulates the run again from t = 0 (the same bits;
// web/ui/export.js), the PNG is the whole view (bodies, plots, time, fingerprint).
import { seconds } from '../sim/format.js';
import { exactCSV, wholeViewPNG } from '../ui/export.js';
import { el, $ } from '../ui/dom.js';
import { t, registryText } from '../i18n/index.js';

function download(name, href) {
  const a = el('a', { href, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
}

/** The buttons; csvText() and pngURL() for the test hook. */
export function createDownloads({ lab, store, runner, view, plots, notices }) {
  const fileStem = () => {
    const st = store.get();
    return `vilab-${st.scenario.system}-${st.scenario.integrator}${st.compare ? '-vs-' + st.compare : ''}`;
  };

  /** The exact CSV of the run so far. */
  function csvText() {
    const a = runner.a;
    if (!a) return '';
    const tracks = [{ label: 'A', scenario: a.scenario, step: a.sim.step }];
    if (runner.b) tracks.push({ label: 'B', scenario: runner.b.scenario, step: runner.b.sim.step });
    return exactCSV(lab, tracks, { hash: a.sim.hash() });
  }

  function pngURL() {
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

  $('#csv').addEventListener('click', () => {
    const blob = new Blob([csvText()], { type: 'text/csv' });
    const url = URL.createObjectURL(blob);
    download(`${fileStem()}.csv`, url);
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    notices.status(t('main.csv.done'));
  });
  $('#png').addEventListener('click', () => {
    download(`${fileStem()}.png`, pngURL());
    notices.status(t('main.png.done'));
  });
  return { csvText, pngURL };
}
