// A mechanism (system 'mechanism') as a MuJoCo model (MJCF text), and MuJoCo's state
// back as the mechanism's canonical state, so that another engine can run the same bodies
// and vilab measures both runs the same way. Pure arithmetic: no MuJoCo here
// (web/sim/mujoco-compare.js loads it).
//
// Each body's MJCF frame is its mechanism frame (centre of mass, principal axes), so the
// <inertial> sits at the origin with the moments as diaginertia (a full tensor as
// fullinertia). Bodies are placed at their pose at t = 0 relative to their parent, so the
// reference configuration is the start and the keyframe holds identity joints and the
// velocities. MJCF semantics as its XML reference states them (MuJoCo documentation,
// "XML Reference"): a ball joint's qvel is the angular velocity relative to the parent in
// the child's frame, a hinge's the rate about its axis, a free joint's the world linear
// velocity and the body-frame angular velocity.

const ZERO = [0, 0, 0];

const add = (a, b) => a.map((x, i) => x + b[i]);
const sub = (a, b) => a.map((x, i) => x - b[i]);
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
/** Quaternion product ab, [w, x, y, z]. */
export const qmul = (a, b) => [
  a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
  a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
  a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
  a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
];
export const conj = (q) => [q[0], -q[1], -q[2], -q[3]];
const unit = (q) => {
  const n = Math.hypot(...q);
  return q.map((x) => x / n);
};
/** R v for the unit quaternion q. */
export const rotate = (q, v) => qmul(qmul(q, [0, ...v]), conj(q)).slice(1);
/** Rᵀ v. */
export const rotateBack = (q, v) => rotate(conj(q), v);

const nums = (v) => v.map((x) => String(x)).join(' ');
const escapeXml = (s) => String(s).replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Why MuJoCo cannot run this mechanism: { field, reason } naming what it lacks, or null. */
export function mjcfRefusal(scenario) {
  // a mechanism's rigid bodies (the systems offering this list it: web/sim/external-b.js)
  const rigid = scenario?.params?.bodies;
  const point = Array.isArray(rigid) ? rigid.findIndex((b) => b?.inertia === 0) : -1;
  if (point >= 0)
    return {
      field: `params.bodies[${point}].inertia`,
      reason: 'a point mass (inertia 0) has no MJCF form: MuJoCo needs a positive inertia on a moving body',
    };
  if (!Array.isArray(rigid) || !rigid.every((b) => typeof b?.mass === 'number' && Array.isArray(b.inertia)))
    return { field: 'params.bodies', reason: "only a mechanism's rigid bodies have an MJCF form" };
  const params = scenario.params ?? {};
  if (typeof params.potential === 'string' && params.potential.trim() !== '')
    return { field: 'params.potential', reason: 'a typed potential has no MJCF counterpart' };
  const bodies = params.bodies ?? [];
  for (const [i, b] of bodies.entries()) {
    if (b.torque) return { field: `params.bodies[${i}].torque`, reason: 'an applied torque expression has no MJCF counterpart' };
    if (b.damping > 0)
      return { field: `params.bodies[${i}].damping`, reason: "MuJoCo's damping acts on joint rates, not as the torque −c ω" };
  }
  try {
    tree(params);
  } catch (e) {
    return { field: e.field, reason: e.reason };
  }
  return null;
}

/** A refusal as an Error whose message names the field (as vilab's API errors do). */
function refused(field, reason) {
  const e = new Error(`vilab: ${field}: ${reason}`);
  Object.assign(e, { field, reason });
  return e;
}

/** A body's index from a joint's parent/child reference (name or index); -1 for the world. */
function bodyIndex(bodies, ref, field) {
  if (ref === undefined || ref === 'world') return -1;
  const k = typeof ref === 'number' ? ref : bodies.findIndex((b) => b.name === ref);
  if (!(k >= 0 && k < bodies.length)) throw refused(field, `no body "${ref}"`);
  return k;
}

/**
 * The bodies as MJCF's tree: { order (mechanism body indices, depth first: MuJoCo's body
 * ids 1…n), parent[k], joint[k] (the joint making k a child, or null: a free body) }.
 */
