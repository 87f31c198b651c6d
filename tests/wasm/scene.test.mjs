// What the scene draws, in Node (web/scene with three.js, no renderer): a rigid body's
// shape follows its principal moments (the T-handle's rods and the box have the body's
// moments, the marked face is the intermediate axis), the furniture of a system defined
// by data is read from the core's visual state where the core puts it (a hoop turns at
// w t), and the heavy top's tip trail follows the axle's end. Through the JS API: the
// furniture schema (a valid definition with every kind; bad entries naming the field),
// and the run's bits unchanged by furniture.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MeshBasicMaterial, MeshPhongMaterial, MeshStandardMaterial, Quaternion, Vector3 } from 'three';
import { assertInputError, lab, root } from './helpers.mjs';
import { boxMoments, isFlatAsymmetric, rigidShape, shapeMoments, tHandleMoments } from '../../web/scene/rigid-shape.js';
import { bodyGeometry, MechanismScene } from '../../web/scene/mechanism.js';
import { FurniturePiece, furnitureLayout } from '../../web/scene/furniture.js';
import { RigidBody } from '../../web/scene/rigid.js';
import { litMaterial, setSoftwareShading, solidMaterial } from '../../web/scene/common.js';
import { sceneTheme } from '../../web/scene/palette.js';

const rigidPresets = JSON.parse(readFileSync(join(root, 'scenes', 'rigid_body_presets.json'), 'utf8'));
const presetsOf = (system) =>
  (Array.isArray(rigidPresets) ? rigidPresets : rigidPresets.presets).filter((p) => p.scenario.system === system);

/** Largest relative difference between two sets of moments, each scaled to its largest. */
function momentsMismatch(a, b) {
  const ma = Math.max(...a);
  const mb = Math.max(...b);
  return Math.max(...a.map((x, i) => Math.abs(x / ma - b[i] / mb)));
}

test('rigid shape: the Dzhanibekov and tennis-racket bodies are T-handles with their moments', () => {
  const bodies = presetsOf('rigid-body').map((p) => lab.normalize(p.scenario));
  const moments = bodies.map((s) => s.params.inertia);
  assert.ok(moments.length >= 5, 'the rigid presets');
  let handles = 0;
  for (const I of moments) {
    const shape = rigidShape(I);
    const drawn = shapeMoments(shape);
    if (isFlatAsymmetric(I)) {
      handles++;
      assert.equal(shape.kind, 't-handle', `${I}`);
      // the T's rods: the least axis along the shaft, the intermediate along the crossbar
      const order = [0, 1, 2].sort((i, j) => I[i] - I[j]);
      assert.deepEqual([shape.shaftAxis, shape.barAxis, shape.normalAxis], order, `${I}`);
      // the two in-plane moments exactly (the solve), the normal one as a flat body has it
      const inPlane = [order[0], order[1]];
      const ratio = drawn[inPlane[1]] / drawn[inPlane[0]];
      assert.ok(Math.abs(ratio / (I[inPlane[1]] / I[inPlane[0]]) - 1) < 1e-6, `${I}: in-plane ratio ${ratio}`);
      assert.ok(momentsMismatch(drawn, I) < 0.03, `${I}: drawn ${drawn}`);
    } else {
      assert.equal(shape.kind, 'box', `${I}`);
      assert.ok(momentsMismatch(boxMoments(shape.sides), I) < 1e-9, `${I}: the box has the body's moments`);
    }
    // the marked face is normal to the intermediate axis
    assert.equal(shape.marked, [0, 1, 2].sort((i, j) => I[i] - I[j])[1], `${I}: marked`);
  }
  assert.ok(handles >= 2, `T-handles among the presets: ${handles}`);
  // the Dzhanibekov body (1, 2, 3) and the racket (0.0013, 0.015, 0.016) in particular
  assert.equal(rigidShape([1, 2, 3]).kind, 't-handle');
  assert.equal(rigidShape([0.0013, 0.015, 0.016]).kind, 't-handle');
  // the racket's handle is its long part: the shaft (along e1) is longer than the crossbar
  const racket = rigidShape([0.0013, 0.015, 0.016]);
  assert.ok(racket.shaft > 1.5 * racket.bar, `shaft ${racket.shaft}, crossbar ${racket.bar}`);
  // negative controls: a symmetric body stays a box; swapping two moments swaps the drawn axes
  assert.equal(rigidShape([1, 1, 1.8]).kind, 'box');
  const swapped = rigidShape([2, 1, 3]);
  assert.deepEqual([swapped.shaftAxis, swapped.barAxis], [1, 0]);
  assert.ok(momentsMismatch(shapeMoments(rigidShape([1, 2, 3])), [2, 1, 3]) > 0.3, 'a wrong axis order is caught');
});

