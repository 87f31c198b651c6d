// Español: los controles generados (web/ui/controls.js).
export default {
  'controls.badge.order': 'orden {n}',
  'controls.family.variational': 'variacional',
  'controls.family.energy-momentum': 'energía–momento',
  'controls.family.baseline': 'referencia',
  'controls.badge.notSymplectic': 'no simpléctico',
  'controls.badge.nothing': 'no conserva nada exactamente',
  'controls.badges.label': '{title}: propiedades',
  'controls.preset.choose': 'Elija un ejemplo…',
  'controls.status.system': 'Sistema: {title}',
  'controls.compare.off': 'Comparar: no',
  'controls.compare.hint':
    'Ejecuta un segundo integrador con los mismos datos iniciales; se dibuja como un fantasma naranja y se superpone en todas las gráficas.',
  'controls.gravity.label': 'gravedad de',
  'controls.gravity.custom': 'personalizada',
  'controls.gravity.Earth': 'la Tierra',
  'controls.gravity.Moon': 'la Luna',
  'controls.gravity.Mars': 'Marte',
  'controls.gravity.Jupiter': 'Júpiter',
  'controls.gravity.zero gravity': 'gravedad cero',
  'controls.initial.note':
    'Al editar, la simulación vuelve a empezar desde t = 0. Aquí los ángulos van en grados (los enlaces y los archivos los guardan en radianes: 1 rad = 57.30°). Pause y arrastre una bola para fijar el inicio.',
  'controls.along': 'según e{i}',
  'controls.bodies': 'cuerpos N',
  'controls.bodies.links': 'número de eslabones ({min}–{max})',
  'controls.bodies.bodies': 'número de cuerpos ({min}–{max})',
  'controls.each': '{title} (cada uno)',
};
