// Spanish for the presets (scenes/presets.json, scenes/rigid_body_presets.json, and the
// `about` of scenes/lagrangian/*.json): preset.<id>.<title|explanation> (web/i18n/index.js).
// Formulas and symbols stay as they are; decimals take a comma, as the filled slots do (Intl).
export default {
  'preset.dsp-energy.title': 'Péndulo doble: energía acotada frente a deriva',
  'preset.dsp-energy.explanation':
    'Observe la gráfica de energía, en escala logarítmica: muestra el mayor error hasta el momento. El error de la regla del punto medio (azul) alcanza su banda en unos segundos ({bandA} a los 20 s) y después no crece nunca. El de RK4 (naranja) empieza mucho menor ({rk20} a los 20 s), pero sube sin parar y supera la banda azul en t = {crossing} (menos de 20 s de observación a 100×). Los dos mantienen la longitud de las varillas; el J_z de RK4 deriva ({jzB} en t = 1000 s), mientras que la regla del punto medio lo conserva hasta {jzA}.',
  'preset.dsp-chaos.title': 'Péndulo doble: caos',
  'preset.dsp-chaos.explanation':
    'Dos integradores variacionales (punto medio, de orden 2, y la regla α = ¼, de orden 1) desde el mismo inicio: los dos mantienen la energía acotada (mayores errores en 40 s: {bandA} y {bandB}) y J_z exacto, pero su diferencia O(h) crece exponencialmente y el fantasma pronto oscila a su manera.',
  'preset.long-run-energy.title': 'Simulación larga: cuando RK4 se queda atrás',
  'preset.long-run-energy.explanation':
    'Un paso más grueso, h = 0,02 s, a velocidad 50×. RK4 es más preciso durante los primeros minutos; el error variacional no crece nunca. En la gráfica de energía en escala logarítmica la banda azul se mantiene plana en {bandA}, mientras que la curva naranja de RK4 sigue subiendo, la cruza en t = {crossing} y llega a {rk600} en t = 600 s.',
  'preset.dsp-energy-momentum.title': 'Péndulo doble: energía exacta (Gonzalez) frente a energía acotada',
  'preset.dsp-energy-momentum.explanation':
    'El esquema de energía–momento (azul) conserva la energía hasta el redondeo (su mayor error en un minuto: {emA}); la regla variacional del punto medio (naranja) la mantiene en una banda acotada O(h²) ({bandB}). Los dos conservan J_z y la longitud de los eslabones. El precio de la energía exacta: la aplicación de energía–momento no es simpléctica.',
  'preset.chain-whip.title': 'Cadena de 8 eslabones soltada en horizontal',
  'preset.chain-whip.explanation':
    'La punta restalla como un látigo. Los dos métodos mantienen la longitud de cada eslabón hasta el redondeo (mayor residuo de las ligaduras en cinco minutos: {linkA} y {linkB}; RK4 devuelve sus bolas a los eslabones tras cada paso). La energía los distingue: el error de la regla del punto medio salta a {whipA} durante los diez primeros segundos del latigazo y después se queda por debajo de {bandA} durante cinco minutos, mientras que el de RK4, mucho menor al principio, deriva hacia abajo sin parar: {rk60} al cabo de un minuto, {rk300} a los cinco.',
  'preset.spherical-precession.title': 'Péndulo esférico: precesión y J_z exacto',
  'preset.spherical-precession.explanation':
    'La órbita de la bola precesa; la simetría de rotación alrededor de la vertical hace de J_z un momento conservado, y el Noether discreto lo mantiene exacto hasta el redondeo con la regla del punto medio (mayor deriva: {jzA}), mientras que el J_z de RK4 deriva lentamente ({jz60} relativo al cabo de un minuto, {jz1000} en t = 1000 s), igual que su energía ({eB}).',
  'preset.pendulum-euler.title': 'Péndulo plano: Euler explícito gana energía',
  'preset.pendulum-euler.explanation':
    'Euler explícito añade energía en cada paso ({e1} al cabo de 1 s, {e5} a los 5 s), así que su oscilación crece hasta que su error de energía supera el 100 % y la página lo detiene, en t = {stop}. El error de energía de la regla del punto medio se queda por debajo de {bandA} y su oscilación conserva la amplitud.',
  'preset.oscillator-phase.title': 'Oscilador: órbita cerrada frente a espiral hacia fuera',
  'preset.oscillator-phase.explanation':
    'Mire el retrato de fase: la órbita de la regla del punto medio se cierra (es simpléctica y conserva exactamente esta energía cuadrática: mayor error {bandA}), la de Euler explícito se abre en espiral (su energía se multiplica por {perStep} en cada paso: {f5} a los 5 s), hasta que se ha más que duplicado y la página lo detiene, en t = {stop}.',
  'preset.dzhanibekov.title': 'Volteo de Dzhanibekov',
  'preset.dzhanibekov.explanation':
    'Giro alrededor del eje intermedio (I2 = 2, entre 1 y 3) con un bamboleo del 1 %: la rotación es inestable y el cuerpo se da la vuelta cada {flip} (medio periodo de Π, 4K/λ), como la tuerca de mariposa en la ISS.',
  'preset.major-axis-spin.title': 'Giro estable alrededor del eje mayor',
  'preset.major-axis-spin.explanation':
    'El mismo cuerpo girando alrededor de su eje de mayor inercia (I3 = 3) con el mismo pequeño bamboleo: el movimiento se mantiene cerca de un giro estacionario, y Π describe círculos cerca de e3 (Π3 no se aleja más de {dev} de su valor inicial).',
  'preset.minor-axis-spin.title': 'Giro estable alrededor del eje menor',
  'preset.minor-axis-spin.explanation':
    'Girando alrededor de su eje de menor inercia (I1 = 1): también es estable para un sólido rígido (el bamboleo sigue siendo pequeño: Π1 no se aleja más de {dev} de su valor inicial), a diferencia de uno flexible, que disiparía energía y acabaría girando alrededor del eje mayor.',
  'preset.tennis-racket.title': 'Raqueta de tenis',
  'preset.tennis-racket.explanation':
    'Una raqueta (kg·m²: 0,0013 a lo largo del mango, 0,015 en el plano de la cara y perpendicular al mango, 0,016 normal a la cara) lanzada a 2 rev/s alrededor del eje del plano de la cara: da media vuelta alrededor del mango en cada volteo, cada {flip}.',
  'preset.symmetric-precession.title': 'Precesión libre de una peonza simétrica',
  'preset.symmetric-precession.explanation':
    'Un cuerpo simétrico achatado y libre (I1 = I2 = 1, I3 = 1,8) cuya velocidad angular forma 14° con su eje de simetría: el eje describe un cono uniforme alrededor del momento angular fijo, mientras que, visto desde el cuerpo, Π gira alrededor del eje de simetría y Π1 cambia de signo cada {half} (el bamboleo libre de Euler de la Tierra es este movimiento).',
  'preset.heavy-top-nutation.title': 'Peonza pesada con nutación',
  'preset.heavy-top-nutation.explanation':
    'Una peonza simétrica (1 kg, centro de masas a 0,5 m sobre su eje) inclinada 0,5 rad, girando a 15 rad/s y soltada sin precesión: el eje baja y sube formando picos (nutación) mientras precesa alrededor de la vertical; J_z y Π3 se quedan en su valor inicial hasta {jz} y {pi3}.',
  'preset.cart-pendulum.title': 'Péndulo sobre un carro deslizante',
  'preset.cart-pendulum.explanation':
    'El carro retrocede cuando la bola oscila: el momento horizontal se conserva exactamente (Noether discreto: mayor deriva {pxA}), así que el centro de masas no se mueve (hasta O(h²): se desplaza como mucho {cmA} m), mientras que el momento de RK4 fluctúa ({pxB}). El error de energía de RK4 todavía no es el mayor: {rk20} a los 20 s frente a {bandA} de la banda del punto medio; pero el de RK4 sigue creciendo ({rkLater} en t = 100 s, y entonces la banda del punto medio {bandLater}).',
  'preset.double-pendulum.title': 'Péndulo doble',
  'preset.double-pendulum.explanation':
    'Soltado desde arriba, el péndulo doble da vueltas de forma caótica: compare dos integradores y vea cómo se separan los movimientos, mientras cada energía se queda en su banda. El error de energía de RK4 todavía no es el mayor: {rk20} a los 20 s frente a {bandA} de la banda del punto medio; pero el de RK4 sigue creciendo ({rkLater} en t = 40 s, y entonces la banda del punto medio {bandLater}).',
  'preset.driven-damped-pendulum.title': 'Péndulo forzado y amortiguado (caótico)',
  'preset.driven-damped-pendulum.explanation':
    "θ'' + θ'/q + sin θ = A cos(ω_D t) con q = 2, A = 1,5, ω_D = 2/3 (Baker y Gollub): el amortiguamiento y el forzamiento entran como fuerzas fuera de L (Lagrange–d'Alembert discreto, M–W §3,2), la energía entra y se disipa, y el movimiento nunca se asienta en un periodo: es caótico, así que la simulación de comparación se separa de él tras unos diez periodos del forzamiento.",
  'preset.elastic-pendulum.title': 'Péndulo elástico',
  'preset.elastic-pendulum.explanation':
    'Observe cómo la energía va y viene entre la oscilación y el estiramiento del muelle mientras el total se queda en una banda estrecha O(h²). El error de energía de RK4 todavía no es el mayor: {rk20} a los 20 s frente a {bandA} de la banda del punto medio; pero el de RK4 sigue creciendo ({rkLater} en t = 40 s, y entonces la banda del punto medio {bandLater}).',
  'preset.fput.title': 'Cadena α de Fermi–Pasta–Ulam–Tsingou (N = 16)',
  'preset.fput.explanation':
    'Toda la energía empieza en el modo 1: solo se reparte por los modos 2–4 (los modos 1–4 siempre guardan al menos {held}) y vuelve al modo 1 (más del 98 % de la energía) en t = {recurrence}, la recurrencia FPU, en lugar de repartirse por igual. La lección empieza en t = 1200 s, con el reparto ya dibujado, y muestra la vuelta a 50×.',
  'preset.henon-heiles.title': 'Hénon–Heiles con E = 1/8',
  'preset.henon-heiles.explanation':
    'Con E = 1/8 la mayoría de las órbitas son caóticas: dos integradores (o dos inicios cercanos) se separan en unos cientos de segundos, pero la energía se queda en una banda estrecha. El error de energía de RK4 todavía no es el mayor: {rk20} a los 20 s frente a {bandA} de la banda del punto medio; pero el de RK4 sigue creciendo ({rkLater} en t = 200 s, y entonces la banda del punto medio {bandLater}).',
  'preset.kapitza.title': 'Péndulo de Kapitza: boca abajo, sostenido por la vibración',
  'preset.kapitza.explanation':
    'El pivote se mueve como a·cos(ωt), así que L depende de t (M–W parte 4) y la energía no se conserva; con a²ω² = 36 por encima de 2gl = 19,6, la vibración rápida hace estable la posición invertida y la bola se balancea despacio a su alrededor: en 20 s su altura se queda entre {low} y {high} (desde el pivote, con l = 1), con los dos integradores (ponga w = 30, por debajo del umbral, y se cae).',
  'preset.kepler.title': 'Órbita de Kepler (e = 0.6)',
  'preset.kepler.explanation':
    'Observe cómo precesa lentamente el perihelio (un error de fase O(h²): {turnA} rad en 300 s, frente a {turnB} con RK4): la órbita gira, pero nunca decae ni crece, y Lz es exacto ({LzA}), mientras que el Lz de RK4 deriva ({LzB} en t = 300 s). El error de energía de RK4 todavía no es el mayor: {rk20} a los 20 s frente a {bandA} de la banda del punto medio; pero el de RK4 sigue creciendo ({rkLater} en t = 300 s, y entonces la banda del punto medio {bandLater}).',
  'preset.quartic-kinetic.title': 'Una energía cinética con un término |q̇|⁴',
  'preset.quartic-kinetic.explanation':
    'La energía cinética m|q̇|²/2 + b|q̇|⁴/4 hace que p = (m + b|q̇|²) q̇ no sea lineal en q̇ (la rapidez llega a {vmax}), así que cada paso recupera q̇ a partir de p con Newton. L es invariante bajo rotaciones: la regla del punto medio conserva Lz hasta el redondeo ({LzA} en 400 s), mientras que el Lz de RK4 deriva ({LzB} en t = 400 s); el error de energía del punto medio se queda en una banda ({bandA}) y el de RK4 crece ({rkLater} en t = 400 s).',
  'preset.relativistic-particle.title': 'Partícula relativista en un pozo anarmónico',
  'preset.relativistic-particle.explanation':
    'L = −√(1 − |q̇|²) − V(q): el momento p = q̇/√(1 − |q̇|²) pasa de 1 y llega a {pmax} en 100 s mientras la rapidez se queda por debajo de 1 (como mucho {vmax}): cada paso recupera q̇ a partir de p con un Newton amortiguado que reduce su paso a la mitad antes que salir de |q̇| < 1. El error de energía de la regla del punto medio se queda en una banda ({bandA} en 100 s, {bandLater} en 500 s: {bandGrowth}); el de RK4 empieza mucho menor ({rk100}) pero no deja de crecer ({rkLater} en t = 500 s, {rkGrowth}).',
  'preset.newmark-vs-rk4.title': 'Newmark variacional frente a RK4 (Marsden–West, fig. 1)',
  'preset.newmark-vs-rk4.explanation':
    'Un péndulo (ω = 2 rad/s) con un paso grueso, h = 0,3 s, durante 300 s a velocidad 25×: la energía de RK4 (naranja) decae sin parar ({rk300} en t = 300 s), como si el péndulo tuviera rozamiento, y su error supera la banda de Newmark en t = {crossing}. Newmark variacional (γ = ½, β = 0, es decir, Verlet; azul) comete al principio un error mayor en cada paso, pero su energía solo oscila en una banda (como mucho {bandA}) y vuelve, indefinidamente. Incluso a igual coste (RK4 evalúa la fuerza 4 veces por paso, así que dé a Newmark h/4) la lección se mantiene: un método variacional no disipa energía artificialmente.',
  'preset.rotating-hoop.title': 'Cuenta en un aro que gira (ω por encima de √(g/R))',
  'preset.rotating-hoop.explanation':
    'Por encima de ω = √(g/R) el fondo es inestable: la cuenta lo abandona y oscila alrededor del equilibrio inclinado cos θ* = g/(Rω²). El error de energía de RK4 todavía no es el mayor: {rk20} a los 20 s frente a {bandA} de la banda del punto medio; pero el de RK4 sigue creciendo ({rkLater} en t = 40 s, y entonces la banda del punto medio {bandLater}).',
  'preset.swinging-atwood.title': 'Máquina de Atwood oscilante',
  'preset.swinging-atwood.explanation':
    'Una masa ligera que oscila sostiene un contrapeso 3,3 veces más pesado: observe cómo el tirón centrífugo de la oscilación lo levanta mientras la masa ligera da vueltas alrededor de la polea y regresa. El error de energía de RK4 todavía no es el mayor: {rk20} a los 20 s frente a {bandA} de la banda del punto medio; pero el de RK4 sigue creciendo ({rkLater} en t = 200 s, y entonces la banda del punto medio {bandLater}).',
  'preset.compound-double-pendulum.title': 'Péndulo doble compuesto (varillas con inercia)',
  'preset.compound-double-pendulum.explanation':
    'El péndulo doble esférico con varillas reales en lugar de bolas puntuales: cada varilla tiene su inercia y gira en SO(3), y las dos rótulas son seis ligaduras impuestas con multiplicadores. Las uniones se mantienen cerradas hasta el redondeo, el momento angular vertical se conserva hasta el redondeo y el error de energía se queda en una banda sin deriva.',
  'preset.physical-pendulum.title': 'Péndulo físico sobre una rótula',
  'preset.physical-pendulum.explanation':
    'Una placa cuelga de una rótula cerca de su esquina y gira sobre su eje largo mientras oscila: la oscilación y el giro intercambian energía. El integrador variacional en grupos de Lie avanza la propia rotación de la placa (sigue siendo una rotación), mantiene la rótula cerrada hasta el redondeo y su error de energía se queda en una banda; el momento angular respecto a la vertical por la rótula se conserva.',
  'preset.lagrange-top.title': 'Peonza de Lagrange construida con sólidos y uniones',
  'preset.lagrange-top.explanation':
    'Una peonza simétrica sobre una rótula, construida como un sólido y una unión en lugar de la peonza pesada incorporada. Es el mismo integrador variacional: las pruebas comprueban que esta simulación coincide con la de la peonza pesada incorporada hasta 1e-12 tras 10 000 pasos. El eje nuta mientras precesa; la energía se queda en una banda y el momento angular vertical se conserva hasta el redondeo.',
  'preset.gravity-gradient-satellite.title': 'Satélite que libra en una órbita circular (par de gradiente de gravedad)',
  'preset.gravity-gradient-satellite.explanation':
    'Un satélite sujeto por su centro de masas recorre una órbita circular a n = 1 rad/s en torno a z. La gravedad tira más de su extremo cercano que del lejano: un potencial (3n²/2) e_rᵀ R J Rᵀ e_r en su matriz de rotación y en t, con e_r la dirección de la Tierra. Su menor momento (A = 1,5) apunta a la Tierra, el mayor (C = 3) según la normal a la órbita, y un pequeño empujón en cabeceo lo hace oscilar en torno a la dirección de la Tierra. La teoría lineal (Hughes) da ω = n√(3(B − A)/C) = 0,707 n; las pruebas miden la oscilación de esta simulación dentro del 0,2 % de ese valor. La energía no se conserva (el potencial gira con la órbita), pero la integral de Jacobi H − n L_z sí: el integrador en grupos de Lie la mantiene en una banda sin deriva durante 318 órbitas, mientras que el error de RK4 con el mismo paso crece sin parar.',
  'preset.gyroscope.title': 'Giróscopo en dos cardanes',
  'preset.gyroscope.explanation':
    'Un rotor rápido en dos anillos de cardán, cada uno sobre una bisagra, todos centrados en el origen: la gravedad no ejerce par, así que el eje de giro del rotor mantiene su dirección en el espacio mientras los anillos giran a su alrededor. Tres bisagras son quince ligaduras sobre tres sólidos; las uniones se mantienen cerradas hasta el redondeo y la energía en una banda.',
  'preset.middle-axis.title': 'La manivela en T girando alrededor de su eje intermedio (Dzhanibekov)',
  'preset.middle-axis.explanation':
    'Una manivela en T (un travesaño de 0,4 m y un vástago de 0,3 m, 1 kg de varillas delgadas) que gira alrededor de su travesaño, el eje principal intermedio, se voltea una y otra vez. Aquí el integrador variacional en grupos de Lie es el sólido rígido discreto de Moser–Veselov: conserva el momento angular en el espacio y su módulo hasta el redondeo, así que los volteos se repiten sin deriva.',
  'preset.breather.title': 'Respirón de seno-Gordon',
  'preset.breather.explanation':
    'Un respirón u = 4 atan(k sen(ωt)/(ω cosh kx)), ω = 0,8, k = 0,6, que parte de u = 0 con su velocidad: un kink y un antikink ligados que oscilan en su sitio con periodo 2π/ω ≈ 7,85. El salto de rana mantiene su energía en una banda.',
  'preset.kink-antikink.title': 'Un kink y un antikink de seno-Gordon se atraviesan',
  'preset.kink-antikink.explanation':
    'Un kink desde la izquierda y un antikink desde la derecha, cada uno a la mitad de la velocidad de la luz, se encuentran en t = 20: se atraviesan (entre ellos u pasa de 2π a −2π) y salen con sus formas y velocidades, solo desplazados en el tiempo: los solitones de una ecuación integrable. El esquema de caja multisimpléctico mantiene la energía durante la colisión.',
  'preset.klein-gordon.title': 'Klein–Gordon: un bulto se dispersa',
  'preset.klein-gordon.explanation':
    'Con un término de masa ½m²u², las ondas de distinta longitud viajan a distinta velocidad (ω² = k² + m²): un bulto soltado en reposo se divide y se extiende en un tren de ondulaciones en lugar de dos copias de sí mismo que viajan. El salto de rana mantiene la energía en una banda; con extremos periódicos y V ≠ 0 el momento Σp no se conserva (el término de masa devuelve u hacia 0).',
  'preset.nonlinear-string.title': 'Cuerda no lineal a gran amplitud (esquema de caja)',
  'preset.nonlinear-string.explanation':
    'La energía de estiramiento verdadera de la cuerda, √(1 + u_x²), escrita como la densidad ℒ = ½u_t² − √(1 + u_x²) y pulsada hasta 0,09 (pendientes de hasta 0,3): a esta amplitud la ecuación de ondas lineal ya no vale, y las ondas cortas del pulso viajan a velocidades que dependen de la pendiente. El esquema de caja multisimpléctico (la densidad discreta del punto medio) avanza la densidad escrita con sus derivadas compiladas; su energía se queda en una banda.',
  'preset.phi4-kink.title': 'Kink de φ⁴',
  'preset.phi4-kink.explanation':
    'El kink de φ⁴ u = tanh(γ(x − 15 − vt)/√2), v = 0,3, une los dos vacíos u = −1 y u = 1 de V = ¼(u² − 1)² y se mueve a velocidad constante. El salto de rana lo lleva a través de la malla con su energía en una banda.',
  'preset.plucked-string.title': 'Cuerda pulsada: salto de rana frente a RK4',
  'preset.plucked-string.explanation':
    'Una cuerda fija por ambos extremos, pulsada a 0,3 de su longitud por un dedo de punta redondeada y soltada. El salto de rana (la densidad discreta del trapecio, Störmer–Verlet) mantiene la energía discreta en una banda estrecha mientras dure la simulación; RK4 con la misma malla y el mismo paso, la comparación, amortigua las ondas cortas del pulso y su energía deriva hacia abajo.',
  'preset.sine-gordon-kink.title': 'Kink de seno-Gordon a la mitad de la velocidad de la luz',
  'preset.sine-gordon-kink.explanation':
    'Un kink u = 4 atan(exp(γ(x − 10 − vt))), v = 0,5, es una solución viajera exacta de seno-Gordon: gira u en 2π y se mueve sin cambiar de forma, contraído por γ = 1/√(1 − v²) como pide Lorentz. El esquema de caja lo lleva a través de la malla; su energía se queda en una banda.',
  'preset.stiff-string.title': 'AVI: pasos pequeños solo donde la cuerda es rígida',
  'preset.stiff-string.explanation':
    'Una cuerda fija por ambos extremos y pulsada a 0,3 de su longitud, con un tramo de x = 0,6 a 0,8 dieciséis veces más rígido (κ = 16: allí las ondas van cuatro veces más rápido). Con h = 0,004 s un paso es el doble del límite de estabilidad de las celdas rígidas: el salto de rana (B) explota en sus primeros pasos, y la página lo detiene en t = {stop}. El integrador variacional asíncrono (A) toma el paso de cada celda de su propio límite: 5 pasos por h en el tramo rígido y uno en el resto, y su energía se queda a menos de {band} de la inicial. El salto de rana con h/5 en toda la cuerda también es estable, pero hace 2,8 veces más actualizaciones de celdas.',
  'preset.whirling-string.title': 'Cuerda que gira: dos componentes y una carga de Noether (esquema de caja)',
  'preset.whirling-string.explanation':
    'Dos desplazamientos transversales u, v de una cuerda, ℒ = ½(u_t² + v_t²) − (√(1 + u_x² + v_x²) − 1), con la rotación (u, v) ↦ (−v, u) declarada como su simetría: pulsada hasta a = 0,1 en u y lanzada de lado en v, gira alrededor de su eje. El esquema de caja resuelve cada fila por Newton con bloques de 2 × 2 y conserva la carga de Noether de la rotación J_rotation = Σ(u p_v − v p_u) hasta el redondeo (cambio máximo {drift} en 20 s), y su energía en una banda (error relativo máximo {band}).',
};