test('rigid shape: the drawn body is as large along each axis as its shape says', () => {
  const system = lab.system('rigid-body');
  for (const I of [
    [1, 2, 3],
    [0.0013, 0.015, 0.016],
    [1, 1, 1.8],
  ]) {
    const scenario = lab.normalize({ system: 'rigid-body', params: { inertia: I } });
    const body = new RigidBody({ system, scenario, color: '#E69F00', role: 'B', theme: sceneTheme(false) });
    const box = { min: new Vector3(Infinity, Infinity, Infinity), max: new Vector3(-Infinity, -Infinity, -Infinity) };
    body.object.updateMatrixWorld(true);
    body.object.traverse((o) => {
      if (!o.isMesh) return;
      o.geometry.computeBoundingBox();
      box.min.min(o.geometry.boundingBox.min);
      box.max.max(o.geometry.boundingBox.max);
    });
    const shape = rigidShape(I);
    const grow = 1.075; // B's ghost is drawn a little larger
    const reach = [0, 1, 2].map((k) => Math.max(-box.min.getComponent(k), box.max.getComponent(k)) / grow);
    // geometry is stored in float32: agreement to its precision
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(reach[k] - shape.reach[k]) < 1e-6, `${I}: reach ${reach} vs ${shape.reach}`);
    // longer along the axes of smaller moment (a body is long where its moment about that axis is small)
    const order = [0, 1, 2].sort((i, j) => I[i] - I[j]);
    assert.ok(reach[order[0]] >= reach[order[2]], `${I}: reach ${reach}`);
    body.dispose();
  }
});

test('furniture: the layout finds each piece where the core puts it; the hoop turns at w t', () => {
  const scene = JSON.parse(readFileSync(join(root, 'scenes', 'lagrangian', 'rotating-hoop.json'), 'utf8'));
  const { about, ...scenario } = scene;
  const normalized = lab.normalize(scenario);
  const layout = furnitureLayout(normalized.params.bodies);
  const sim = lab.simulate(scenario);
  try {
    const v0 = sim.visualState();
    const last = layout[layout.length - 1];
    assert.equal(v0.length, last.points + 3 * last.count, 'the layout covers the visual state exactly');
    const hoopItem = layout.find((it) => it.entry.kind === 'hoop');
    assert.ok(hoopItem, 'the rotating hoop has its hoop');
    const w = normalized.params.constants.w;
    const R = normalized.params.constants.R;
    const hoop = new FurniturePiece(hoopItem, { size: 1, theme: sceneTheme(false), material: new MeshBasicMaterial(), visual0: v0 });
    const axis = new Vector3(0, 0, 1);
    for (const steps of [0, 137, 400]) {
      sim.advance(steps);
      const v = sim.visualState();
      hoop.update(v);
      assert.ok(Math.abs(hoop.angle - w * sim.time) < 1e-12, `angle ${hoop.angle} at t = ${sim.time}`);
      assert.ok(Math.abs(hoop.object.scale.x - 1) < 1e-12 && Math.abs(v[hoopItem.radius] - R) < 1e-15, 'radius R');
      // the bead lies on the drawn hoop: in the hoop's plane (normal turned by w t) at distance R
      const normal = new Vector3(0, 1, 0).applyQuaternion(hoop.object.quaternion);
      const bead = new Vector3(v[0], v[1], v[2]);
      assert.ok(Math.abs(bead.length() - R) < 1e-12, `|bead| ${bead.length()}`);
      assert.ok(Math.abs(bead.dot(normal)) < 1e-9, `bead off the hoop's plane by ${bead.dot(normal)}`);
      assert.ok(Math.abs(normal.dot(axis)) < 1e-12, 'the hoop turns about the vertical');
    }
    // negative control: the same hoop with no angle does not follow the bead
    const still = new FurniturePiece(
      { ...hoopItem, angle: -1 },
      { size: 1, theme: sceneTheme(false), material: new MeshBasicMaterial(), visual0: v0 },
    );
    still.update(sim.visualState());
    const stillNormal = new Vector3(0, 1, 0).applyQuaternion(still.object.quaternion);
    const v = sim.visualState();
    assert.ok(Math.abs(new Vector3(v[0], v[1], v[2]).dot(stillNormal)) > 1e-3, 'a hoop that does not turn misses the bead');
    hoop.dispose();
    still.dispose();
    void about;
  } finally {
    sim.dispose();
  }
});

