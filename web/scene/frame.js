// A lesson's rotating frame (lesson.frame, web/sim/lesson-view.js: a unit axis, a rate in
// rad/s, an optional direction `toward` fixed in it: a satellite's orbit frame, its axis the
// orbit normal and `toward` the Earth). Seen from the frame, the bodies turn by −rate·t about
// the axis and the frame's arrows stand still; seen from space, the arrows turn by rate·t. The
// frame's own motion is the whole of the rotation (Hughes §9.1: the libration is relative to it).
import { Group, Quaternion, Vector3 } from 'three';
import { Arrow } from './common.js';

export class RotatingFrame {
  /** frame = { axis, rate, toward|null }; extent: the scene's size (the arrows' length). */
  constructor(frame, { extent, theme }) {
    this.axis = new Vector3(...frame.axis);
    this.rate = frame.rate;
    this.object = new Group(); // the frame's arrows (in the view's environment: disposed with it)
    const add = (direction, label) => {
      const arrow = new Arrow(theme.muted, { radius: extent * 0.012, label, labelColor: theme.fg });
      arrow.set(...direction.map((x) => x * extent * 0.9));
      this.object.add(arrow.object);
    };
    add(frame.axis, 'n');
    if (frame.toward) add(frame.toward, 'eᵣ');
    this.turn = new Quaternion();
    this.angle = 0;
  }

  /** The frame's angle at time t (rad) and the rotation of the bodies and of the arrows for that view. */
  place(bodies, t, inFrame) {
    this.angle = this.rate * t;
    this.turn.setFromAxisAngle(this.axis, inFrame ? -this.angle : this.angle);
    bodies.quaternion.copy(inFrame ? this.turn : IDENTITY);
    this.object.quaternion.copy(inFrame ? IDENTITY : this.turn);
  }
}

const IDENTITY = new Quaternion();
