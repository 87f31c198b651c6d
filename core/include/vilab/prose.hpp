// The registry's words as data: each entry's English prose (title, summary, docs,
// equations, citation, its claims', options', params' and initial fields' texts) lives
// in core/prose/<integrators|systems>/<id>.en.json, beside its Spanish twin <id>.es.json
// (core/prose/README.md). The English files are embedded at build time
// (cmake/prose.cmake) and read once; the lean build embeds them without what its first
// frame does not show (docs, equations, citations, the definition's documentation), so
// its registry JSON lacks those fields.
#pragma once

#include "vilab/json.hpp"
#include "vilab/registry.hpp"

namespace vilab {

// The embedded prose: {"integrators": {<id>: {…}}, "systems": {<id>: {…}}}.
const Json& englishProse();

// The entry with its words filled in from its prose. A word its prose lacks stays
// empty (the registry test names what is missing), and so do claims past the prose's
// list (its claims are in the order of the entry's).
IntegratorEntry withProse(IntegratorEntry entry);
SystemEntry withProse(SystemEntry entry);

}  // namespace vilab
