// Español: el panel de explicación (web/ui/explain.js) y la frase «por qué difieren las
// curvas» (web/ui/why.js).
export default {
  'explain.definition.title': 'Este sistema',
  'explain.definition.label': 'El lagrangiano y las ligaduras de este sistema',
  'explain.unknown': 'Integrador desconocido.',
  'explain.equationsOf': 'Ecuaciones de {title}',
  'explain.update': 'Actualización',
  'explain.update.lagrangian': 'Lagrangiano discreto y actualización',
  'explain.update.gradient': 'Gradiente discreto y actualización',
  'explain.whyDrifts': 'Por qué deriva',
  'explain.whyConserves': 'Por qué conserva lo que conserva',
  'explain.source': 'Fuente: ',
  'explain.studies': 'Estudios y lecciones',
  'explain.why.keeps.momenta': ', y sus momentos se mantienen hasta el redondeo',
  'explain.why.keeps.constraints': ', y sus ligaduras se mantienen hasta el redondeo',
  'explain.why.keeps.both': ', y sus momentos y ligaduras se mantienen hasta el redondeo',
  'explain.why.symplectic': 'simpléctico: su error de energía oscila, pero se mantiene acotado, sin deriva{keeps}',
  'explain.why.symplecticReversible':
    'simpléctico y reversible en el tiempo: su error de energía oscila, pero se mantiene acotado, sin deriva{keeps}',
  'explain.why.energyExact': 'no simpléctico, pero conserva la energía exactamente (hasta el redondeo){keeps}',
  'explain.why.drifts': 'no simpléctico: su error de energía deriva{momenta}{projected}',
  'explain.why.momentaDrift': ', y también sus momentos',
  'explain.why.projected': '; sus ligaduras solo se mantienen porque las proyecta tras cada paso',
  'explain.why.single': '{title} es {nature}.',
  'explain.title.projection': 'con proyección',
  'explain.why.suggest': ' Compárelo con {other} para ver la diferencia.',
  'explain.why.bothSymplectic':
    'Los dos son simplécticos: los dos errores de energía se mantienen acotados{momenta}. Difieren en precisión ({orders}); en un sistema caótico las trayectorias acaban separándose aunque los dos conserven la estructura.',
  'explain.why.momentaExact': ' y los momentos son exactos',
  'explain.why.neither':
    'Ninguno de los dos métodos es simpléctico: los dos errores de energía derivan, a un ritmo que fija su orden ({orders}).',
  'explain.why.orders.differ': 'orden {a} frente a {b}',
  'explain.why.orders.same': 'los dos de orden {a}',
  'explain.why.differ': 'Por qué difieren las curvas: A (azul) es {a}. B (naranja) es {b}.',
};
