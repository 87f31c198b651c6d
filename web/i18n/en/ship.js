// English words of Help's offline copy and licences (web/page/offline-copy.js).
export default {
  'ship.download': 'Download for offline use',
  'ship.download.about':
    'One file (vilab.html) with the whole lab: it runs from a USB stick or a folder, with no network and no installation, and its links open on this site.',
  'ship.licences': 'Licences',
  'ship.licences.about':
    "vilab is free software (MIT licence); it contains three.js, uPlot, KaTeX, Eigen (MPL-2.0; where its source is: in the licences), nlohmann/json, PEGTL, musl's libm and the Emscripten runtime; the site's comparison with MuJoCo (Apache-2.0) fetches MuJoCo only when chosen.",
  'ship.lms.completed': 'Lesson complete: the run reached t = {time} s, and your course has recorded it.',
};
