// English of the "Open model" dialog (web/ui/model-dialog.js) and of opening a MuJoCo model
// (web/page/model.js): fetched with the dialog or after the first frame (loadLaterWords).
export default {
  'model.title': 'Open a MuJoCo model',
  'model.intro':
    'Paste a MuJoCo model (MJCF, the XML of a .xml file), choose its file, or drop the file anywhere on the page. Its bodies, inertias, ball, hinge and free joints, gravity, time step and first keyframe become a mechanism on the Lie-group integrator; anything else is named with its line.',
  'model.text': 'MJCF (XML)',
  'model.placeholder': '<mujoco>…</mujoco>',
  'model.file': 'Or choose a file',
  'model.open': 'Open',
  'model.opening': 'Opening…',
  'model.close': 'Close',
  'model.empty': 'Paste a model first: the box is empty.',
  'model.opened': 'Opened the MuJoCo model {name}: {bodies} moving bodies, {joints} joints.',
  'model.notXml': '"{name}" is not a MuJoCo model: the page opens MJCF files (.xml).',
  'model.tooLarge': 'This model is {kb} KB; the page opens models up to {max} KB (a model it can run is a few kilobytes).',
};
