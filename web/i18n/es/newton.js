// Spanish words of the globalized Newton's part (web/i18n/en/newton.js) and the `about` of
// scenes/lagrangian/relativistic-particle.json and quartic-kinetic.json.
export default {
  'words.failure.action.change-scenario': 'Se probó un h más pequeño y no ayuda aquí: cambie el estado inicial o el sistema.',
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
};