function tree(params) {
  const bodies = params.bodies ?? [];
  const joint = bodies.map(() => null);
  const parent = bodies.map(() => -1);
  for (const [j, jt] of (params.joints ?? []).entries()) {
    const c = bodyIndex(bodies, jt.child, `params.joints[${j}].child`);
    const p = bodyIndex(bodies, jt.parent, `params.joints[${j}].parent`);
    if (c < 0) throw refused(`params.joints[${j}].child`, 'the world cannot be a child');
    if (joint[c])
      throw refused(`params.joints[${j}]`, `body "${bodies[c].name ?? c}" has two parents: a closed loop, which an MJCF tree cannot hold`);
    if (jt.type === 'fixed' && p < 0)
      throw refused(`params.joints[${j}]`, 'a body fixed to the world is static in MuJoCo (it has no motion to compare)');
    if (!['ball', 'hinge', 'fixed'].includes(jt.type)) throw refused(`params.joints[${j}].type`, `"${jt.type}" has no MJCF joint`);
    joint[c] = jt;
    parent[c] = p;
  }
  const order = [];
  const visit = (p) => {
    for (let k = 0; k < bodies.length; k++)
      if (parent[k] === p) {
        order.push(k);
        visit(k);
      }
  };
  visit(-1);
  if (order.length !== bodies.length) {
    const k = bodies.findIndex((_, i) => !order.includes(i));
    throw refused(`params.bodies[${k}]`, 'its joints form a loop without the world, which an MJCF tree cannot hold');
  }
  return { order, parent, joint };
}

/** A body's state at t = 0 with its defaults: x, unit quaternion q, world velocity v and angular velocity w. */
function pose(b) {
  const q = unit(b.orientation ?? [1, 0, 0, 0]);
  const omega = b.omega ?? ZERO;
  return { x: b.position ?? ZERO, q, v: b.velocity ?? ZERO, w: rotate(q, omega), omega };
}

const WORLD = { x: ZERO, q: [1, 0, 0, 0], v: ZERO, w: ZERO };

function inertialOf(b) {
  const J = b.inertia;
  if (Array.isArray(J[0]))
    return `<inertial pos="0 0 0" mass="${b.mass}" fullinertia="${nums([J[0][0], J[1][1], J[2][2], J[0][1], J[0][2], J[1][2]])}"/>`;
  return `<inertial pos="0 0 0" mass="${b.mass}" diaginertia="${nums(triangle(J))}"/>`;
}

// MuJoCo's compiler refuses principal moments with A + B < C by any amount; a flat body
// (C = A + B, e.g. the T-handle's) can miss it by an ulp of rounding. Such a moment is
// taken as the sum of the other two (a change of ≤ 1e-12 relative, else left to be refused).
function triangle(J) {
  return J.map((c, i) => {
    const rest = J[(i + 1) % 3] + J[(i + 2) % 3];
    return c > rest && c - rest <= 1e-12 * c ? rest : c;
  });
}

// The drawn shape as a geom without contact (the <inertial> gives the mass, so the
// geom's own is not read); a tee has no MJCF primitive and is left out.
function geomOf(shape) {
  const s = shape?.size ?? [];
  const off = 'contype="0" conaffinity="0"';
  if (shape?.type === 'box' && s.length === 3) return `<geom type="box" size="${nums(s.map((x) => x / 2))}" ${off}/>`;
  if (shape?.type === 'sphere' && s.length >= 1) return `<geom type="sphere" size="${s[0]}" ${off}/>`;
  if (shape?.type === 'cylinder' && s.length === 2) return `<geom type="cylinder" size="${s[0]} ${s[1] / 2}" ${off}/>`;
  if (shape?.type === 'capsule' && s.length === 2 && s[1] > 2 * s[0])
    return `<geom type="capsule" size="${s[0]} ${(s[1] - 2 * s[0]) / 2}" ${off}/>`;
  return '';
}

/**
 * The mechanism as MJCF: { xml, layout } (layout: what mujocoToCanonical needs). Throws
 * the refusal (mjcfRefusal) as an Error naming its field. `integrator`: MuJoCo's keyword
 * ('RK4', 'implicit', …). Contacts and the constraint solver are off (nothing vilab
 * models collides), the energy is computed.
 */