test("heavy top: the tip trail follows the axle's end, R(q)·2ρ", () => {
  const preset = presetsOf('heavy-top')[0];
  assert.ok(preset, 'a heavy-top preset');
  const system = lab.system('heavy-top');
  const scenario = lab.normalize(preset.scenario);
  const body = new RigidBody({ system, scenario, color: '#E69F00', role: 'B', theme: sceneTheme(false), heavy: true });
  assert.ok(body.tipTrail, 'the top has a tip trail');
  const sim = lab.simulate(scenario);
  try {
    const rho = new Vector3(...scenario.params.com);
    let lowest = Infinity;
    let highest = -Infinity;
    for (let k = 0; k < 400; k++) {
      sim.advance(5);
      const [w, x, y, z] = sim.visualState();
      body.update([w, x, y, z], null);
      const tip = rho.clone().multiplyScalar(2).applyQuaternion(body.quat);
      const p = body.tipTrail.positions;
      assert.ok(Math.hypot(p[0] - tip.x, p[1] - tip.y, p[2] - tip.z) < 1e-6, 'the newest point is the tip');
      lowest = Math.min(lowest, tip.z);
      highest = Math.max(highest, tip.z);
    }
    assert.ok(body.tipTrail.count >= 390, `trail points: ${body.tipTrail.count}`);
    // nutation: over 10 s the tip dips and rises by centimetres (the trail shows it)
    assert.ok(highest - lowest > 0.01, `the tip's height varies by ${highest - lowest}`);
  } finally {
    sim.dispose();
    body.dispose();
  }
});

/** The bead on a rotating hoop with `extra` entries after its bead. */
const hoopWith = (...extra) => ({
  system: 'lagrangian',
  h: 0.005,
  params: {
    coordinates: ['th'],
    constants: { m: 1, R: 1.5, g: 9.81, w: 5 },
    lagrangian: "m/2*R^2*(th'^2 + w^2*sin(th)^2) + m*g*R*cos(th)",
    bodies: [{ position: ['R*sin(th)*cos(w*t)', 'R*sin(th)*sin(w*t)', '-R*cos(th)'], anchor: [0, 0, 0], link: 'none' }, ...extra],
  },
  initial: { q: [0.3], qdot: [0] },
});

test('furniture through the API: every kind accepted and echoed; the run is the same without it', () => {
  const furniture = [
    { kind: 'hoop', radius: 'R', angle: 'w*t' },
    { kind: 'pulley', position: [0, 0, 'R'], radius: 0.1, axis: [0, 1, 0], angle: 'th' },
    {
      kind: 'wire',
      points: [
        [-1, 0, 0],
        [1, 0, 'R'],
      ],
      closed: false,
    },
    { kind: 'curve', curve: ['cos(u)', 'sin(u)', '0'], range: [0, 6.283185307179586], samples: 64, parameter: 'u', closed: true },
    { kind: 'floor', position: [0, 0, -2], size: 3 },
    { kind: 'wall', position: [2, 0, 0] },
  ];
  const normalized = lab.normalize(hoopWith(...furniture));
  const echoed = normalized.params.bodies.slice(1);
  assert.deepEqual(
    echoed.map((b) => b.kind),
    ['hoop', 'pulley', 'wire', 'curve', 'floor', 'wall'],
  );
  assert.deepEqual(echoed[0].normal, [0, 1, 0], "a hoop's default normal");
  assert.deepEqual(echoed[5].normal, [1, 0, 0], "a wall's default normal");
  assert.equal(normalized.params.bodies[0].kind, undefined, "a body's echo is as before");
  const layout = furnitureLayout(normalized.params.bodies);
  const a = lab.simulate(hoopWith(...furniture));
  const b = lab.simulate(hoopWith());
  try {
    a.advance(3000);
    b.advance(3000);
    assert.equal(a.hash(), b.hash(), 'furniture is drawn only');
    const v = a.visualState();
    assert.equal(v.length, layout.at(-1).points + 3 * layout.at(-1).count);
    assert.ok(v.every(Number.isFinite));
    // the closed curve: its samples on the unit circle
    const curve = layout.find((it) => it.entry.kind === 'curve');
    for (let k = 0; k < curve.count; k++) {
      const o = curve.points + 3 * k;
      assert.ok(Math.abs(Math.hypot(v[o], v[o + 1]) - 1) < 1e-12, `sample ${k}`);
    }
    // the pulley turns with q
    const pulley = layout.find((it) => it.entry.kind === 'pulley');
    assert.equal(v[pulley.angle], a.q[0], 'the angle th');
  } finally {
    a.dispose();
    b.dispose();
  }
});

