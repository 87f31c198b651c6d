// The hostile inputs of the API fuzzer (api-fuzz.test.mjs), shared with the tests that
// check what else refuses them (schema.test.mjs): a seeded generator, hostile text and
// numbers, foreign objects, and scenarios mutated from each system's defaults.
import { lab } from './helpers.mjs';

// mulberry32: a small seeded generator, so a failing case is reproduced by its seed.
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const TEXT = [
  'ab\u0000cd',
  '\u0000',
  '\u001b[31m',
  '\u007f',
  '\u0085',
  'é'.repeat(40),
  '😀',
  '',
  'constructor',
  '__proto__',
  'x'.repeat(300),
];
export const NUMBERS = [Number.NaN, Infinity, -Infinity, 4.9e-324, -0, 1e300, 1.7e308, 2 ** 53, -1, 0.5, 7n, 1e-13];

export function foreign(rnd, value) {
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  switch (Math.floor(rnd() * 7)) {
    case 0: {
      const o = { ...value };
      o.self = o;
      return o;
    }
    case 1:
      return new Proxy(value, {
        get(t, k) {
          if (rnd() < 0.5) throw new Error(pick(TEXT));
          return Reflect.get(t, k);
        },
      });
    case 2: {
      const { proxy, revoke } = Proxy.revocable(value, {});
      revoke();
      return proxy;
    }
    case 3:
      return Object.create(value);
    case 4:
      return Object.defineProperty({ ...value }, pick(TEXT) || 'k', {
        enumerable: true,
        get() {
          throw new Error(pick(TEXT));
        },
      });
    case 5:
      return { ...value, [pick(TEXT)]: pick(NUMBERS) };
    default:
      return value;
  }
}

export function mutateScenario(rnd) {
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const system = pick(lab.systems);
  const scenario = structuredClone(system.defaults);
  const r = rnd();
  if (r < 0.2) scenario.h = pick(NUMBERS);
  else if (r < 0.35) scenario[pick(TEXT)] = pick(NUMBERS);
  else if (r < 0.5 && scenario.params.constants) scenario.params.constants[pick(TEXT) || 'c'] = pick(NUMBERS);
  else if (r < 0.6 && scenario.params.bodies?.length)
    scenario.params.bodies[0].position[0] = pick(['log(q)', '1/r', '1.7e308', 'sqrt(-1)', 'r']);
  else if (r < 0.75) return JSON.stringify(scenario) + pick(['\u0000', ' x', '{}', '\u0000 garbage {{{', ' \n']);
  else if (r < 0.85) return foreign(rnd, scenario);
  return scenario;
}
