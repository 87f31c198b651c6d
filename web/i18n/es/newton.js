// Spanish words of the globalized Newton's part (web/i18n/en/newton.js).
export default {
  'words.failure.action.change-scenario': 'Se probó un h más pequeño y no ayuda aquí: cambie el estado inicial o el sistema.',
};
