// The registry's prose (core/prose/README.md) as catalogue keys (web/i18n/index.js), for a
// language's chunk (web/i18n/<lang>/registry.js):
//   integrators/<id>  integrator.<id>.<title|summary|docs|citation>,
//                     param.<id>.<option>.<title|description>,
//                     claim.<English words> (each claim paired with the English file's by position)
//   systems/<id>      system.<id>.<title|description>,
//                     param.<id>.<param or initial field>.<title|description>,
//                     definition.<field>.<title|description>, definition.notes.text

const ENTRY = /([^/]+)\/([^/]+)\.[a-z]+\.json$/; // …/<kind>/<id>.<lang>.json

/**
 * The catalogue of one language's prose files ({ path: prose }, from import.meta.glob),
 * its claims keyed by the English files' claims ({ path: [words] }).
 */
export function proseCatalogue(files, englishClaims) {
  const out = {};
  const put = (key, text) => {
    if (typeof text === 'string') out[key] = text;
  };
  const described = (prefix, specs) => {
    for (const [name, words] of Object.entries(specs ?? {}))
      for (const field of ['title', 'description']) put(`${prefix}.${name}.${field}`, words[field]);
  };
  const claimsOf = {};
  for (const [path, claims] of Object.entries(englishClaims)) claimsOf[path.match(ENTRY)[2]] = claims;
  for (const [path, prose] of Object.entries(files)) {
    const [, kind, id] = path.match(ENTRY);
    if (kind === 'integrators') {
      for (const field of ['title', 'summary', 'docs', 'citation']) put(`integrator.${id}.${field}`, prose[field]);
      described(`param.${id}`, prose.options);
      const english = claimsOf[id] ?? [];
      (prose.claims ?? []).forEach((text, i) => {
        if (typeof english[i] === 'string') put(`claim.${english[i]}`, text);
      });
    } else if (kind === 'systems') {
      for (const field of ['title', 'description']) put(`system.${id}.${field}`, prose[field]);
      described(`param.${id}`, prose.params);
      described(`param.${id}`, prose.initialFields);
      described('definition', prose.definition?.fields);
      put('definition.notes.text', prose.definition?.notes);
    }
  }
  return out;
}