export function mechanismToMjcf(scenario, { integrator = 'RK4' } = {}) {
  const why = mjcfRefusal(scenario);
  if (why) throw refused(why.field, why.reason);
  const params = scenario.params;
  const bodies = params.bodies;
  const { order, parent, joint } = tree(params);
  const state = bodies.map(pose);
  const qpos = [];
  const qvel = [];
  const kinds = [];
  const names = bodies.map((b, i) => b.name ?? `body${i + 1}`);
  const open = (k) => {
    const me = state[k];
    const up = parent[k] < 0 ? WORLD : state[parent[k]];
    const jt = joint[k];
    const pos = rotateBack(up.q, sub(me.x, up.x));
    const quat = unit(qmul(conj(up.q), me.q));
    let j = '';
    if (!jt) {
      j = '<freejoint/>';
      kinds.push('free');
      qpos.push(...me.x, ...me.q);
      qvel.push(...me.v, ...me.omega);
    } else if (jt.type === 'ball') {
      j = `<joint type="ball" pos="${nums(jt.childPoint ?? ZERO)}"/>`;
      kinds.push('ball');
      qpos.push(1, 0, 0, 0);
      qvel.push(...rotateBack(me.q, sub(me.w, up.w)));
    } else if (jt.type === 'hinge') {
      const axisWorld = jt.childAxis ? rotate(me.q, jt.childAxis) : rotate(up.q, jt.parentAxis ?? [0, 0, 1]);
      const n = Math.hypot(...axisWorld);
      const axis = rotateBack(
        me.q,
        axisWorld.map((x) => x / n),
      );
      j = `<joint type="hinge" pos="${nums(jt.childPoint ?? ZERO)}" axis="${nums(axis)}"/>`;
      kinds.push('hinge');
      qpos.push(0);
      qvel.push(dot(sub(me.w, up.w), axisWorld) / n);
    } else kinds.push('fixed'); // welded to its parent: no joint element
    return `<body name="${escapeXml(names[k])}" pos="${nums(pos)}" quat="${nums(quat)}">${j}${inertialOf(bodies[k])}${geomOf(bodies[k].shape)}`;
  };
  const emit = (p) =>
    order
      .filter((k) => parent[k] === p)
      .map((k) => `${open(k)}${emit(k)}</body>`)
      .join('');
  const worldbody = emit(-1);
  const g = params.gravity ?? [0, 0, -9.81];
  const xml =
    `<mujoco model="${escapeXml(scenario.about?.title ?? 'vilab mechanism')}"><compiler angle="radian"/>` +
    `<option timestep="${scenario.h}" gravity="${nums(g)}" integrator="${integrator}">` +
    '<flag contact="disable" constraint="disable" eulerdamp="disable" energy="enable"/></option>' +
    `<worldbody>${worldbody}</worldbody>` +
    `<keyframe><key qpos="${nums(qpos)}" qvel="${nums(qvel)}"/></keyframe></mujoco>`;
  const idOf = (k) => (k < 0 ? 0 : order.indexOf(k) + 1);
  const layout = {
    order,
    kinds,
    parentIds: order.map((k) => idOf(parent[k])),
    bodies: order.map((k) => ({ mass: bodies[k].mass, inertia: bodies[k].inertia })),
  };
  return { xml, layout };
}

// J ω for a body's inertia (the principal moments or a full tensor), body frame.
const inertiaTimes = (J, w) => (Array.isArray(J[0]) ? J.map((row) => dot(row, w)) : J.map((x, i) => x * w[i]));

/**
 * MuJoCo's state (after mj_kinematics: xpos, xquat, xanchor, xaxis per body / joint, and
 * qvel) as the mechanism's canonical state { q, p }: per body (in the mechanism's order)
 * q = centre of mass, quaternion [w, x, y, z]; p = m v, Π = J ω (body frame). The
 * velocities are propagated down the tree as mj_kinematics would (Featherstone,
 * "Rigid Body Dynamics Algorithms", §4.4: v_child = v_parent + joint's rate).
 */
export function mujocoToCanonical(layout, { xpos, xquat, xanchor, xaxis, qvel }) {
  const n = layout.order.length;
  const q = new Float64Array(7 * n);
  const p = new Float64Array(6 * n);
  const at = (a, i, k) => Array.from(a.subarray ? a.subarray(k * i, k * i + k) : a.slice(k * i, k * i + k));
  const qv = Array.from(qvel);
  const vel = []; // per MuJoCo body id − 1: { x, v, w }
  let iv = 0;
  let ij = 0; // joint id: one per body that is not welded
  for (let id = 1; id <= n; id++) {
    const x = at(xpos, id, 3);
    const quat = at(xquat, id, 4);
    const pid = layout.parentIds[id - 1];
    const up = pid > 0 ? vel[pid - 1] : { x: ZERO, v: ZERO, w: ZERO };
    const kind = layout.kinds[id - 1];
    let v;
    let w;
    if (kind === 'free') {
      v = qv.slice(iv, iv + 3);
      w = rotate(quat, qv.slice(iv + 3, iv + 6));
      iv += 6;
    } else if (kind === 'fixed') {
      w = up.w;
      v = add(up.v, cross(up.w, sub(x, up.x)));
    } else {
      const anchor = at(xanchor, ij, 3);
      const rel = kind === 'ball' ? rotate(quat, qv.slice(iv, iv + 3)) : at(xaxis, ij, 3).map((a) => a * qv[iv]);
      w = add(up.w, rel);
      v = add(add(up.v, cross(up.w, sub(anchor, up.x))), cross(w, sub(x, anchor)));
      iv += kind === 'ball' ? 3 : 1;
    }
    if (kind !== 'fixed') ij++;
    vel.push({ x, v, w });
    const k = layout.order[id - 1];
    const { mass, inertia } = layout.bodies[id - 1];
    q.set([...x, ...quat], 7 * k);
    p.set([...v.map((c) => mass * c), ...inertiaTimes(inertia, rotateBack(quat, w))], 6 * k);
  }
  return { q, p };
}
