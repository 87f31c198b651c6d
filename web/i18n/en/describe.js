// The run description's sentences (web/sim/describe.js: why a quantity is, or is not,
// conserved), keyed by their English text; the plots look them up with t().
export default {
  'A symmetric top with its centre of mass on the axis: gravity exerts no torque about that axis.':
    'A symmetric top with its centre of mass on the axis: gravity exerts no torque about that axis.',
  'Declared by the definition, but this motion does not conserve it.': 'Declared by the definition, but this motion does not conserve it.',
  'Declared conserved by the definition.': 'Declared conserved by the definition.',
  'Gravity and rigid links do no net work: the energy stays constant.':
    'Gravity and rigid links do no net work: the energy stays constant.',
  'Gravity exerts no torque about the vertical (Noether).': 'Gravity exerts no torque about the vertical (Noether).',
  'Gravity is a potential force: kinetic plus potential energy stays constant.':
    'Gravity is a potential force: kinetic plus potential energy stays constant.',
  'Gravity is vertical, so turning the whole pendulum about the vertical changes nothing (Noether).':
    'Gravity is vertical, so turning the whole pendulum about the vertical changes nothing (Noether).',
  'No friction and no driving: the energy stays constant.': 'No friction and no driving: the energy stays constant.',
  'No torque acts on this component (Noether).': 'No torque acts on this component (Noether).',
  'No torque acts: the energy stays constant.': 'No torque acts: the energy stays constant.',
  'No torque: the length of the angular momentum stays constant (a Casimir).':
    'No torque: the length of the angular momentum stays constant (a Casimir).',
  'The Lagrangian depends on time, so the energy is not conserved.': 'The Lagrangian depends on time, so the energy is not conserved.',
  'The Lagrangian does not depend on time: the energy stays constant.':
    'The Lagrangian does not depend on time: the energy stays constant.',
  'The Lagrangian is unchanged by this symmetry (Noether).': 'The Lagrangian is unchanged by this symmetry (Noether).',
  'The applied torque changes this component.': 'The applied torque changes this component.',
  'The applied torque or damping changes the energy.': 'The applied torque or damping changes the energy.',
  'The applied torque or damping changes |Π|.': 'The applied torque or damping changes |Π|.',
  'The damper removes energy.': 'The damper removes energy.',
  'The damping torque changes the angular momentum.': 'The damping torque changes the angular momentum.',
  'The drag exerts a torque about the vertical.': 'The drag exerts a torque about the vertical.',
  'The drag on the bobs removes energy.': 'The drag on the bobs removes energy.',
  'The forces and damping change the energy.': 'The forces and damping change the energy.',
  'The forces break the symmetry.': 'The forces break the symmetry.',
  "Gravity's torque about horizontal axes changes this component.": "Gravity's torque about horizontal axes changes this component.",
  'No forcing, and the density does not depend on time: the energy stays constant.':
    'No forcing, and the density does not depend on time: the energy stays constant.',
  'With periodic ends, shifting u by a constant changes nothing (Noether).':
    'With periodic ends, shifting u by a constant changes nothing (Noether).',
  'The potential V(u) pulls u back to its vacuum: shifting u changes the energy, so Σp is not conserved.':
    'The potential V(u) pulls u back to its vacuum: shifting u changes the energy, so Σp is not conserved.',
  'The potential turns with the frame: in it, the energy H − n·L is conserved (the Jacobi integral).':
    'The potential turns with the frame: in it, the energy H − n·L is conserved (the Jacobi integral).',
  'Jacobi integral': 'Jacobi integral',
};
