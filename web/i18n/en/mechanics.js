// English of the editor's mechanics (web/ui/mechanics-view.js): the equations of the typed L.
export default {
  'mechanics.title': 'Mechanics of this L',
  'mechanics.intro':
    'What the engine derives from your L, simplified: the momenta, the mass matrix, the Euler–Lagrange equations and the discrete equations the chosen rule solves at every step.',
  'mechanics.rule': 'Rule',
  'mechanics.rule.midpoint': 'Midpoint',
  'mechanics.rule.trapezoid': 'Trapezoid',
  'mechanics.rule.alpha': 'α-family',
  'mechanics.alpha': 'α',
  'mechanics.copy': 'Copy LaTeX',
  'mechanics.copied': 'LaTeX copied',
  'mechanics.copyFailed': 'Could not copy: the browser refused the clipboard',
  'mechanics.momenta': 'Momenta p = ∂L/∂q̇',
  'mechanics.mass': 'Mass matrix M = ∂²L/∂q̇²',
  'mechanics.eulerLagrange': 'Euler–Lagrange equations (with the multipliers λ of the constraints)',
  'mechanics.discrete.midpoint': 'Discrete Euler–Lagrange equations, midpoint rule: L_d = h L((q₀+q₁)/2, (q₁−q₀)/h)',
  'mechanics.discrete.trapezoid': 'Discrete Euler–Lagrange equations, trapezoid rule: L_d = (h/2)[L(q₀, v) + L(q₁, v)]',
  'mechanics.discrete.alpha': 'Discrete Euler–Lagrange equations, α-family (α = {alpha}): L_d = h L((1−α)q₀ + αq₁, (q₁−q₀)/h)',
  'mechanics.numericConstants': 'Too many variables to name every constant: their values are shown.',
  // compare with MuJoCo (web/page/external-compare.js, web/ui/controls.js)
  'mechanics.compare.mujoco-rk4': 'MuJoCo RK4',
  'mechanics.compare.mujoco-implicit': 'MuJoCo implicit',
  'mechanics.compare.externalNote':
    "{engine} runs B (loaded on demand, ≈ 10 MB): the mechanism goes to it as MJCF, and vilab measures its energy, momentum and joints each step as it measures A's. {engine}'s run is not part of the link's deterministic fingerprint.",
  'mechanics.compare.externalRefused': '{engine} cannot run this mechanism ({field}: {reason}).',
  'mechanics.externalLoading': 'Loading {engine}… {mb} MB',
  'mechanics.externalLoaded': '{engine} loaded: B runs beside A.',
  'mechanics.externalFailed': '{engine} could not be loaded ({message}); compare is off, A runs on.',
};
