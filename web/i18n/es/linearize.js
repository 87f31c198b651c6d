// Texto en español del jacobiano del paso (sim.linearize()) en la página: la lección de
// Floquet del cajón de Estudios (sus palabras en inglés están en web/sim/lessons.js).
export default {
  'lessons.axis.omega': 'frecuencia de la sacudida ω (rad/s)',
  'lessons.axis.multiplier': 'multiplicador de Floquet |μ|',
  'lessons.curve.mu-largest': 'mayor |μ|',
  'lessons.curve.mu-smallest': 'menor |μ|',
  'lessons.measured.floquet':
    'Medido ({steps} pasos por periodo): con ω = 60 los dos multiplicadores están en la circunferencia unidad (||μ| − 1| = {off60}): estable, el péndulo se sostiene. Con ω = 30 uno tiene |μ| = {mu30} > 1: inestable, se cae. Estable desde ω = {firstStable} en este barrido (la condición de Kapitza a²ω² = 2gl da {kapitza}). Oscilador lineal, regla del punto medio con h = {hAngle}: ángulo de giro {angle} según los autovalores del paso, 2·atan(hω/2) = {lu} (mayor diferencia para h = {hFirst} … {hLast}: {angleError}).',
  'lessons.measured.floquet-other':
    'Medido ({steps} pasos por periodo): con ω = 60, ||μ| − 1| = {off60}; con ω = 30, el mayor |μ| = {mu30}; desde ω = {firstStable} los dos multiplicadores están en la circunferencia unidad. Oscilador lineal, regla del punto medio: ángulo {angle} frente a 2·atan(hω/2) = {lu} (mayor diferencia {angleError}).',
  'lesson.floquet.title': 'Multiplicadores de Floquet a partir del jacobiano del paso: el péndulo de Kapitza',
  'lesson.floquet.source':
    'Kapitza (1951); Marsden y West (2001), §1.3 (el flujo discreto linealizado); J. Lu (1995), §2.3 (el reloj de la regla del punto medio)',
  'lesson.floquet.caption':
    'El péndulo de Kapitza boca abajo, con su pivote sacudido como a·cos(ωt), con la regla del punto medio durante un periodo de la sacudida. El producto de los jacobianos de sus pasos (sim.linearize()) es la matriz de monodromía; sus dos multiplicadores μ dicen si la posición invertida es estable (los dos en la circunferencia unidad) o no (uno fuera).',
  'lesson.floquet.see':
    'Por encima del umbral las dos curvas están en |μ| = 1; por debajo se separan, una por encima de 1 (el péndulo se cae) y otra por debajo. La línea medida da los veredictos con ω = 60 y ω = 30, y el ángulo de giro de la regla del punto medio en el oscilador lineal frente al 2·atan(hω/2) de Lu.',
  'lesson.floquet.docs':
    'El jacobiano de un paso, ∂(q_{k+1}, p_{k+1})/∂(q_k, p_k), se calcula con el teorema de la función implícita sobre las ecuaciones de Euler–Lagrange discretas (las derivadas segundas de L). Durante un periodo T = N h de la sacudida, el producto M = J_{N−1}⋯J_0 es la matriz de monodromía del mapa discreto en torno a la órbita periódica (aquí el equilibrio invertido); el paso es simpléctico, así que det M = 1 y los multiplicadores van por parejas μ, 1/μ: o los dos en la circunferencia unidad (estable) o uno fuera (inestable). El promediado de Kapitza predice estabilidad para a²ω² > 2gl. En el oscilador lineal un paso del punto medio es un giro de ángulo θ con autovalores e^{±iθ}, θ = 2·atan(hω/2): el flujo exacto durante el paso de tiempo modificado de Lu.',
};
