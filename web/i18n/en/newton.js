// English words of the globalized Newton's part: the advice of a refused step where a
// smaller h was measured not to help (action change-scenario).
export default {
  'words.failure.action.change-scenario': 'A smaller h was tried and does not help here: change the initial state or the system.',
};
