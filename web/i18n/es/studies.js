// Texto en español del cajón Estudios (web/ui/studies.js); su botón y su título, en el
// marcado de la página, están en page.js.
export default {
  'studies.intro':
    'Cada estudio hace muchas simulaciones a la vez, fuera de la página, en {cores} núcleos. Usa la simulación tal como está configurada (su inicio, su h, A y B).',
  'studies.run': 'Ejecutar',
  'studies.cancel': 'Cancelar',
  'studies.progress': 'Progreso del estudio',
  'studies.running': 'Calculando…',
  'studies.done': 'Hecho.',
  'studies.cancelled': 'Cancelado.',
  'studies.failed': 'El estudio se detuvo: {message}',
  'studies.axis.time': 'tiempo t (s)',
  'studies.axis.h': 'paso de tiempo h (s)',
  'studies.loop.title': 'Un lazo de inicios: ¿se conserva el área en el espacio de fases?',
  'studies.loop.text':
    'Cientos de inicios sobre un pequeño lazo cerrado alrededor del punto en que está la simulación al pulsar Ejecutar se mueven juntos. La integral ∮ p·dq alrededor del lazo (su área, con un grado de libertad) se conserva exactamente en el movimiento real y con todo método simpléctico; otros métodos la cambian. La gráfica muestra su cambio relativo en el tiempo.',
  'studies.loop.rigid':
    'No para sólidos rígidos aquí: su estado (una rotación y el momento angular en el cuerpo) no es un par de posiciones y momentos.',
  'studies.loop.points': 'Puntos del lazo',
  'studies.loop.steps': 'Pasos',
  'studies.loop.axis': 'cambio relativo de ∮p·dq',
  'studies.loop.col.points': 'puntos al final',
  'studies.loop.col.change': 'cambio relativo al final',
  'studies.loop.col.action0': '∮p·dq al inicio',
  'studies.loop.col.action': '∮p·dq al final',
  'studies.loop.unresolved':
    'Desde t = {t} s el lazo se había estirado demasiado para que {n} puntos lo resolvieran (el caos lo estira exponencialmente): su ∮p·dq ya no se mide. Pruebe con menos pasos.',
  'studies.loop.shape.text':
    'El propio lazo, en un plano de dos variables de la simulación: dónde empezó (gris, discontinuo) y adónde lo llevó cada método. Puede estirarse y plegarse; con un grado de libertad, el área que encierra es ∮p·dq (en posición y momento), y un método simpléctico la conserva.',
  'studies.loop.shape.x': 'Horizontal',
  'studies.loop.shape.y': 'Vertical',
  'studies.loop.shape.time': 'Lazo en t = {t} s',
  'studies.loop.shape.start': 'inicio',
  'studies.convergence.title': 'Orden de convergencia',
  'studies.loop.centre.state':
    'El lazo está centrado en el estado en t = {t} s, donde estaba la simulación al empezar el estudio; su tiempo se cuenta desde ahí.',
  'studies.loop.centre.start':
    'La simulación estaba en t = {t} s, pero el estado de este sistema no puede reiniciarse desde ahí (importa su origen de tiempos): el lazo está centrado en el inicio.',
  'studies.loop.centre.origin': 'El lazo está centrado en el inicio de la simulación.',
  'studies.convergence.text':
    'El mismo inicio se simula hasta T = {T} s con h = {h0} s, luego h/2, … hasta {hmin} s, y se compara con la solución exacta (oscilador, péndulo, sólido rígido libre) o con una simulación mucho más fina de un método de sexto orden. En ejes log–log el error cae sobre una recta cuya pendiente es el orden del método.',
  'studies.convergence.axis': 'error en T',
  'studies.convergence.col.order': 'orden ajustado (pendiente)',
  'studies.convergence.col.claimed': 'orden del método',
  'studies.poincare.title': 'Sección de Poincaré: órbitas regulares y caóticas',
  'studies.poincare.text':
    'Se siguen órbitas con la energía de esta simulación (E = {E}) y se dibuja un punto cada vez que {x} cruza 0 hacia arriba. Una órbita regular dibuja una curva cerrada; una caótica esparce sus puntos por una región. Ejecutar añade ocho órbitas; haga clic en la sección para añadir una órbita que empiece allí.',
  'studies.poincare.label': 'Sección de Poincaré: {y} en horizontal, su momento en vertical',
  'studies.poincare.outside': 'Ninguna órbita de esta energía empieza ahí.',
  'studies.poincare.count': '{n} órbitas en la sección.',
};
