// English text of the embedding dialog (web/ui/embed.js) and its messages.
export default {
  'embed.button': 'Embed',
  'embed.button.title': 'Copy code that puts this run in a course page',
  'embed.title': 'Put this run in a course page',
  'embed.intro':
    'Paste this code into your page, for example an HTML block of your learning platform. Students see this run, at this step, and can play it.',
  'embed.code.label': 'Embed code',
  'embed.paused': 'Open paused',
  'embed.bare': 'Only the simulation and its plots (hide the menus)',
  'embed.origin': 'Address of the page allowed to control it (optional)',
  'embed.origin.help': 'Only that site may play, pause, step or load a run through messages; any site may read the run.',
  'embed.origin.bad': 'That address cannot be used: {problem}.',
  'embed.copy': 'Copy code',
  'embed.copiedButton': 'Copied ✓',
  'embed.copied': 'Embed code copied.',
  'embed.selectCopy': 'The code is selected: press Ctrl+C (⌘C) to copy it.',
  'embed.close': 'Close',
  'embed.keyInvalid': "This page's {field} setting is invalid: {problem}. It is ignored.",
  'embed.commandInvalid': 'The course page sent a request this page cannot follow ({field}): {problem}',
  'embed.update': 'A new version of vilab is available.',
  'embed.update.reload': 'Reload',
};
