// Lo que dice la página cuando una simulación se detiene (web/ui/failure.js).
export default {
  'failure.code.no-convergence':
    'la ecuación que este método resuelve en cada paso no tiene una solución que pueda encontrar con este paso',
  'failure.code.diverged': 'la ecuación que este método resuelve en cada paso se alejó de su solución',
  'failure.code.singular-matrix': 'la ecuación que este método resuelve en cada paso se volvió degenerada',
  'failure.code.non-finite': 'sus números se desbordaron',
  'failure.code.spurious-root': 'la única solución de la ecuación del paso es un salto, no el movimiento',
  'failure.refused': 'el paso fue rechazado',
  'failure.energy.grown': 'su energía ha crecido un {pct}: ha abandonado el movimiento con el que empezó',
  'failure.energy.fallen': 'su energía ha caído un {pct}: ha abandonado el movimiento con el que empezó',
  'failure.links': 'sus varillas se han estirado un {pct}; ya no puede mantener la ligadura',
  'failure.rotation': 'su orientación ya no es una rotación (desviada un {pct})',
  'failure.surface': 'ha abandonado la superficie de ligadura (residuo del {pct} de la escala)',
  'failure.advice.halve': 'Un paso h más pequeño (ahora {h} s) suele ayudar.',
  'failure.advice.try': 'Pruebe: {suggestion}.',
  'failure.when.step': 'no pudo dar el paso {step} (t = {t} s)',
  'failure.when.time': 'se detuvo en t = {t} s',
  'failure.A.text': '{name} {when}: {cause}.{advice} La simulación está en pausa en el último paso válido.',
  'failure.A.status': 'En pausa en t = {t} s: {cause}.',
  'failure.B.text': 'B, {name}, {when}: {cause}. A sigue; las curvas de B terminan en el punto marcado.',
  'failure.B.status': 'B se detuvo en t = {t} s: {cause}.',
};
