// El pie de un preajuste mientras se miden sus afirmaciones (web/sim/claims.js, web/page/legend.js).
export default {
  'claims.notYet': 'Todavía no: {list}.',
  'claims.notYet.values': 'los valores en t = {times}',
  'claims.notYet.crossing': '{b} va por delante hasta t ≈ {t}',
  'claims.notYet.stop': '{who} sigue en marcha (se detiene hacia t = {t})',
  'claims.notYet.recurrence': 'la vuelta llega hacia t = {t}',
  'claims.notYet.interval': 'los volteos se miden durante los primeros {at}',
  'claims.stopped': 'Algunos números no se midieron: la simulación se detuvo antes.',
  'claims.sep': '; ',
};
