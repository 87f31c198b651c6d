// Español de la capa docente (web/sim/activities.js, web/ui/activity.js): la tarjeta de
// predicción, la actividad imprimible y, para cada preajuste y lección, la pregunta, las
// opciones, qué medir y la respuesta (activity.<preset|lesson>.<id>.<campo>).
export default {
  'activity.title': 'Primero, prediga',
  'activity.reopen': 'Predicción y actividad',
  'activity.embed': 'Pedir una predicción al elegir un ejemplo o una lección (predict=1)',
  'activity.play': 'Reproducir para verlo',
  'activity.reveal': 'Mostrar la respuesta',
  'activity.print': 'Imprimir actividad',
  'activity.print.title': 'Una actividad de una página para esta lección: preparación, predicción, qué medir, respuesta',
  'activity.close': 'Cerrar la predicción',
  'activity.choices': 'Su predicción',
  'activity.chosen': 'Su predicción: {choice}.',
  'activity.right': 'Su predicción era correcta.',
  'activity.wrong': 'La simulación muestra otra cosa.',
  'activity.none': 'No se hizo ninguna predicción.',
  'activity.answerIs': 'Respuesta: {choice}.',
  'activity.held': 'La simulación espera a su predicción: pulse reproducir para verlo.',
  'activity.choice.A': '{a} (A, azul)',
  'activity.choice.B': '{b} (B, naranja)',
  'activity.choice.both': 'Los dos',
  'activity.choice.neither': 'Ninguno',

  'activity.sheet.kind.preset': 'Actividad de vilab',
  'activity.sheet.kind.lesson': 'Actividad de una lección de vilab',
  'activity.sheet.name': 'Nombre: ____________________   Fecha: __________',
  'activity.sheet.setup': '1. Preparación',
  'activity.sheet.system': 'Sistema',
  'activity.sheet.a': 'Integrador A (azul)',
  'activity.sheet.b': 'Integrador B (fantasma naranja)',
  'activity.sheet.noB': 'ninguno',
  'activity.sheet.h': 'Paso de tiempo h',
  'activity.sheet.speed': 'Velocidad',
  'activity.sheet.source': 'Fuente',
  'activity.sheet.link': 'Abra este enlace (prepara la simulación):',
  'activity.sheet.predict': '2. Prediga (antes de pulsar reproducir)',
  'activity.sheet.tick': 'Marque una opción y explique por qué:',
  'activity.sheet.why': 'Por qué: ____________________________________________________________',
  'activity.sheet.measure': '3. Mida',
  'activity.sheet.record': 'Sus medidas: _________________________________________________________',
  'activity.sheet.answer': '4. Respuesta (para comprobar después)',
  'activity.sheet.footer': 'Hecho con vilab, el laboratorio de integradores variacionales.',
  'activity.sheet.jump': ', empezando en t = {t} s',
  'activity.sheet.menu.preset': 'O abra vilab ({url}) y elija «{title}» en el menú Ejemplo.',
  'activity.sheet.menu.lesson': 'O abra vilab ({url}), pulse Estudios y elija la lección «{title}».',

  // ---- preajustes
  'activity.preset.dsp-energy.question': 'En una simulación larga, ¿qué error de energía sigue creciendo?',
  'activity.preset.dsp-energy.measure':
    'En la gráfica de energía (el mayor error hasta el momento, escala logarítmica), lea el error de A y el de B en dos instantes muy separados, p. ej. t = 300 s y t = 1800 s. ¿Cuál creció entre ellos, y cuánto?',
  'activity.preset.dsp-energy.answer':
    'B. La regla del punto medio (A) es variacional: su error de energía alcanza una banda en unos segundos y no sale nunca de ella. RK4 (B) empieza mucho más preciso, pero no es simpléctico, así que su error sube sin parar y al final supera la banda.',
  'activity.preset.dsp-chaos.question': 'Los dos métodos mantienen la energía acotada. ¿Seguirán moviéndose juntos los dos péndulos?',
  'activity.preset.dsp-chaos.choice.together': 'Sí, siguen juntos',
  'activity.preset.dsp-chaos.choice.apart': 'No, se separan',
  'activity.preset.dsp-chaos.measure':
    'Anote el instante en que el fantasma naranja se aparta a simple vista del péndulo azul. En ese instante, lea los dos errores de energía: ¿siguen siendo pequeños?',
  'activity.preset.dsp-chaos.answer':
    'Se separan. Los dos métodos difieren en una cantidad pequeña, O(h), y en un sistema caótico las diferencias pequeñas crecen exponencialmente, así que el fantasma pronto oscila a su manera. Aun así, los dos errores de energía se quedan en sus bandas: ser variacional acota la energía, no la trayectoria.',
  'activity.preset.long-run-energy.question': '¿Qué método tiene el menor error de energía tras diez minutos de movimiento?',
  'activity.preset.long-run-energy.measure':
    'En la gráfica de energía, busque el instante en que la curva naranja de B cruza la banda azul de A. Después lea los dos errores en t = 600 s.',
  'activity.preset.long-run-energy.answer':
    'A. RK4 (B) es más preciso al principio, pero su error no deja de subir, mientras que el de la regla del punto medio (A) se queda en una banda plana; la curva naranja cruza la banda a los pocos minutos y sigue por encima.',
  'activity.preset.dsp-energy-momentum.question': '¿Qué método conserva la energía hasta el redondeo (errores cercanos a 1e−15)?',
  'activity.preset.dsp-energy-momentum.measure':
    'En la gráfica logarítmica de energía, lea el tamaño de cada error de energía al cabo de 60 s. Después mire J_z y el residuo de las ligaduras de los dos.',
  'activity.preset.dsp-energy-momentum.answer':
    'A. El esquema de energía–momento (A) conserva la energía hasta el redondeo por construcción; la regla del punto medio (B) la mantiene en una banda acotada O(h²). Los dos conservan J_z y la longitud de las varillas. El precio de la energía exacta: la aplicación de energía–momento no es simpléctica.',
  'activity.preset.chain-whip.question':
    'Los dos métodos mantienen la longitud de cada eslabón. ¿Qué error de energía muestra una tendencia sostenida?',
  'activity.preset.chain-whip.measure':
    'Lea el residuo de las ligaduras de A y de B. Después lea los dos errores de energía al cabo de un minuto y de cinco minutos: ¿cuál cambió siempre en el mismo sentido?',
  'activity.preset.chain-whip.answer':
    'B. Los dos mantienen los eslabones hasta el redondeo (RK4 se proyecta de vuelta sobre ellos tras cada paso). El error de energía de la regla del punto medio (A) salta durante el latigazo y después se queda acotado, sin tendencia; el de RK4 (B), mucho menor al principio, deriva sin parar en un mismo sentido.',
  'activity.preset.spherical-precession.question':
    '¿Qué momento angular J_z respecto a la vertical se queda exactamente en su valor inicial?',
  'activity.preset.spherical-precession.measure':
    'En la gráfica de momentos, lea el cambio relativo de J_z de A y de B al cabo de 60 s, y otra vez mucho más tarde.',
  'activity.preset.spherical-precession.answer':
    'A. La simetría de rotación alrededor de la vertical hace de J_z un momento conservado, y el teorema de Noether discreto lo mantiene exacto (hasta el redondeo) con la regla del punto medio. El J_z de RK4 (B) deriva lentamente, igual que su energía.',
  'activity.preset.pendulum-euler.question': '¿Qué hará el péndulo de Euler explícito (B)?',
  'activity.preset.pendulum-euler.choice.keeps': 'Mantener su oscilación',
  'activity.preset.pendulum-euler.choice.dies': 'Oscilar cada vez menos',
  'activity.preset.pendulum-euler.choice.grows': 'Oscilar cada vez más alto',
  'activity.preset.pendulum-euler.measure':
    'Lea el error de energía de B en t = 1 s y en t = 5 s. Anote cuándo B da la vuelta completa, y cuándo y por qué se detiene su simulación. Compare con el error de energía de A.',
  'activity.preset.pendulum-euler.answer':
    'Oscila cada vez más alto. Euler explícito añade energía en cada paso, así que la oscilación crece hasta que el péndulo da la vuelta completa y gira cada vez más deprisa, hasta que la simulación se detiene. El error de energía de la regla del punto medio (A) se queda pequeño y su oscilación conserva la amplitud.',
  'activity.preset.oscillator-phase.question':
    'En el retrato de fase (posición frente a momento), ¿qué órbita se abre en espiral hacia fuera?',
  'activity.preset.oscillator-phase.measure':
    'En el retrato de fase, compara cada órbita tras una vuelta y al cabo de 10 s. Lea el error de energía de B en t = 10 s.',
  'activity.preset.oscillator-phase.answer':
    'B. La regla del punto medio (A) es simpléctica y conserva exactamente esta energía cuadrática, así que su órbita se cierra sobre sí misma; la energía de Euler explícito (B) crece en un factor fijo en cada paso, así que su órbita se abre en espiral.',
  'activity.preset.dzhanibekov.question': 'El cuerpo gira alrededor de su eje intermedio con un bamboleo minúsculo. ¿Qué ocurre?',
  'activity.preset.dzhanibekov.choice.steady': 'Sigue girando de forma estable',
  'activity.preset.dzhanibekov.choice.flips': 'Se da la vuelta una y otra vez, con regularidad',
  'activity.preset.dzhanibekov.choice.tumbles': 'Da tumbos al azar',
  'activity.preset.dzhanibekov.measure':
    'Cronometre varios volteos con el reloj (t en la esquina) y halle el tiempo entre volteos. Observe Π en la esfera de momentos durante un volteo.',
  'activity.preset.dzhanibekov.answer':
    'Se da la vuelta una y otra vez, a intervalos regulares. La rotación alrededor del eje intermedio es inestable: el bamboleo minúsculo crece, el cuerpo se voltea y el movimiento se repite periódicamente (Π viaja entre los dos puntos inestables de la esfera de momentos), como la tuerca de mariposa filmada en la ISS.',
  'activity.preset.major-axis-spin.question':
    'El mismo cuerpo, girando alrededor de su eje de mayor inercia con el mismo bamboleo. ¿Se voltea?',
  'activity.preset.major-axis-spin.choice.steady': 'No, sigue cerca de un giro estable',
  'activity.preset.major-axis-spin.choice.flips': 'Sí, se da la vuelta una y otra vez',
  'activity.preset.major-axis-spin.measure':
    'Observe Π en la esfera de momentos: ¿cuánto se aleja de su inicio? Compare con el ejemplo del volteo de Dzhanibekov.',
  'activity.preset.major-axis-spin.answer':
    'No. La rotación alrededor del eje de mayor inercia es estable: el bamboleo sigue pequeño y Π da vueltas cerca de su inicio en la esfera de momentos.',
  'activity.preset.minor-axis-spin.question':
    'Girando alrededor de su eje de menor inercia con un bamboleo pequeño: ¿se voltea este sólido rígido?',
  'activity.preset.minor-axis-spin.choice.steady': 'No, sigue cerca de un giro estable',
  'activity.preset.minor-axis-spin.choice.flips': 'Sí, se da la vuelta una y otra vez',
  'activity.preset.minor-axis-spin.measure': 'Observe Π en la esfera de momentos y el cuerpo durante un minuto: ¿cuánto crece el bamboleo?',
  'activity.preset.minor-axis-spin.answer':
    'No. Para un sólido rígido, la rotación alrededor del eje de menor inercia también es estable; solo el eje intermedio es inestable. (Un cuerpo flexible perdería energía y acabaría girando alrededor del eje mayor.)',
  'activity.preset.tennis-racket.question':
    'Se lanza una raqueta girando alrededor del eje que está en el plano de su cara, perpendicular al mango. ¿Qué más hace?',
  'activity.preset.tennis-racket.choice.plain': 'Nada: solo gira',
  'activity.preset.tennis-racket.choice.twist': 'Da media vuelta alrededor del mango, una y otra vez',
  'activity.preset.tennis-racket.measure':
    'Cuente las medias vueltas alrededor del mango durante 10 s y cronometra el intervalo entre ellas.',
  'activity.preset.tennis-racket.answer':
    'Da media vuelta alrededor del mango en cada volteo. Ese eje es el eje intermedio de inercia, así que el giro alrededor de él es inestable (el teorema de la raqueta de tenis).',
  'activity.preset.symmetric-precession.question': 'Sobre este cuerpo simétrico no actúa ningún par. ¿Qué hace su eje de simetría?',
  'activity.preset.symmetric-precession.choice.fixed': 'Se queda fijo en el espacio',
  'activity.preset.symmetric-precession.choice.cone': 'Gira de forma uniforme sobre un cono',
  'activity.preset.symmetric-precession.choice.flips': 'Se da la vuelta',
  'activity.preset.symmetric-precession.measure':
    'Cronometre una vuelta del eje de simetría alrededor de su cono y compárela con 2π I1/|Π| (lea |Π| en la simulación).',
  'activity.preset.symmetric-precession.answer':
    'Gira de forma uniforme sobre un cono alrededor del momento angular fijo, con velocidad |Π|/I1: la precesión libre, el movimiento del bamboleo libre de Euler de la Tierra.',
  'activity.preset.heavy-top-nutation.question': 'Soltada sin precesión, ¿qué hace el eje de la peonza?',
  'activity.preset.heavy-top-nutation.choice.falls': 'Se cae',
  'activity.preset.heavy-top-nutation.choice.smooth': 'Da vueltas alrededor de la vertical de forma suave',
  'activity.preset.heavy-top-nutation.choice.cusps': 'Baja y sube en cúspides mientras da vueltas alrededor de la vertical',
  'activity.preset.heavy-top-nutation.measure':
    'Observe la punta del eje. Cronometre una bajada (nutación) y una vuelta completa alrededor de la vertical (precesión).',
  'activity.preset.heavy-top-nutation.answer':
    'Baja y sube en cúspides (nutación) mientras precesa alrededor de la vertical. Soltada en reposo salvo por su giro, el eje empieza cada bajada desde el reposo, y eso dibuja las cúspides.',
  'activity.preset.cart-pendulum.question':
    'El carro retrocede cuando la bola oscila. ¿Qué momento horizontal total se queda exactamente en su valor inicial?',
  'activity.preset.cart-pendulum.measure': 'En la gráfica de momentos, lea el cambio del momento horizontal de A y de B al cabo de 60 s.',
  'activity.preset.cart-pendulum.answer':
    'A. Desplazar todo el sistema de lado no cambia nada, así que el momento horizontal se conserva; el teorema de Noether discreto lo mantiene exacto con la regla del punto medio (A), y el centro de masas no se mueve. El momento de RK4 (B) deriva.',
  'activity.preset.double-pendulum.question': 'A y B parten del mismo estado. ¿Seguirán moviéndose juntos los dos péndulos dobles?',
  'activity.preset.double-pendulum.choice.together': 'Sí, siguen juntos',
  'activity.preset.double-pendulum.choice.apart': 'No, se separan',
  'activity.preset.double-pendulum.measure':
    'Anote el instante en que los dos péndulos se separan a simple vista. Lea entonces los dos errores de energía: ¿pierde la energía alguno de los métodos?',
  'activity.preset.double-pendulum.answer':
    'Se separan: soltado desde arriba, el péndulo doble es caótico, así que la diferencia minúscula entre los dos métodos crece hasta que los movimientos no se parecen en nada. Cada energía sigue en su banda.',
  'activity.preset.driven-damped-pendulum.question':
    'El péndulo está forzado y amortiguado. ¿Acabará su movimiento en un ritmo que se repite?',
  'activity.preset.driven-damped-pendulum.choice.settles': 'Sí, acaba en un ritmo',
  'activity.preset.driven-damped-pendulum.choice.never': 'No, nunca se repite',
  'activity.preset.driven-damped-pendulum.measure':
    'Observe el retrato de fase durante varios periodos del forzamiento. Anote cuándo la simulación de comparación (B) se separa de A.',
  'activity.preset.driven-damped-pendulum.answer':
    'Nunca se asienta: con estos valores el péndulo forzado y amortiguado es caótico. La energía entra y se disipa, así que no se conserva, y la simulación de comparación se separa de A tras unos pocos periodos del forzamiento.',
  'activity.preset.elastic-pendulum.question': 'La energía pasa de la oscilación al muelle y vuelve. ¿Qué error de energía total deriva?',
  'activity.preset.elastic-pendulum.measure':
    'Lea los dos errores de energía en dos instantes muy separados. Fíjese en la tendencia, no en el tamaño: al principio el error de RK4 puede ser el menor.',
  'activity.preset.elastic-pendulum.answer':
    'B. El error de energía total de la regla del punto medio (A) se queda en una banda fina O(h²) por mucho que la energía pase de la oscilación al estiramiento; el de RK4 (B), pequeño al principio, deriva sin parar.',
  'activity.preset.fput.question': 'Toda la energía empieza en el modo más bajo de la cadena. ¿Dónde estará mucho más tarde?',
  'activity.preset.fput.choice.spreads': 'Repartida por igual entre todos los modos',
  'activity.preset.fput.choice.returns': 'En unos pocos modos bajos, y después de vuelta en el primero',
  'activity.preset.fput.choice.stays': 'Toda en el primer modo, siempre',
  'activity.preset.fput.measure':
    'En la tarjeta de energías de los modos, siga la parte del modo 1 con el tiempo. Halle cuándo vuelve cerca de su valor inicial.',
  'activity.preset.fput.answer':
    'Se reparte solo entre unos pocos modos bajos y después vuelve casi entera al modo 1: la recurrencia de Fermi–Pasta–Ulam–Tsingou, en lugar del reparto por igual (equipartición) que esperaban los experimentadores.',
  'activity.preset.henon-heiles.question': 'A esta energía, ¿seguirán juntas las órbitas de A y de B?',
  'activity.preset.henon-heiles.choice.together': 'Sí, siguen juntas',
  'activity.preset.henon-heiles.choice.apart': 'No, se separan',
  'activity.preset.henon-heiles.measure': 'Anote cuándo se separan las dos órbitas. Lea los dos errores de energía en ese instante.',
  'activity.preset.henon-heiles.answer':
    'Se separan: a esta energía la mayoría de las órbitas son caóticas, así que dos integradores (o dos inicios cercanos) se apartan. La energía sigue en una banda fina.',
  'activity.preset.kapitza.question': 'El péndulo empieza casi boca abajo, con su pivote sacudido deprisa arriba y abajo. ¿Qué ocurre?',
  'activity.preset.kapitza.choice.falls': 'Se cae',
  'activity.preset.kapitza.choice.stays': 'Se queda arriba, balanceándose despacio en torno a la vertical',
  'activity.preset.kapitza.measure':
    'Observe el ángulo en el retrato de fase durante un minuto. Después baje la frecuencia de la sacudida w a 30 y vuelva a simular.',
  'activity.preset.kapitza.answer':
    'Se queda arriba: una sacudida lo bastante rápida hace estable la posición invertida, y la bola se balancea despacio en torno a ella. Con w = 30 la sacudida es demasiado débil y se cae. La energía no se conserva: L depende del tiempo.',
  'activity.preset.kepler.question': '¿Qué hace la órbita de la regla del punto medio (A) a lo largo de muchas vueltas?',
  'activity.preset.kepler.choice.decays': 'Se cierra en espiral hacia dentro',
  'activity.preset.kepler.choice.turns': 'Conserva su forma pero gira despacio',
  'activity.preset.kepler.choice.grows': 'Se abre en espiral hacia fuera',
  'activity.preset.kepler.measure':
    'Anote la dirección del punto más cercano (perihelio) tras cada vuelta. Lea el cambio de Lz de A y de B.',
  'activity.preset.kepler.answer':
    'Conserva su forma y gira despacio: el perihelio precesa (un error de fase O(h²)) mientras la órbita ni decae ni crece y Lz sigue exacto. Lz y la energía de RK4 (B) derivan.',
  'activity.preset.newmark-vs-rk4.question': 'Con este paso grueso, ¿qué energía decaerá como si hubiera rozamiento?',
  'activity.preset.newmark-vs-rk4.measure': 'Lea la energía de A y de B, relativa a la inicial, en t = 100 s, 200 s y 300 s.',
  'activity.preset.newmark-vs-rk4.answer':
    'B. La energía de RK4 decae sin parar, como si el péndulo tuviera rozamiento. Newmark variacional (A) comete más error por paso, pero su energía solo oscila en una banda y vuelve.',
  'activity.preset.relativistic-particle.question':
    'El momento p = q̇/√(1 − |q̇|²) puede crecer sin límite. Cuando pasa de 1, ¿llega la rapidez |q̇| a 1?',
  'activity.preset.relativistic-particle.choice.reaches': 'Sí, la rapidez llega a 1',
  'activity.preset.relativistic-particle.choice.below': 'No, la rapidez se queda por debajo de 1',
  'activity.preset.relativistic-particle.measure':
    'Lea en la gráfica el mayor momento y la mayor rapidez, y la banda del error de energía.',
  'activity.preset.relativistic-particle.answer':
    'La rapidez se queda por debajo de 1 mientras el momento pasa de 1,5: cada paso recupera q̇ a partir de p con un Newton amortiguado que reduce su paso a la mitad antes que salir de |q̇| < 1, y el error de energía se queda en una banda.',
  'activity.preset.quartic-kinetic.question': 'L es simétrico bajo rotaciones. ¿Qué integrador conserva el momento angular Lz?',
  'activity.preset.quartic-kinetic.measure': 'Lea la deriva de Lz de A y de B en la gráfica de momento.',
  'activity.preset.quartic-kinetic.answer':
    'La regla del punto medio (A) conserva Lz hasta el redondeo, haga lo que haga el término |q̇|⁴ con el momento; RK4 (B) lo deja derivar.',
  'activity.preset.rotating-hoop.question': 'El aro gira más deprisa que √(g/R). ¿En torno a dónde oscila la cuenta?',
  'activity.preset.rotating-hoop.choice.bottom': 'En torno al punto más bajo del aro',
  'activity.preset.rotating-hoop.choice.tilted': 'En torno a un punto en el costado',
  'activity.preset.rotating-hoop.choice.top': 'En torno al punto más alto del aro',
  'activity.preset.rotating-hoop.measure': 'Lea el ángulo en torno al que oscila la cuenta y compárelo con arccos(g/(Rω²)).',
  'activity.preset.rotating-hoop.answer':
    'En torno a un punto en el costado. Por encima de ω = √(g/R) el punto más bajo es inestable: la cuenta lo abandona y oscila en torno al equilibrio inclinado cos θ* = g/(Rω²).',
  'activity.preset.swinging-atwood.question':
    'Una masa ligera que oscila cuelga frente a un contrapeso mucho más pesado. ¿Qué hace el contrapeso?',
  'activity.preset.swinging-atwood.choice.falls': 'Cae y sube la masa ligera',
  'activity.preset.swinging-atwood.choice.held': 'La oscilación lo sostiene',
  'activity.preset.swinging-atwood.measure': 'Observe la altura del contrapeso y el camino de la masa ligera durante un minuto.',
  'activity.preset.swinging-atwood.answer':
    'La oscilación lo sostiene: el tirón centrífugo de la oscilación sobre la cuerda levanta el contrapeso, mientras la masa ligera da vueltas alrededor de la polea y regresa.',

  // ---- lecciones
  'activity.lesson.mw-newmark-rk4.question': 'Con el paso grueso h = 0.3 s, ¿qué energía decaerá a lo largo de 300 s?',
  'activity.lesson.mw-newmark-rk4.measure': 'Lea la energía de cada curva al final de la figura, relativa a la inicial.',
  'activity.lesson.mw-newmark-rk4.answer':
    'B. La energía de RK4 cae y no vuelve nunca, como si hubiera rozamiento; Newmark variacional (A) oscila en una banda y vuelve.',
  'activity.lesson.mw-string-energy.question':
    'La cuerda pulsada avanza 10⁵ pasos con el mismo h. ¿Qué energía sale de la ventana que llenó en la primera décima del cálculo?',
  'activity.lesson.mw-string-energy.measure':
    'Lea los dos cocientes de ventanas de energía impresos bajo la figura (máx − mín de E − E₀ en todo el cálculo dividido por el de su primera décima) y dónde termina cada curva.',
  'activity.lesson.mw-string-energy.answer':
    'B. La energía de RK4 baja sin parar, así que su ventana se sigue ensanchando y su cociente es varias veces 1; la del salto de rana (A) oscila en la banda que llena pronto, cociente cerca de 1.',
  'activity.lesson.multisymplectic-law.question':
    'En el respirón de seno-Gordon, no lineal, ¿qué métodos cumplen la ley de conservación multisimpléctica discreta hasta el redondeo?',
  'activity.lesson.multisymplectic-law.choice.box': 'Solo el esquema de caja',
  'activity.lesson.multisymplectic-law.choice.variational': 'El esquema de caja y el salto de rana',
  'activity.lesson.multisymplectic-law.choice.all': 'Los tres, también RK4',
  'activity.lesson.multisymplectic-law.measure':
    'Lea las tres curvas en el eje logarítmico y los mayores residuos impresos bajo la figura.',
  'activity.lesson.multisymplectic-law.answer':
    'El esquema de caja y el salto de rana: cada uno es la ecuación de Euler–Lagrange discreta de una densidad discreta (punto medio, trapecio), así que cada uno cumple su propia ley hasta el redondeo, también con una densidad no lineal. RK4 no es una ecuación así: su residuo se queda órdenes de magnitud por encima del redondeo.',
  'activity.lesson.dsp-fluctuation.question':
    'Al reducir a la mitad el paso de tiempo h, ¿cuánto se reduce la mayor fluctuación de la energía?',
  'activity.lesson.dsp-fluctuation.choice.x2': 'A la mitad',
  'activity.lesson.dsp-fluctuation.choice.x4': 'A la cuarta parte',
  'activity.lesson.dsp-fluctuation.choice.x16': 'A la dieciseisava parte',
  'activity.lesson.dsp-fluctuation.measure': 'Lea los cocientes impresos bajo la figura y la pendiente de la recta en ejes log–log.',
  'activity.lesson.dsp-fluctuation.answer':
    'A la cuarta parte, más o menos: el método es de segundo orden, así que la fluctuación es O(h²), una recta de pendiente 2, sin deriva.',
  'activity.lesson.dsp-jz.question': '¿Qué momento angular J_z respecto a la vertical se queda en su valor inicial hasta el redondeo?',
  'activity.lesson.dsp-jz.measure': 'Lea en los números de la figura el mayor cambio de J_z a lo largo de la simulación, para A y para B.',
  'activity.lesson.dsp-jz.answer':
    'A. El esquema simpléctico-momento en coordenadas generalizadas mantiene J_z hasta el redondeo (Noether discreto); el de RK4 (B) deriva.',
  'activity.lesson.dsp-penalty.question': 'Si la rigidez de penalización μ se hace diez veces mayor, ¿qué le pasa al error de la ligadura?',
  'activity.lesson.dsp-penalty.choice.same': 'Se queda igual',
  'activity.lesson.dsp-penalty.choice.x10': 'Se hace unas diez veces menor',
  'activity.lesson.dsp-penalty.choice.x100': 'Se hace unas cien veces menor',
  'activity.lesson.dsp-penalty.measure': 'Lea la pendiente de la recta del error de la ligadura frente a μ en ejes log–log.',
  'activity.lesson.dsp-penalty.answer': 'Unas diez veces menor: el error de la ligadura es proporcional a 1/μ, una recta de pendiente −1.',
  'activity.lesson.lu-clock.question':
    'Tras muchos pasos de tamaño h, ¿en qué instante coincide el oscilador del punto medio con el movimiento exacto?',
  'activity.lesson.lu-clock.choice.nh': 'En n·h, el tiempo que ha avanzado',
  'activity.lesson.lu-clock.choice.ndt': 'En n·Δt, un tiempo propio algo más corto',
  'activity.lesson.lu-clock.measure': 'Compare las dos curvas de error de la figura: frente al flujo exacto en n·h y en n·Δt.',
  'activity.lesson.lu-clock.answer':
    'En n·Δt, con Δt = (2/ω) arctan(ωh/2), algo menor que h: la regla del punto medio recorre el flujo exacto con su propio reloj, así que el error en n·Δt se queda en el redondeo mientras que el error en n·h crece.',
  'activity.lesson.floquet.question':
    'Sacudido con ω = 30, por debajo del umbral de Kapitza a²ω² = 2gl, ¿dónde están los dos multiplicadores de Floquet del péndulo invertido?',
  'activity.lesson.floquet.choice.circle': 'Los dos en la circunferencia unidad: se sostiene',
  'activity.lesson.floquet.choice.outside': 'Uno fuera de la circunferencia unidad: se cae',
  'activity.lesson.floquet.measure': 'Lea las dos curvas de la figura en ω = 30, y la línea medida debajo.',
  'activity.lesson.floquet.answer':
    'Uno fuera: la matriz de monodromía tiene determinante 1, así que sus multiplicadores son μ y 1/μ; con ω = 30 la sacudida es demasiado lenta para sostener el péndulo, |μ| > 1 y una pequeña inclinación crece en cada periodo.',
  'activity.lesson.wm-amplitude.question':
    'Al reducir a la mitad el paso de tiempo h, ¿cuánto se reduce la amplitud de la oscilación de la energía?',
  'activity.lesson.wm-amplitude.choice.x2': 'A la mitad',
  'activity.lesson.wm-amplitude.choice.x4': 'A la cuarta parte',
  'activity.lesson.wm-amplitude.choice.x16': 'A la dieciseisava parte',
  'activity.lesson.wm-amplitude.measure':
    'Lea la pendiente de las amplitudes frente a h en ejes log–log, para la peonza pesada y el péndulo esférico doble.',
  'activity.lesson.wm-amplitude.answer': 'A la cuarta parte, más o menos: la amplitud es proporcional a h², una recta de pendiente 2.',

  'activity.preset.plucked-string.question': '¿El error de energía de cuál seguirá creciendo en un solo sentido, sin volver nunca?',
  'activity.preset.plucked-string.measure':
    'En la tarjeta de energía, siga el error relativo de energía de A y de B a lo largo de la ejecución. Anote si cada uno vuelve hacia cero.',
  'activity.preset.plucked-string.answer':
    'B. La energía de RK4 baja sin parar: su error es pequeño pero solo crece, porque RK4 amortigua las ondas cortas del pellizco. El error del salto de rana (A) es mayor al principio, pero se queda en una banda y vuelve una y otra vez.',
  'activity.preset.stiff-string.question':
    'Con este paso, el doble del límite de estabilidad del salto de rana en el tramo rígido, ¿qué ejecución sigue adelante?',
  'activity.preset.stiff-string.measure':
    'Lea el instante en que la página detiene B (lo marcan la leyenda y la tarjeta de energía). Lea la banda del error de energía de A al cabo de unos segundos.',
  'activity.preset.stiff-string.answer':
    'A. El salto de rana (B) da un mismo paso en todas partes, demasiado largo para las celdas rígidas, y explota en sus primeros pasos. El integrador variacional asíncrono (A) da pasos más cortos solo en el tramo rígido, y su energía se queda en una banda.',
  'activity.preset.klein-gordon.question': 'Se suelta un bulto en reposo. Con el término de masa, ¿en qué se convierte?',
  'activity.preset.klein-gordon.choice.copies': 'En dos copias de sí mismo que se alejan sin cambiar',
  'activity.preset.klein-gordon.choice.ripples': 'En un tren de ondulaciones que se dispersa',
  'activity.preset.klein-gordon.measure':
    'Observe la imagen espacio-tiempo: cuente las franjas de colores alternos. Después ponga la masa a 0 y vuelva a ejecutar.',
  'activity.preset.klein-gordon.answer':
    'Ondulaciones: con un término de masa, las ondas de distinta longitud viajan a distinta velocidad (ω² = k² + m²), así que el bulto se dispersa y u cambia de signo a lo largo de la cuerda. Con m = 0 se parte en dos copias que conservan su forma.',
  'activity.preset.sine-gordon-kink.question': 'Mientras el kink recorre la malla, ¿qué le ocurre?',
  'activity.preset.sine-gordon-kink.choice.keeps': 'Conserva su forma y su velocidad',
  'activity.preset.sine-gordon-kink.choice.spreads': 'Se ensancha',
  'activity.preset.sine-gordon-kink.choice.slows': 'Se frena',
  'activity.preset.sine-gordon-kink.measure':
    'Lea dos veces la velocidad del kink en la tarjeta de kinks, al principio y al final, y compárela con la velocidad exacta.',
  'activity.preset.sine-gordon-kink.answer':
    'Conserva su forma y su velocidad: el kink es una solución viajera exacta, y el esquema de caja lo lleva con la velocidad de la exacta con un error menor que una milésima.',
  'activity.preset.kink-antikink.question': 'Un kink y un antikink van el uno hacia el otro. ¿Qué pasa cuando se encuentran?',
  'activity.preset.kink-antikink.choice.annihilate': 'Se destruyen y la cuerda queda vibrando',
  'activity.preset.kink-antikink.choice.bounce': 'Rebotan',
  'activity.preset.kink-antikink.choice.pass': 'Se atraviesan y salen sin cambios',
  'activity.preset.kink-antikink.measure':
    'En la tarjeta de kinks, siga las posiciones del kink (+) y del antikink (−) antes y después del encuentro, y sus velocidades después.',
  'activity.preset.kink-antikink.answer':
    'Se atraviesan: cada uno sale por el otro lado con su forma y su velocidad, solo desplazado en el tiempo. Sine-Gordon es integrable; sus kinks son solitones.',
  'activity.preset.breather.question': 'Un kink y un antikink ligados: ¿qué hace el breather?',
  'activity.preset.breather.choice.apart': 'Se separa en un kink y un antikink',
  'activity.preset.breather.choice.oscillates': 'Oscila sin moverse de sitio',
  'activity.preset.breather.choice.decays': 'Se apaga',
  'activity.preset.breather.measure':
    'Observe la imagen espacio-tiempo y la cuerda: anote dónde está el movimiento y si su amplitud disminuye.',
  'activity.preset.breather.answer':
    'Oscila sin moverse de sitio: el par ligado se hincha y se encoge en el centro sin viajar ni apagarse, y los extremos de la cuerda siguen en reposo.',
  'activity.preset.phi4-kink.question': 'El kink de φ⁴ une los dos vacíos u = −1 y u = 1. ¿Cómo se mueve?',
  'activity.preset.phi4-kink.choice.constant': 'A velocidad constante',
  'activity.preset.phi4-kink.choice.slows': 'Cada vez más despacio',
  'activity.preset.phi4-kink.choice.turns': 'Da la vuelta',
  'activity.preset.phi4-kink.measure': 'Lea la velocidad del kink en la tarjeta de kinks al principio y al final de la ejecución.',
  'activity.preset.phi4-kink.answer':
    'A velocidad constante, la de partida: sin fuerzas y en una cuerda uniforme nada empuja al kink, y el salto de rana conserva su velocidad.',
  'activity.preset.nonlinear-string.question': 'Con esta amplitud grande, ¿qué hace el error de energía del esquema de caja?',
  'activity.preset.nonlinear-string.choice.drifts': 'Deriva cada vez más',
  'activity.preset.nonlinear-string.choice.band': 'Se queda en una banda',
  'activity.preset.nonlinear-string.measure':
    'En la tarjeta de energía, compare el mayor error de energía de la primera mitad de la ejecución con el de la segunda.',
  'activity.preset.nonlinear-string.answer':
    'Se queda en una banda: el esquema de caja es multisimpléctico, así que incluso con esta densidad no lineal el error de energía oscila y no deriva.',
  'activity.preset.whirling-string.question':
    'A lo largo de la ejecución, ¿qué le pasa al momento angular de la cuerda alrededor de su eje, la carga de la rotación J_rotation?',
  'activity.preset.whirling-string.choice.drifts': 'Deriva poco a poco',
  'activity.preset.whirling-string.choice.exact': 'No cambia, hasta el redondeo',
  'activity.preset.whirling-string.measure':
    'En la tarjeta del momento, lee el cambio de J_rotation desde su inicio a medida que avanza la ejecución.',
  'activity.preset.whirling-string.answer':
    'No cambia, hasta el redondeo: girar los dos desplazamientos alrededor del eje deja la densidad igual, y el esquema de caja, un integrador variacional, conserva exactamente la carga de Noether de esa simetría.',
  'activity.preset.compound-double-pendulum.question': 'A lo largo de la ejecución, ¿qué le pasa al momento angular vertical J_z?',
  'activity.preset.compound-double-pendulum.choice.drifts': 'Deriva poco a poco',
  'activity.preset.compound-double-pendulum.choice.exact': 'No cambia, hasta el redondeo',
  'activity.preset.compound-double-pendulum.measure':
    'En la tarjeta de momentos, lea cuánto cambia J_z desde el inicio a lo largo de la ejecución.',
  'activity.preset.compound-double-pendulum.answer':
    'No cambia hasta el redondeo: el método es variacional y el sistema es simétrico respecto de la vertical, así que el teorema de Noether discreto conserva J_z exactamente.',
  'activity.preset.gyroscope.question': 'Los anillos del cardán se ponen a girar. ¿Gira con ellos el eje del rotor rápido?',
  'activity.preset.gyroscope.choice.turns': 'Sí, gira con los anillos',
  'activity.preset.gyroscope.choice.holds': 'No, mantiene su dirección en el espacio',
  'activity.preset.gyroscope.measure':
    'Observe el eje del rotor frente a los anillos. Después ponga a 0 el giro del rotor y vuelva a ejecutar.',
  'activity.preset.gyroscope.answer':
    'Mantiene su dirección: el rotor que gira se resiste a girar de eje (rigidez giroscópica), así que su eje apenas se mueve mientras giran los anillos. Sin el giro, gira con los anillos.',
  'activity.preset.gravity-gradient-satellite.question':
    'El satélite gira una vez por órbita con su eje largo hacia la Tierra, y recibe un pequeño empujón en cabeceo. ¿Qué hace el eje largo?',
  'activity.preset.gravity-gradient-satellite.choice.tumbles': 'Da tumbos y se aleja de la dirección de la Tierra',
  'activity.preset.gravity-gradient-satellite.choice.rocks': 'Oscila adelante y atrás en torno a la dirección de la Tierra',
  'activity.preset.gravity-gradient-satellite.choice.aligns': 'Vuelve a su sitio y se queda quieto',
  'activity.preset.gravity-gradient-satellite.measure':
    'Observe el eje largo frente a la dirección de la Tierra y cuente sus oscilaciones en una órbita.',
  'activity.preset.gravity-gradient-satellite.answer':
    'Oscila adelante y atrás en torno a la dirección de la Tierra, algo más despacio que una vez por órbita: el par de gradiente de gravedad devuelve el eje largo, y nada amortigua la oscilación.',
  'activity.preset.lagrange-top.question': 'La peonza gira deprisa y precesa. ¿Qué hace la inclinación de su eje?',
  'activity.preset.lagrange-top.choice.fixed': 'Se mantiene fija',
  'activity.preset.lagrange-top.choice.nods': 'Cabecea arriba y abajo (nutación)',
  'activity.preset.lagrange-top.choice.falls': 'Se cae',
  'activity.preset.lagrange-top.measure': 'Observe el eje de lado. Anote la mayor y la menor inclinación, y cada cuánto cabecea.',
  'activity.preset.lagrange-top.answer':
    'Cabecea arriba y abajo entre dos inclinaciones mientras da vueltas: la nutación sobre la precesión. La peonza no se cae.',
  'activity.preset.middle-axis.question': 'El mango en T gira en torno a su travesaño, su eje intermedio. ¿Qué ocurre?',
  'activity.preset.middle-axis.choice.steady': 'Sigue girando de forma estable',
  'activity.preset.middle-axis.choice.flips': 'Se da la vuelta una y otra vez',
  'activity.preset.middle-axis.measure':
    'Cuente las vueltas en el primer medio minuto. Después hágalo girar en torno a otro eje y compare.',
  'activity.preset.middle-axis.answer':
    'Se da la vuelta una y otra vez (el efecto Dzhanibekov): el giro en torno al eje principal intermedio es inestable. En torno al eje mayor o al menor gira de forma estable.',
  'activity.preset.physical-pendulum.question': 'La placa oscila y gira en torno a su eje largo. ¿Su giro se mantiene igual?',
  'activity.preset.physical-pendulum.choice.same': 'Sí, el giro se mantiene igual',
  'activity.preset.physical-pendulum.choice.exchange': 'No, la oscilación y el giro intercambian energía',
  'activity.preset.physical-pendulum.measure':
    'Observe el giro de la placa mientras oscila: anote cuándo gira deprisa y cuándo se frena o se invierte.',
  'activity.preset.physical-pendulum.answer':
    'La oscilación y el giro intercambian energía: el giro se acelera, se frena e incluso se invierte mientras la placa oscila, y la energía total se queda en una banda.',
};
