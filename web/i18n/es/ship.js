// Palabras en español de la copia sin conexión y las licencias de la Ayuda (web/page/offline-copy.js).
export default {
  'ship.download': 'Descargar para usar sin conexión',
  'ship.download.about':
    'Un solo archivo (vilab.html) con todo el laboratorio: funciona desde una memoria USB o una carpeta, sin red ni instalación, y sus enlaces se abren en este sitio.',
  'ship.licences': 'Licencias',
  'ship.licences.about':
    'vilab es software libre (licencia MIT); contiene three.js, uPlot, KaTeX, Eigen (MPL-2.0; dónde está su código fuente: en las licencias), nlohmann/json, PEGTL, la libm de musl y el entorno de ejecución de Emscripten; la comparación con MuJoCo (Apache-2.0) del sitio descarga MuJoCo solo al elegirla.',
  'ship.lms.completed': 'Lección completada: la simulación llegó a t = {time} s y su curso lo ha registrado.',
};
