// Texto en español de las lecciones del cajón Estudios (web/ui/studies.js) y de su
// registro (web/sim/lessons.js): claves lesson.<id>.<campo> y study.<id>.<campo>.
export default {
  'lessons.title': 'Lecciones de los artículos',
  'lessons.text':
    'Cada botón prepara la página como una figura de los artículos en que se basa vilab y calcula su curva, aquí, en unos segundos.',
  'lessons.see': 'Qué observar:',
  'lessons.explain': 'Las ecuaciones que hay detrás (Explicación)',
  'lessons.axis.time': 'tiempo t (s)',
  'lessons.axis.h': 'paso de tiempo h (s)',
  'lessons.axis.mu': 'rigidez de penalización μ (N/m)',
  'lessons.axis.energy': 'energía E (J)',
  'lessons.axis.energy-fluctuation': 'mayor |E − E₀| (J)',
  'lessons.axis.momentum-drift': '|J_z − J_z(0)|',
  'lessons.axis.constraint': 'mayor error de longitud de las varillas (m)',
  'lessons.axis.clock-error': 'error de (q, p)',
  'lessons.axis.energy-amplitude': 'semianchura de la banda de energía (J)',
  'lessons.axis.relative-energy': '(E − E₀)/E₀ (partes por millón)',
  'lessons.axis.law-residual': 'mayor residuo de la ley multisimpléctica',
  'lessons.curve.A': 'A',
  'lessons.curve.B': 'B',
  'lessons.curve.ndt': 'frente al movimiento exacto en n·Δt',
  'lessons.curve.nh': 'frente al movimiento exacto en n·h',
  'lessons.curve.top': 'peonza pesada (DEL con cuaterniones)',
  'lessons.curve.dsp': 'péndulo esférico doble (punto medio)',
  'lessons.curve.law-leapfrog': 'salto de rana (A)',
  'lessons.curve.law-rk4': 'RK4 (B)',
  'lessons.curve.law-box': 'esquema de caja (punto medio)',
  'lessons.measured.mw':
    'Medido: la energía de Newmark se mantiene a menos de {bandA} de E₀ y termina a {finalA} de ella; la de RK4, a {finalB}.',
  'lessons.measured.string':
    'Medido: cociente de ventanas de energía {ratioA} para el salto de rana (A), {ratioB} para RK4 (B); la energía del salto de rana se mantiene a menos de {bandA} de E₀, la de RK4 termina a {finalB} de ella.',
  'lessons.measured.law':
    'Medido: mayor residuo a lo largo del cálculo {box} para el esquema de caja y {leapfrog} para el salto de rana (A); el de RK4 (B), de {rk4Min} a {rk4Max}, mediana {rk4Median}.',
  'lessons.measured.ratios':
    'Medido: la fluctuación se divide por {ratios} cada vez que h se reduce a la mitad; pendiente ajustada {slope}.',
  'lessons.measured.jz': 'Medido: mayor |J_z − J_z(0)| {driftA} para A, {driftB} para B.',
  'lessons.measured.slope': 'Medido: pendiente ajustada {slope} (1/μ es pendiente −1).',
  'lessons.measured.clock': 'Medido: mayor error {maxNdt} en n·Δt (Δt = {dt} s), {maxNh} en n·h.',
  'lessons.measured.slopes': 'Medido: pendientes ajustadas {slopeTop} (peonza pesada) y {slopeDsp} (péndulo esférico doble).',

  // ---- registro de estudios
  'study.loop.title': 'Lazos de inicios: el invariante de Poincaré–Cartan',
  'study.loop.docs':
    'El método transporta un lazo cerrado γ de condiciones iniciales. Una aplicación simpléctica φ conserva ∮_{φ(γ)} p·dq = ∮_γ p·dq para todo lazo cerrado (el flujo discreto de un lagrangiano discreto conserva la dos-forma canónica; por Stokes, la acción del lazo). El lazo se muestrea en N parámetros equiespaciados y la integral se calcula con la derivada dada por la transformada discreta de Fourier (exponencialmente precisa para curvas periódicas suaves); se añaden puntos donde el lazo se estira. El lazo se centra en el estado en que está la simulación al empezar el estudio. Runge–Kutta 4, DOPRI5, Euler y los esquemas de energía–momento cambian la acción; todo método variacional la conserva hasta el redondeo.',
  'study.loop.citation': 'Marsden y West, Discrete mechanics and variational integrators (2001), §1.3 y §2.1',
  'study.convergence.title': 'Orden de convergencia',
  'study.convergence.docs':
    'El mismo inicio se simula hasta T con h, h/2, …, h/32. El error en T se mide frente a la solución exacta cuando se conoce (el oscilador lineal; el péndulo mediante sn de Jacobi, sin(θ/2) = k sn(ωt + u₀ | k²); el sólido rígido libre mediante funciones elípticas de Jacobi) y si no frente a una composición de orden 6 con h/256. Un método de orden r tiene un error ≈ C h^r, una recta de pendiente r en ejes log–log; la pendiente se ajusta por mínimos cuadrados (se dejan fuera los errores al nivel del redondeo).',
  'study.convergence.citation': 'Hairer, Lubich y Wanner, Geometric numerical integration, §II.1; DLMF 22.7 (Landen) y 19.36 (Carlson)',
  'study.poincare.title': 'Secciones de Poincaré',
  'study.poincare.docs':
    'En un sistema con dos coordenadas, las órbitas de una misma energía viven en una superficie de dimensión tres; cada vez que q₁ cruza 0 hacia arriba se anota el punto (q₂, p₂) (interpolación lineal entre pasos). Las órbitas sobre toros invariantes (KAM) dibujan curvas cerradas; las caóticas llenan regiones. Un método simpléctico conserva el dibujo durante mucho tiempo porque es el flujo exacto de un hamiltoniano cercano.',
  'study.poincare.citation': 'Hénon y Heiles (1964); Marsden y West (2001), §1.3',

  // ---- registro de lecciones
  'lesson.mw-newmark-rk4.title': 'Newmark variacional frente a RK4 durante 300 s',
  'lesson.mw-newmark-rk4.source': 'Marsden y West, Discrete mechanics and variational integrators (2001), fig. 1',
  'lesson.mw-newmark-rk4.caption':
    'Un péndulo (ω = 2 rad/s) con el paso grueso h = 0.3 s durante 300 s. La energía de RK4 decae como si hubiera rozamiento; la de Newmark variacional (γ = ½, β = 0) oscila en una banda y vuelve.',
  'lesson.mw-newmark-rk4.see': 'La curva naranja baja y no vuelve nunca; la azul se queda en su banda por largo que sea el cálculo.',
  'lesson.mw-newmark-rk4.docs':
    'Newmark con γ = ½, β = 0 es el método de Störmer–Verlet, las ecuaciones DEL del lagrangiano discreto del trapecio: es simpléctico, así que su error de energía está acotado durante tiempos exponencialmente largos (análisis del error regresivo). RK4 es más preciso en cada paso pero no es simpléctico: su error de energía se acumula, aquí como una pérdida constante.',
  'lesson.mw-string-energy.title': 'La energía de la cuerda pulsada durante 10⁵ pasos: salto de rana frente a RK4',
  'lesson.mw-string-energy.source':
    'Marsden y West, Discrete mechanics and variational integrators (2001), fig. 1 para un campo: §5.2 (integradores multisimplécticos para EDP) y §2 (análisis del error)',
  'lesson.mw-string-energy.caption':
    'La cuerda pulsada (128 puntos de malla, extremos fijos) con h = 0.004 s durante 10⁵ pasos (400 s), con el salto de rana (A) y con RK4 (B) con el mismo paso. La energía del salto de rana se queda en la ventana que llena en la primera décima del cálculo; la de RK4 deriva hacia abajo y sale de su ventana inicial.',
  'lesson.mw-string-energy.see':
    'La curva azul llena su banda en la primera décima y se queda en ella; la naranja es una línea fina que no deja de bajar. En estos 400 s la pérdida de RK4 es aún menor que la banda del salto de rana: lo que los distingue es que la banda deja de ensancharse y la deriva no, como muestran los cocientes de ventanas impresos (cerca de 1 para A, varias veces 1 para B).',
  'lesson.mw-string-energy.docs':
    'El salto de rana es la ecuación de Euler–Lagrange discreta de la densidad discreta del trapecio L_c en la malla de espacio-tiempo (en cada celda, ℒ promediada en sus cuatro esquinas, cada una con las diferencias a lo largo de sus propias aristas): un integrador multisimpléctico (Marsden y West §5.2) y, sobre la cuerda semidiscreta, una aplicación simpléctica, así que por el análisis del error regresivo (§2) su energía es la de una cercana que se conserva y oscila en una banda durante tiempos exponencialmente largos. RK4 avanza la misma cuerda semidiscreta pero no es simpléctico: con este paso amortigua las ondas cortas del pulso y su error de energía se acumula como una pérdida constante. La figura lo mide con el cociente de ventanas de energía R: la anchura máx − mín de E − E₀ en todo el cálculo dividida por la anchura en su primera décima. Una oscilación acotada llena pronto su ventana (R cerca de 1); una deriva la sigue ensanchando.',
  'lesson.multisymplectic-law.title': 'La ley multisimpléctica a lo largo de un cálculo: esquema de caja, salto de rana y RK4',
  'lesson.multisymplectic-law.source':
    'Marsden, Patrick y Shkoller, Multisymplectic geometry, variational integrators and nonlinear PDEs (1998), teorema 4.1; Marsden y West (2001), §5.2',
  'lesson.multisymplectic-law.caption':
    'El respirón de seno-Gordon (512 puntos de malla, h = 0.02 s) durante 3000 pasos (60 s) con el esquema de caja, el salto de rana (A) y RK4 (B). Cada 30 pasos, el mayor residuo en los nodos de la ley de conservación multisimpléctica discreta, para dos variaciones llevadas a través de los dos pasos siguientes por la linealización de cada método. El esquema de caja y el salto de rana cumplen la ley hasta el redondeo con esta densidad no lineal; RK4 falla por órdenes de magnitud más, en una cantidad que oscila con el latido del respirón.',
  'lesson.multisymplectic-law.see':
    'En el eje logarítmico las curvas verde (esquema de caja) y azul (salto de rana) están en el redondeo, cerca de 1e−16, todo el tiempo; la naranja (RK4) está en torno a 1e−7 y baja y sube con el respirón.',
  'lesson.multisymplectic-law.docs':
    'La forma simpléctica de un campo no es un número para toda la cuerda sino una densidad: ω en cada punto, con un flujo κ a lo largo de la cuerda, y el flujo exacto cumple la ley local ∂ω/∂t + ∂κ/∂x = 0 (Bridges 1997; Marsden, Patrick y Shkoller 1998). Un integrador variacional de una densidad discreta L_c en las celdas de espacio-tiempo cumple su forma discreta (MPS 1998, teorema 4.1; Marsden y West §5.2): para dos primeras variaciones ξ, η de una solución discreta, los términos η·(H^{c}ξ) − ξ·(H^{c}η) de las celdas c alrededor de un nodo, con H^{c} la hessiana de L_c en las esquinas de la celda, suman cero. El esquema de caja es el integrador variacional de la densidad del punto medio; el salto de rana, el de la densidad del trapecio. La comprobación (sim.lawResidual) da los dos pasos siguientes del cálculo y de dos variaciones (un modo suave en u y otro en la velocidad), cada una llevada por la linealización del propio método en el estado actual, así que vale con una densidad no lineal (aquí seno-Gordon, V = 1 − cos u) y no solo con una lineal; en cada nodo el residuo es la suma sobre las celdas del nodo dividida por la suma de los valores absolutos de los términos, así que el redondeo está en torno a 1e−16. RK4 avanza la misma cuerda semidiscreta que el salto de rana y se compara con la ley de la densidad del trapecio; no es ninguna ecuación de Euler–Lagrange discreta y la incumple.',
  'lesson.dsp-fluctuation.title': 'Péndulo esférico doble: la fluctuación de energía se divide por 4 al reducir h a la mitad',
  'lesson.dsp-fluctuation.source':
    'Semilla 002, «Two equations of motion in continuous and in discrete form», multiplicadores de Lagrange (esquema simpléctico-momento)',
  'lesson.dsp-fluctuation.caption':
    'El péndulo esférico doble con sus varillas sujetas por multiplicadores de Lagrange, durante 1000 s con h = 0.02, 0.01 y 0.005 s. La mayor fluctuación de energía se divide por unos 4 cada vez que h se reduce a la mitad: segundo orden, sin deriva.',
  'lesson.dsp-fluctuation.see':
    'Tres puntos sobre una recta de pendiente 2 en ejes log–log; los cocientes que se imprimen están cerca de 4.',
  'lesson.dsp-fluctuation.docs':
    'El DEL del punto medio con multiplicadores cumple exactamente las ligaduras g(q) = 0 y conserva J_z hasta el redondeo; su energía no se conserva, pero fluctúa a menos de O(h²) del valor real durante los 1000 s: la fluctuación se mide en todos los pasos.',
  'lesson.dsp-jz.title': 'Péndulo esférico doble: J_z se conserva en coordenadas generalizadas',
  'lesson.dsp-jz.source': 'Semilla 002, «Two equations of motion in continuous and in discrete form», coordenadas generalizadas',
  'lesson.dsp-jz.caption':
    'El péndulo esférico doble en dos ángulos esféricos por masa, durante 100 s con el esquema simpléctico-momento (A) y con RK4 (B). El momento angular respecto a la vertical J_z se queda en su valor inicial hasta el redondeo con A, mientras que el de RK4 deriva.',
  'lesson.dsp-jz.see': 'La curva de A está en 1e−13 o por debajo; la de B sube varios órdenes de magnitud.',
  'lesson.dsp-jz.docs':
    'El lagrangiano discreto en coordenadas generalizadas (θ, φ por masa) es invariante bajo rotaciones respecto a la vertical (φ ↦ φ + c), así que por el teorema de Noether discreto su aplicación momento, J_z, se conserva exactamente con las ecuaciones DEL. RK4 no tiene esa estructura.',
  'lesson.dsp-penalty.title': 'Péndulo esférico doble: error de ligadura frente a la rigidez de penalización μ',
  'lesson.dsp-penalty.source':
    'Semilla 002, «Two equations of motion in continuous and in discrete form», potencial de penalización (esquema de energía–momento, h = 0.001 s)',
  'lesson.dsp-penalty.caption':
    'Las varillas sustituidas por muelles rígidos de rigidez μ, durante 2 s con h = 0.001 s y el esquema de energía–momento, para μ = 10³ … 10⁶. El mayor error en la longitud de las varillas cae como 1/μ.',
  'lesson.dsp-penalty.see': 'Puntos sobre una recta de pendiente −1 en ejes log–log: diez veces más rígido, diez veces menos error.',
  'lesson.dsp-penalty.docs':
    'Con el potencial de penalización (μ/2) Σ g_i² las varillas se estiran hasta que la fuerza del muelle equilibra las cargas centrífuga y gravitatoria, así que g = O(1/μ). El esquema de energía–momento (gradiente discreto de Gonzalez) conserva exactamente la energía total con los muelles y J_z, para todo μ y h; cuanto más rígidos los muelles, más cerca está el movimiento del ligado.',
  'lesson.lu-clock.title': 'La regla del punto medio recorre el flujo exacto con su propio reloj',
  'lesson.lu-clock.source': 'J. Lu, Conserving integrators by generating function (1995), §2.3, ecs. 16–18 (corregidas)',
  'lesson.lu-clock.caption':
    'El oscilador lineal (ω = 1) con la regla del punto medio, h = 0.1 s, durante 2000 pasos, comparado con el movimiento exacto con dos relojes: en n·h el error crece sin parar; en n·Δt, con Δt = (2/ω) arctan(ωh/2), se queda en el redondeo.',
  'lesson.lu-clock.see':
    'La curva naranja (movimiento exacto en n·h) sube; la azul (movimiento exacto en n·Δt) se queda cerca de 1e−15: el método no comete error en la órbita, solo en el tiempo.',
  'lesson.lu-clock.docs':
    'Un paso del punto medio es la matriz (1 + (ωh)²/4)⁻¹ [[1 − (ωh)²/4, h], [−ω²h, 1 − (ωh)²/4]], que es el flujo exacto durante Δt con cos ωΔt = (1 − (ωh)²/4)/(1 + (ωh)²/4). Aquí el método conserva exactamente la energía y es simpléctico; tras n pasos va retrasado respecto al reloj real en n h (ωh)²/12.',
  'lesson.wm-amplitude.title': 'La energía oscila con amplitud ∝ h²: sólido rígido y péndulo esférico doble',
  'lesson.wm-amplitude.source':
    'Wendlandt y Marsden, Mechanical integrators derived from a discrete variational principle (1997), §1 y los ejemplos del sólido rígido y del péndulo esférico doble',
  'lesson.wm-amplitude.caption':
    'La peonza pesada con el DEL de cuaterniones (el sólido rígido de W–M en R⁴ con |q| = 1) y el péndulo esférico doble con el DEL del punto medio, 100 s cada uno, para h = 0.02 … 0.0025 s. La energía oscila alrededor de una constante; la semianchura de su banda cae como h².',
  'lesson.wm-amplitude.see':
    'Dos rectas de pendiente 2 en ejes log–log (se imprimen las pendientes ajustadas). En el sólido rígido libre la energía se conserva hasta el redondeo, por eso la lección usa la peonza en un campo gravitatorio.',
  'lesson.wm-amplitude.docs':
    'Un integrador variacional es el flujo exacto de un hamiltoniano modificado H̃ = H + O(h^r) durante tiempos exponencialmente largos (análisis del error regresivo), así que E_k = H(q_k, p_k) oscila alrededor de la constante H̃ con una amplitud de orden h^r; para estos métodos de segundo orden, r = 2.',
};
