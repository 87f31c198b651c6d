// Texto en español del diálogo para insertar (web/ui/embed.js) y sus mensajes.
export default {
  'embed.button': 'Insertar',
  'embed.button.title': 'Copiar un código que pone esta simulación en una página del curso',
  'embed.title': 'Poner esta simulación en una página del curso',
  'embed.intro':
    'Pegue este código en su página, por ejemplo en un bloque HTML de su plataforma de aprendizaje. Los estudiantes ven esta simulación, en este paso, y pueden reproducirla.',
  'embed.code.label': 'Código para insertar',
  'embed.paused': 'Abrir en pausa',
  'embed.bare': 'Solo la simulación y sus gráficas (ocultar los menús)',
  'embed.origin': 'Dirección de la página que puede controlarla (opcional)',
  'embed.origin.help':
    'Solo ese sitio puede reproducir, pausar, avanzar o cargar una simulación mediante mensajes; cualquier sitio puede leerla.',
  'embed.origin.bad': 'Esa dirección no se puede usar: {problem}.',
  'embed.copy': 'Copiar código',
  'embed.copiedButton': 'Copiado ✓',
  'embed.copied': 'Código copiado.',
  'embed.selectCopy': 'El código está seleccionado: pulse Ctrl+C (⌘C) para copiarlo.',
  'embed.close': 'Cerrar',
  'embed.keyInvalid': 'El ajuste {field} de esta página no es válido: {problem}. Se ignora.',
  'embed.commandInvalid': 'La página del curso envió una petición que esta página no puede seguir ({field}): {problem}',
  'embed.update': 'Hay una versión nueva de vilab.',
  'embed.update.reload': 'Recargar',
};
