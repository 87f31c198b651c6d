// Español del editor amplio (web/ui/lagrangian-editor.js, EditorRoom): el diálogo donde se
// ven juntos la L de una definición, su error y su vista previa.
export default {
  'editorRoom.open': 'Editor amplio',
  'editorRoom.open.title': 'Editar la definición en una ventana grande: L, sus errores y la vista previa tipografiada lado a lado',
  'editorRoom.title': 'Definición del sistema',
  'editorRoom.close': 'Cerrar',
};
