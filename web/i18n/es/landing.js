// Español: llegar a un paso lejano (web/page/landing.js, web/ui/landing.js, web/page/link.js):
// la línea de progreso, su Cancelar y una llegada rechazada por su duración.
export default {
  'landing.going': 'Yendo {goal}',
  'landing.goal.step': 'al paso {step}',
  'landing.goal.time': 'a t = {t} s',
  'landing.progress': '{head}: paso {step}, {pct} hecho, quedan unos {left}.',
  'landing.barLabel': 'Progreso de la llegada',
  'landing.cancel': 'Cancelar',
  'landing.duration.s': '{n} s',
  'landing.duration.min': '{n} min',
  'landing.duration.h': '{n} h',
  'landing.duration.unknown': 'un tiempo desconocido',
  'landing.link': 'Yendo al paso {step} del enlace',
  'landing.lesson': 'Yendo a t = {t} s de la lección (paso {step})',
  'landing.compare': 'Llevando la comparación al paso {step}',
  'landing.external': '{engine} alcanzando el paso {step}',
  'landing.steps': 'Dando {n} pasos',
  'landing.cancelled': 'Detenido en el paso {step} (cancelado antes del paso {goal}); la simulación queda en pausa ahí.',
  'landing.stopped': 'La simulación se detuvo en el paso {step} camino del paso {goal}.',
  'landing.tooLong.before': 'El campo ',
  'landing.tooLong.kept':
    ' de este enlace pide el paso {step}: a la velocidad medida en este ordenador tardaría unos {estimate} de cálculo (el límite es {bound}). No se abrió el enlace; se conserva la simulación que se ve.',
  'landing.tooLong.start':
    ' de este enlace pide el paso {step}: a la velocidad medida en este ordenador tardaría unos {estimate} de cálculo (el límite es {bound}). La simulación se abre en el paso 0.',
  'landing.tooLong.lesson':
    'El salto de esta lección a t = {t} s pide el paso {step}: a la velocidad medida en este ordenador tardaría unos {estimate} de cálculo (el límite es {bound}). La simulación se queda donde está, en pausa.',
  'landing.tooLongSteps':
    'Dar {n} pasos tardaría unos {estimate} a la velocidad medida en este ordenador (el límite es {bound}); no se empezó.',
};
