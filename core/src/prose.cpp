// The registry's words, read once from the prose embedded at build time (vilab/prose.hpp).
#include "vilab/prose.hpp"

#include "vilab/embedded.hpp"

namespace vilab {

namespace {

const Json& member(const Json& object, const std::string& name) {
  static const Json none;
  if (!object.is_object()) return none;
  const auto it = object.find(name);
  return it == object.end() ? none : *it;
}

std::string text(const Json& value) { return value.is_string() ? value.get<std::string>() : std::string(); }
std::string text(const Json& object, const char* name) { return text(member(object, name)); }

// The equations are kept as the lines of the display: joined by LaTeX's line break.
std::string lines(const Json& value) {
  std::string out;
  if (!value.is_array()) return out;
  for (std::size_t i = 0; i < value.size(); ++i) out += (i ? "\\\\" : "") + text(value[i]);
  return out;
}

// Each named spec's (or field's) title and description, from {name: {title, description}}.
template <class Spec>
void describe(std::vector<Spec>& specs, const Json& prose) {
  for (Spec& spec : specs) {
    const Json& words = member(prose, spec.name);
    spec.title = text(words, "title");
    spec.description = text(words, "description");
  }
}

}  // namespace

VILAB_COLD const Json& englishProse() {
  static const Json prose = embedded::document(embedded::proseEnglish, embedded::proseEnglishSize);
  return prose;
}

VILAB_COLD IntegratorEntry withProse(IntegratorEntry e) {
  const Json& prose = member(member(englishProse(), "integrators"), e.id);
  e.title = text(prose, "title");
  e.summary = text(prose, "summary");
  e.docs = text(prose, "docs");
  e.equations = lines(member(prose, "equations"));
  e.citation = text(prose, "citation");
  const Json& claims = member(prose, "claims");
  for (std::size_t i = 0; i < e.conserves.size(); ++i)
    e.conserves[i].text = claims.is_array() && i < claims.size() ? text(claims[i]) : std::string();
  describe(e.options, member(prose, "options"));
  return e;
}

VILAB_COLD SystemEntry withProse(SystemEntry e) {
  const Json& prose = member(member(englishProse(), "systems"), e.id);
  e.title = text(prose, "title");
  e.description = text(prose, "description");
  describe(e.params, member(prose, "params"));
  describe(e.initialFields, member(prose, "initialFields"));
  // The definition's words (absent from the lean build's prose: then its JSON lacks them too).
  const Json& definition = member(prose, "definition");
  if (e.definition.is_object() && definition.is_object()) {
    for (Json& field : e.definition["fields"]) {
      const Json& words = member(member(definition, "fields"), field["name"].get<std::string>());
      field["title"] = text(words, "title");
      field["description"] = text(words, "description");
    }
    e.definition["notes"] = text(definition, "notes");
  }
  return e;
}

}  // namespace vilab
