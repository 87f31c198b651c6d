// The components of a field run (system "field"): a typed density may declare several
// (params.density.fields; ["u"] when absent). The core's q, p and visualState() hold them
// component-major, each component's N nodes in turn; the views read them from here.

/** The components' names of a scenario's field: ['u'] unless its density declares others. */
export function fieldComponents(scenario) {
  const fields = scenario?.params?.density?.fields;
  return Array.isArray(fields) && fields.length ? fields : ['u'];
}

/** Component k (0-based) of values holding `count` components of n nodes each, as a view where it can be one. */
export function componentOf(values, n, k = 0) {
  if (values.length === n && k === 0) return values;
  return typeof values.subarray === 'function' ? values.subarray(k * n, (k + 1) * n) : values.slice(k * n, (k + 1) * n);
}