test('furniture through the API: bad entries are refused naming the field', () => {
  const cases = [
    [{ kind: 'hoops', radius: 1 }, 'params.bodies[1].kind', /"hoop"/],
    [{ kind: 'hoop' }, 'params.bodies[1].radius', /required/],
    [{ kind: 'hoop', radius: 0 }, 'params.bodies[1].radius', /\(0, 1000\]/],
    [{ kind: 'hoop', radius: 'Rr' }, 'params.bodies[1].radius', /unknown name "Rr"/],
    [{ kind: 'hoop', radius: 1, angle: "th'" }, 'params.bodies[1].angle', /./],
    [{ kind: 'hoop', radius: 1, axis: [0, 0, 0] }, 'params.bodies[1].axis', /non-zero/],
    [{ kind: 'floor', radius: 1 }, 'params.bodies[1].radius', /unknown field/],
    [{ kind: 'wire', points: [[0, 0, 0]] }, 'params.bodies[1].points', /at least 2/],
    [
      {
        kind: 'wire',
        points: [
          [0, 0, 0],
          [1, 0, '1+'],
        ],
      },
      'params.bodies[1].points[1][2]',
      /./,
    ],
    [
      {
        kind: 'wire',
        points: [
          [0, 0, 0],
          [1, 0, 0],
        ],
        closed: 1,
      },
      'params.bodies[1].closed',
      /true or false/,
    ],
    [{ kind: 'curve', curve: ['s', '0', '0'], range: [1, 0] }, 'params.bodies[1].range', /first < last/],
    [{ kind: 'curve', curve: ['s', '0', '0'], range: [0, 1], samples: 1000 }, 'params.bodies[1].samples', /128/],
    [{ kind: 'curve', curve: ['R', '0', '0'], range: [0, 1], parameter: 'R' }, 'params.bodies[1].parameter', /constant/],
  ];
  for (const [entry, field, pattern] of cases) assertInputError(() => lab.normalize(hoopWith(entry)), field, pattern);
});

test('mechanism T-handle: the scene stating a 0.4 m crossbar and 0.3 m shaft of 1 kg has their moments, and is drawn as that T', () => {
  const file = JSON.parse(readFileSync(join(root, 'scenes', 'mechanisms', 'middle-axis.json'), 'utf8'));
  const [body] = file.params.bodies;
  assert.equal(body.shape.type, 'tee');
  const [bar, shaft] = body.shape.size;
  assert.match(file.about.lesson, new RegExp(`${bar} m crossbar and a ${shaft} m shaft, ${body.mass} kg`));
  // thin uniform rods, mass per length m/(a + b): e1 normal to the T, e2 along the crossbar, e3 along the shaft
  const m = tHandleMoments(bar, shaft);
  const mu = body.mass / (bar + shaft);
  [m.normal, m.cross, m.shaft].forEach((I, i) => assert.ok(Math.abs(mu * I - body.inertia[i]) <= 1e-15, `I${i + 1}`));
  // spun about the crossbar, the intermediate axis
  const order = [0, 1, 2].sort((i, j) => body.inertia[i] - body.inertia[j]);
  assert.equal(order[1], 1);
  assert.ok(Math.abs(body.omega[1]) > 100 * Math.hypot(body.omega[0], body.omega[2]));
  // drawn as three pieces (the shaft, the crossbar's halves, its + half marked), reaching as far as the T
  const { pieces, half } = bodyGeometry(body);
  assert.equal(pieces.length, 3);
  assert.equal(pieces.filter((p) => p.marked).length, 1);
  for (const p of pieces) p.geometry.computeBoundingBox();
  // three.js keeps positions in float32: compare to its rounding
  const zs = pieces.flatMap((p) => [p.geometry.boundingBox.min.z, p.geometry.boundingBox.max.z]);
  const ys = pieces.flatMap((p) => [p.geometry.boundingBox.min.y, p.geometry.boundingBox.max.y]);
  assert.ok(Math.abs(Math.max(...ys) - Math.min(...ys) - bar) < 1e-6, 'the crossbar spans its length');
  assert.ok(
    Math.abs(Math.max(...zs) - Math.min(...zs) - (shaft + body.shape.size[2] / 2)) < 1e-6,
    "the shaft and the crossbar's thickness",
  );
  assert.ok(Math.abs(Math.min(...zs) + m.y + body.shape.size[2] / 2) < 1e-6, 'the crossbar sits y below the centre of mass');
  assert.ok(half >= bar / 2 && half >= shaft - m.y);
  for (const p of pieces) p.geometry.dispose();
});

