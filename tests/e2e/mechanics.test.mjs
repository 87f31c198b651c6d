// The editor shows the mechanics of the typed L: the momenta, the mass matrix, the
// Euler–Lagrange and discrete Euler–Lagrange equations typeset from lab.equations (the
// core's derivative graph), following the typed L and the chosen rule; Copy LaTeX
// copies the whole block.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, sleep } from './helpers.mjs';

const browser = useBrowser();
const hook = (page, fn, arg) => page.evaluate(fn, arg);

/** The TeX of every typeset equation in the mechanics panel (KaTeX keeps it in its MathML). */
const shownTex = (page) =>
  hook(page, () =>
    Array.from(document.querySelectorAll('#definition .mechanics annotation[encoding="application/x-tex"]'), (a) => a.textContent.trim()),
  );

async function waitForTex(page, predicate, what) {
  for (let i = 0; i < 100; i++) {
    const tex = await shownTex(page);
    if (predicate(tex)) return tex;
    await sleep(100);
  }
  assert.fail(`the mechanics never showed ${what}: ${JSON.stringify(await shownTex(page))}`);
}

test('the editor shows p, M, the EL and DEL equations of the typed L, and copies them as LaTeX', async (t) => {
  const { page, errors } = await openPage(browser.context, '', { reducedMotion: 'reduce' });
  const id = await hook(page, () => window.vilabPage.lab.systems.find((s) => s.definition)?.id ?? null);
  if (!id) return t.skip('this build has no system defined by data');
  await page.selectOption('#system', id);
  await page.locator('#definition-section').waitFor({ state: 'visible' });
  const L = "m/2*(r'^2 + r^2*th'^2) + m*g*r*cos(th)";
  await page.locator('#definition [data-key="coordinates"]').fill('r, th');
  await page.locator('#definition [data-key="lagrangian"]').fill(L);
  // the panel is closed until opened (its equations are computed then)
  assert.equal(await page.locator('#definition .mechanics').getAttribute('open'), null);
  await page.locator('#definition .mechanics > summary').click();
  const expected = await hook(
    page,
    async (lagrangian) => {
      const lab = window.vilabPage.lab;
      // the editor's constants (the applied definition's), with the typed L
      const { constants } = window.vilabPage.state().scenario.params;
      const params = { coordinates: ['r', 'th'], constants, lagrangian };
      return lab.withFull(() => lab.equations(params, { rule: 'midpoint' }));
    },
    L,
  );
  assert.equal(expected.momenta[0].latex, 'p_{r} = m \\dot{r}');
  // the momenta, the mass matrix and the EL equations of this L, as the API gives them
  // (p_r is the default L's too: wait for the typed L's Euler–Lagrange equations)
  const tex = await waitForTex(page, (x) => expected.eulerLagrange.every((e) => x.includes(e.latex)), 'the typed L');
  for (const e of [...expected.momenta, ...expected.eulerLagrange]) assert.ok(tex.includes(e.latex), `shown: ${e.latex}`);
  assert.ok(tex.includes(expected.massLatex), 'the mass matrix');
  assert.ok(
    tex.some((x) => /\\ddot\{r\}/.test(x) && /\\dot\{\\theta\}\^\{2\}/.test(x)),
    'the radial EL equation has r̈ and the centripetal θ̇²',
  );
  assert.ok(
    tex.some((x) => x.includes('r_{k+1}') && x.includes('r_{k-1}')),
    'the DEL equations link q_{k−1}, q_k, q_{k+1}',
  );
  // another rule: the discrete equations change, the continuous ones stay
  const midpoint = tex.filter((x) => x.includes('_{k+1}'));
  await page.selectOption('#definition .mech-rule', 'trapezoid');
  const trap = await waitForTex(page, (x) => x.some((s) => s.includes('_{k+1}') && !midpoint.includes(s)), 'the trapezoid rule');
  for (const e of expected.eulerLagrange) assert.ok(trap.includes(e.latex), 'the EL equations stay');
  assert.match(await page.locator('#definition .mechanics').innerText(), /trapezoid rule/i);
  // Copy LaTeX: the whole block, through the clipboard API
  await hook(page, () => {
    window.copiedText = null;
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text) => void (window.copiedText = text) },
    });
  });
  await page.click('#definition .mech-copy');
  await sleep(100);
  const copied = await hook(page, () => window.copiedText);
  assert.ok(copied?.includes('\\begin{aligned}') && copied.includes('\\end{aligned}'), 'an aligned LaTeX block');
  assert.ok(copied.includes('p_{r} &= m \\dot{r}'), 'with the momenta');
  assert.ok(copied.includes('r_{k+1}'), 'and the discrete equations');
  assert.equal(await page.locator('#definition .mech-status').innerText(), 'LaTeX copied');
  // a typo: the editor's error; the mechanics keep the last good equations
  await page.locator('#definition [data-key="lagrangian"]').fill(`${L} + zz`);
  await sleep(500);
  assert.ok(
    (await shownTex(page)).some((x) => x.includes('p_{r}')),
    'the last good equations stay',
  );
  assert.deepEqual(errors, []);
  await page.close();
});
