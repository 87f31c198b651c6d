// English of the wide editor (web/ui/lagrangian-editor.js, EditorRoom): the dialog where a
// definition's L, its error and its preview are seen together.
export default {
  'editorRoom.open': 'Wide editor',
  'editorRoom.open.title': 'Edit the definition in a large window: L, its errors and the typeset preview side by side',
  'editorRoom.title': 'Definition of the system',
  'editorRoom.close': 'Close',
};
