// Español de la mecánica del editor (web/ui/mechanics-view.js): las ecuaciones de la L escrita.
export default {
  'mechanics.title': 'Mecánica de esta L',
  'mechanics.intro':
    'Lo que el motor deriva de tu L, simplificado: los momentos, la matriz de masa, las ecuaciones de Euler–Lagrange y las ecuaciones discretas que la regla elegida resuelve en cada paso.',
  'mechanics.rule': 'Regla',
  'mechanics.rule.midpoint': 'Punto medio',
  'mechanics.rule.trapezoid': 'Trapecio',
  'mechanics.rule.alpha': 'Familia α',
  'mechanics.alpha': 'α',
  'mechanics.copy': 'Copiar LaTeX',
  'mechanics.copied': 'LaTeX copiado',
  'mechanics.copyFailed': 'No se pudo copiar: el navegador rechazó el portapapeles',
  'mechanics.momenta': 'Momentos p = ∂L/∂q̇',
  'mechanics.mass': 'Matriz de masa M = ∂²L/∂q̇²',
  'mechanics.eulerLagrange': 'Ecuaciones de Euler–Lagrange (con los multiplicadores λ de las ligaduras)',
  'mechanics.discrete.midpoint': 'Ecuaciones de Euler–Lagrange discretas, regla del punto medio: L_d = h L((q₀+q₁)/2, (q₁−q₀)/h)',
  'mechanics.discrete.trapezoid': 'Ecuaciones de Euler–Lagrange discretas, regla del trapecio: L_d = (h/2)[L(q₀, v) + L(q₁, v)]',
  'mechanics.discrete.alpha': 'Ecuaciones de Euler–Lagrange discretas, familia α (α = {alpha}): L_d = h L((1−α)q₀ + αq₁, (q₁−q₀)/h)',
  'mechanics.numericConstants': 'Demasiadas variables para nombrar cada constante: se muestran sus valores.',
  // compare with MuJoCo (web/page/external-compare.js, web/ui/controls.js)
  'mechanics.compare.mujoco-rk4': 'MuJoCo RK4',
  'mechanics.compare.mujoco-implicit': 'MuJoCo implícito',
  'mechanics.compare.externalNote':
    '{engine} calcula B (se carga al elegirlo, ≈ 10 MB): el mecanismo le llega como MJCF, y vilab mide su energía, su momento y sus articulaciones en cada paso igual que los de A. La ejecución de {engine} no forma parte de la huella determinista del enlace.',
  'mechanics.compare.externalRefused': '{engine} no puede simular este mecanismo ({field}: {reason}).',
  'mechanics.externalLoading': 'Cargando {engine}… {mb} MB',
  'mechanics.externalLoaded': '{engine} cargado: B corre junto a A.',
  'mechanics.externalFailed': 'No se pudo cargar {engine} ({message}); la comparación se apaga y A sigue.',
};