test('mechanism point mass: a body of inertia 0 without a shape is drawn as a sphere', () => {
  const { pieces, half } = bodyGeometry({ mass: 1, inertia: 0 });
  assert.equal(pieces.length, 1);
  assert.equal(pieces[0].geometry.type, 'SphereGeometry');
  assert.equal(half, 0.1);
  for (const p of pieces) p.geometry.dispose();
});

test('mechanism hinges: each hinge of the gyroscope is drawn as a rod along its axis, carried by its parent', () => {
  const { about, ...scenario } = JSON.parse(readFileSync(join(root, 'scenes', 'mechanisms', 'gyroscope.json'), 'utf8'));
  const sim = lab.simulate(scenario);
  try {
    const visual0 = Array.from(sim.visualState());
    const scene = new MechanismScene({ scenario, color: '#0072B2', role: 'A', theme: sceneTheme(false), visual0, trails: false });
    const hinges = scenario.params.joints.filter((j) => j.type === 'hinge');
    assert.equal(scene.rods.length, hinges.length);
    sim.advance(200);
    const visual = Array.from(sim.visualState());
    scene.update(visual);
    scene.object.updateMatrixWorld(true);
    hinges.forEach((j, k) => {
      const rod = scene.rods[k];
      // the rod's y axis in space: the hinge's axis turned by its parent (the world: fixed)
      const drawn = new Vector3(0, 1, 0).applyQuaternion(rod.getWorldQuaternion(new Quaternion()));
      const parent = scenario.params.bodies.findIndex((b) => b.name === j.parent);
      const turn = parent < 0 ? new Quaternion() : new Quaternion(...visual.slice(7 * parent + 4, 7 * parent + 7), visual[7 * parent + 3]);
      const axis = new Vector3(...j.parentAxis).normalize().applyQuaternion(turn);
      assert.ok(drawn.distanceTo(axis) < 1e-6, `hinge ${k}: drawn along ${drawn.toArray()}, axis ${axis.toArray()}`);
    });
    scene.dispose();
  } finally {
    sim.dispose();
  }
});

test('lit surfaces: physically based on a GPU; Blinn–Phong of the same highlight width and the same look on a software rasterizer', () => {
  const params = { color: 0x0072b2, roughness: 0.45, metalness: 0.05, transparent: true, opacity: 0.42, depthWrite: false };
  try {
    setSoftwareShading(false);
    const gpu = litMaterial(params);
    assert.ok(gpu instanceof MeshStandardMaterial, 'a GPU keeps MeshStandardMaterial');
    assert.equal(gpu.roughness, 0.45);
    assert.equal(gpu.metalness, 0.05);
    assert.ok(solidMaterial(0x0072b2, 'A') instanceof MeshStandardMaterial);
    setSoftwareShading(true);
    const soft = litMaterial(params);
    assert.ok(soft instanceof MeshPhongMaterial, 'a software rasterizer gets MeshPhongMaterial');
    assert.ok(solidMaterial(0x0072b2, 'A') instanceof MeshPhongMaterial, 'bodies follow');
    // shininess 2/r⁴ − 2 (at least 1): 46.8 at r = 0.45, 1 at r = 1
    assert.ok(Math.abs(soft.shininess - (2 / 0.45 ** 4 - 2)) < 1e-12, `shininess ${soft.shininess}`);
    assert.equal(litMaterial({ color: 0 }).shininess, 1);
    // the colour, transparency and depth writes carried over; roughness and metalness not passed to Phong
    assert.equal(soft.color.getHex(), gpu.color.getHex());
    assert.deepEqual([soft.transparent, soft.opacity, soft.depthWrite], [true, 0.42, false]);
    assert.equal('roughness' in soft, false);
  } finally {
    setSoftwareShading(false);
  }
});
