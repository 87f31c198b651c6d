// A preset's caption while its claims are measured (web/sim/claims.js, web/page/legend.js):
// what the caption cannot show yet, and why a claim was not measured.
export default {
  'claims.notYet': 'Not yet: {list}.',
  'claims.notYet.values': 'the values at t = {times}',
  'claims.notYet.crossing': '{b} is ahead until about t = {t}',
  'claims.notYet.stop': '{who} is still running (it stops at about t = {t})',
  'claims.notYet.recurrence': 'the return comes at about t = {t}',
  'claims.notYet.interval': 'the flips are timed over the first {at}',
  'claims.stopped': 'Some numbers were not measured: the run stopped first.',
  'claims.sep': '; ',
};
