// Texto en español de la sección Dispersión del cajón Estudios (web/ui/dispersion.js).
export default {
  'dispersion.title': 'Dispersión: qué tan rápido viaja cada onda',
  'dispersion.text':
    'Las ondas pequeñas u = u₀ + a cos(kx) alrededor del vacío u₀ del campo oscilan con una frecuencia ω(k) que depende de su longitud de onda. Cada método se mide, no se deduce: el estado se fija a una onda (en u y luego en su momento), se da un paso y el resultado se proyecta de nuevo sobre la onda, lo que da la matriz 2×2 M(k) de un paso. Sus autovalores |λ|e^{±iωΔt} dan la ω(k) del método y su crecimiento |λ| por paso: 1 para un método simpléctico mientras es estable, menos de 1 donde un método amortigua, más de 1 pasado un límite de estabilidad (CFL). La curva a trazos es la relación continua ω² = (κ/ρ)k² + V″(u₀)/ρ. La malla es periódica, para que cada onda sea un modo exacto, con el N y el Δx de esta simulación.',
  'dispersion.none': 'No hay estudio de dispersión para esta simulación: {message}',
  'dispersion.modes': 'Números de onda (de {top})',
  'dispersion.modes.bad': 'dispersion.modes: debe ser un número entero de 2 a {max}, se recibió {got}',
  'dispersion.axis.k': 'número de onda kΔx',
  'dispersion.axis.omega': 'frecuencia por paso ωΔt',
  'dispersion.axis.growth': 'crecimiento por paso |λ| − 1',
  'dispersion.exact': 'continua',
  'dispersion.col.limit': 'mayor Δt estable (s)',
  'dispersion.col.courant': 'número de Courant allí',
  'dispersion.col.run': 'Δt de esta simulación',
  'dispersion.stable': 'estable',
  'dispersion.unstable': 'pasado el límite',
  'dispersion.nolimit': 'sin límite: la onda más corta no crece con ningún Δt hasta {max} s, el mayor paso que acepta el laboratorio',
  'dispersion.left.amplitude':
    'excluido: su mapa de un paso cambió en {value} al dividir por cuatro la amplitud de la onda (su control del tamaño de paso lee el tamaño del estado), así que no tiene una única M(k)',
  'dispersion.left.refused':
    'rechazado con el Δt de esta simulación en la malla del estudio, antes de dar un paso (su propia comprobación de estabilidad): {message}',
  'dispersion.left.leakage':
    'excluido: un paso llevó {value} de una onda a otras ondas (su paso no es igual en todos los nodos), así que una onda no es un modo suyo',
  'dispersion.caption.base':
    'Linealizado alrededor de u₀ = {u0}, donde V″(u₀) = {curvature} (φ⁴ alrededor de su vacío u₀ = 1, donde V″ = 2λ); una malla periódica de N = {n} puntos con el Δx de esta simulación, Δx = {dx}; {modes} números de onda.',
  'dispersion.caption.limit': '{method} es estable hasta Δt = {dt} s',
  'dispersion.caption.none': '{method} es estable con cualquier Δt (sin límite CFL)',
  'dispersion.caption.run': 'El Δt de esta simulación es {h} s (número de Courant ν = cΔt/Δx = {nu}).',
  'dispersion.caption.unresolved':
    '{method}: {n} de las {total} ondas dejaron su propio modo en un paso (un hueco en sus curvas: no hay una única ω allí).',
  'dispersion.col.follows': 'su ω(k) sigue',
  'dispersion.col.formula': 'según la fórmula (s)',
  'dispersion.relation.leapfrog': 'la del leapfrog, sin(ωΔt/2) = (Δt/2)Ω, a {difference}',
  'dispersion.relation.box': 'la del esquema de caja, tan(ωΔt/2) = (Δt/2)Ω̃, a {difference}',
  'dispersion.relation.rk4': 'la de RK4, e^{iωΔt}|λ| = R(iΩΔt), a {difference}',
  'dispersion.relation.none': 'ninguna: ni la del leapfrog, ni la del esquema de caja, ni la de RK4',
  'dispersion.caption.amplitude.linear':
    'V es cuadrático, así que un paso es lineal en la onda: ondas de amplitud 1 (dividirla por cuatro cambió M(k) como mucho en {change}).',
  'dispersion.caption.amplitude.small':
    'V no es cuadrático: ondas de amplitud {amplitude}, tan pequeña que dividirla por cuatro cambió M(k) como mucho en {change}.',
};
