// Español del diálogo «Abrir modelo» (web/ui/model-dialog.js) y de abrir un modelo de MuJoCo (web/page/model.js).
export default {
  'model.title': 'Abrir un modelo de MuJoCo',
  'model.intro':
    'Pegue un modelo de MuJoCo (MJCF, el XML de un archivo .xml), elija su archivo o suéltelo en cualquier lugar de la página. Sus cuerpos, inercias, articulaciones esféricas, de bisagra y libres, la gravedad, el paso de tiempo y el primer fotograma clave se convierten en un mecanismo con el integrador de grupos de Lie; cualquier otra cosa se nombra con su línea.',
  'model.text': 'MJCF (XML)',
  'model.placeholder': '<mujoco>…</mujoco>',
  'model.file': 'O elija un archivo',
  'model.open': 'Abrir',
  'model.opening': 'Abriendo…',
  'model.close': 'Cerrar',
  'model.empty': 'Pegue primero un modelo: el cuadro está vacío.',
  'model.opened': 'Se abrió el modelo de MuJoCo {name}: {bodies} cuerpos móviles, {joints} articulaciones.',
  'model.notXml': '«{name}» no es un modelo de MuJoCo: la página abre archivos MJCF (.xml).',
  'model.tooLarge':
    'Este modelo ocupa {kb} KB; la página abre modelos de hasta {max} KB (un modelo que puede simular ocupa unos pocos kilobytes).',
};
