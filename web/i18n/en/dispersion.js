// English text of the Studies drawer's Dispersion section (web/ui/dispersion.js).
export default {
  'dispersion.title': 'Dispersion: how fast each wave travels',
  'dispersion.text':
    'Small waves u = u₀ + a cos(kx) about the field’s vacuum u₀ oscillate at a frequency ω(k) that depends on their wavelength. Each method is measured, not derived: the state is set to one wave (in u, then in its momentum), one step is taken and the result is projected back on the wave, giving the 2×2 map M(k) of one step. Its eigenvalues |λ|e^{±iωΔt} give the method’s ω(k) and its growth |λ| per step: 1 for a symplectic method while it is stable, below 1 where a method damps, above 1 past a stability (CFL) limit. The dashed curve is the continuous relation ω² = (κ/ρ)k² + V″(u₀)/ρ. The grid is periodic, so that every wave is an exact mode, with this run’s N and Δx.',
  'dispersion.none': 'No dispersion study for this run: {message}',
  'dispersion.modes': 'Wavenumbers (of {top})',
  'dispersion.modes.bad': 'dispersion.modes: must be a whole number from 2 to {max}, got {got}',
  'dispersion.axis.k': 'wavenumber kΔx',
  'dispersion.axis.omega': 'frequency per step ωΔt',
  'dispersion.axis.growth': 'growth per step |λ| − 1',
  'dispersion.exact': 'continuous',
  'dispersion.col.limit': 'largest stable Δt (s)',
  'dispersion.col.courant': 'Courant number there',
  'dispersion.col.run': 'this run’s Δt',
  'dispersion.stable': 'stable',
  'dispersion.unstable': 'past the limit',
  'dispersion.nolimit': 'no limit: the shortest wave does not grow at any Δt up to {max} s, the largest step the lab accepts',
  'dispersion.left.amplitude':
    'left out: its map over one step changed by {value} when the wave’s amplitude was quartered (its step size control reads the size of the state), so it has no single M(k)',
  'dispersion.left.refused': 'refused at this run’s Δt on the study’s grid, before a step (its own stability check): {message}',
  'dispersion.left.leakage':
    'left out: one step moved {value} of a wave onto other waves (its step is not the same at every node), so a wave is not a mode of it',
  'dispersion.caption.base':
    'Linearized about u₀ = {u0}, where V″(u₀) = {curvature} (φ⁴ about its vacuum u₀ = 1, where V″ = 2λ); a periodic grid of N = {n} points at this run’s Δx = {dx}; {modes} wavenumbers.',
  'dispersion.caption.limit': '{method} is stable up to Δt = {dt} s',
  'dispersion.caption.none': '{method} is stable at every Δt (no CFL limit)',
  'dispersion.caption.run': 'This run’s Δt = {h} s (Courant number ν = cΔt/Δx = {nu}).',
  'dispersion.caption.unresolved':
    '{method}: {n} of the {total} waves left their own mode in one step (a gap in its curves: no single ω there).',
  'dispersion.col.follows': 'its ω(k) follows',
  'dispersion.col.formula': 'by the formula (s)',
  'dispersion.relation.leapfrog': 'the leapfrog’s sin(ωΔt/2) = (Δt/2)Ω, to {difference}',
  'dispersion.relation.box': 'the box scheme’s tan(ωΔt/2) = (Δt/2)Ω̃, to {difference}',
  'dispersion.relation.rk4': 'RK4’s e^{iωΔt}|λ| = R(iΩΔt), to {difference}',
  'dispersion.relation.none': 'none of the leapfrog’s, the box scheme’s or RK4’s',
  'dispersion.caption.amplitude.linear':
    'V is quadratic, so one step is linear in the wave: waves of amplitude 1 (quartering it changed M(k) by at most {change}).',
  'dispersion.caption.amplitude.small':
    'V is not quadratic: waves of amplitude {amplitude}, small enough that quartering it changed M(k) by at most {change}.',
};
