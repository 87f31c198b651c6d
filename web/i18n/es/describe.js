// Las frases de la descripción de una simulación (web/sim/describe.js), por su texto inglés.
export default {
  'A symmetric top with its centre of mass on the axis: gravity exerts no torque about that axis.':
    'Una peonza simétrica con el centro de masas sobre el eje: la gravedad no ejerce par alrededor de ese eje.',
  'Declared by the definition, but this motion does not conserve it.': 'La definición la declara, pero este movimiento no la conserva.',
  'Declared conserved by the definition.': 'La definición la declara conservada.',
  'Gravity and rigid links do no net work: the energy stays constant.':
    'La gravedad y las varillas rígidas no realizan trabajo neto: la energía se mantiene constante.',
  'Gravity exerts no torque about the vertical (Noether).': 'La gravedad no ejerce par alrededor de la vertical (Noether).',
  'Gravity is a potential force: kinetic plus potential energy stays constant.':
    'La gravedad es una fuerza conservativa: la energía cinética más la potencial se mantiene constante.',
  'Gravity is vertical, so turning the whole pendulum about the vertical changes nothing (Noether).':
    'La gravedad es vertical: girar todo el péndulo alrededor de la vertical no cambia nada (Noether).',
  'No friction and no driving: the energy stays constant.': 'Sin rozamiento ni forzamiento: la energía se mantiene constante.',
  'No torque acts on this component (Noether).': 'Ningún par actúa sobre esta componente (Noether).',
  'No torque acts: the energy stays constant.': 'No actúa ningún par: la energía se mantiene constante.',
  'No torque: the length of the angular momentum stays constant (a Casimir).':
    'Sin par: el módulo del momento angular se mantiene constante (un Casimir).',
  'The Lagrangian depends on time, so the energy is not conserved.':
    'El lagrangiano depende del tiempo, así que la energía no se conserva.',
  'The Lagrangian does not depend on time: the energy stays constant.':
    'El lagrangiano no depende del tiempo: la energía se mantiene constante.',
  'The Lagrangian is unchanged by this symmetry (Noether).': 'Esta simetría deja invariante el lagrangiano (Noether).',
  'The applied torque changes this component.': 'El par aplicado cambia esta componente.',
  'The applied torque or damping changes the energy.': 'El par aplicado o el amortiguamiento cambian la energía.',
  'The applied torque or damping changes |Π|.': 'El par aplicado o el amortiguamiento cambian |Π|.',
  'The damper removes energy.': 'El amortiguador disipa energía.',
  'The damping torque changes the angular momentum.': 'El par de amortiguamiento cambia el momento angular.',
  'The drag exerts a torque about the vertical.': 'El rozamiento ejerce un par alrededor de la vertical.',
  'The drag on the bobs removes energy.': 'El rozamiento sobre las bolas disipa energía.',
  'The forces and damping change the energy.': 'Las fuerzas y el amortiguamiento cambian la energía.',
  'The forces break the symmetry.': 'Las fuerzas rompen la simetría.',
  "Gravity's torque about horizontal axes changes this component.":
    'El par de la gravedad alrededor de ejes horizontales cambia esta componente.',
  'No forcing, and the density does not depend on time: the energy stays constant.':
    'Sin forzamiento, y la densidad no depende del tiempo: la energía se mantiene constante.',
  'With periodic ends, shifting u by a constant changes nothing (Noether).':
    'Con extremos periódicos, desplazar u en una constante no cambia nada (Noether).',
  'The potential V(u) pulls u back to its vacuum: shifting u changes the energy, so Σp is not conserved.':
    'El potencial V(u) devuelve u a su vacío: desplazar u cambia la energía, así que Σp no se conserva.',
  'The potential turns with the frame: in it, the energy H − n·L is conserved (the Jacobi integral).':
    'El potencial gira con el sistema de referencia: en él se conserva la energía H − n·L (la integral de Jacobi).',
  'Jacobi integral': 'integral de Jacobi',
};
