// MechanismExpression (models/mechanism_loads.hpp): the names an expression uses, its
// program (value and gradient) and its evaluation at a mechanism's configuration.
#include "vilab/models/mechanism_loads.hpp"

#include <algorithm>
#include <cctype>

#include "vilab/expr/parse.hpp"

namespace vilab {

namespace {

// The names of body i's symbols, slot by slot (see the header).
std::string symbolName(int body, int slot) {
  static const char* const kAxes[3] = {"x", "y", "z"};
  const std::string i = std::to_string(body);
  if (slot < 3) return kAxes[slot] + i;
  const int j = (slot - 3) / 3, k = (slot - 3) % 3;
  return "R" + i + "_" + std::to_string(j + 1) + std::to_string(k + 1);
}

// The identifiers of `text` (names not preceded by a letter, digit, '_' or '.', so that
// the exponent of 1e5 is not one).
std::vector<std::string> identifiers(const std::string& text) {
  std::vector<std::string> out;
  const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    const bool start = (std::isalpha(static_cast<unsigned char>(c)) || c == '_') &&
                       (i == 0 || !(word(text[i - 1]) || text[i - 1] == '.'));
    if (!start) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && word(text[j])) ++j;
    out.push_back(text.substr(i, j - i));
    i = j;
  }
  return out;
}

}  // namespace

MechanismExpression::MechanismExpression(const std::string& text, const std::string& field, int bodies, bool gradient)
    : text_(text), gradient_(gradient) {
  // The bodies' symbols the text names, in the order (body, slot).
  for (const std::string& name : identifiers(text))
    for (int b = 0; b < bodies; ++b)
      for (int slot = 0; slot < 12; ++slot)
        if (name == symbolName(b, slot)) symbols_.push_back({b, slot});
  std::sort(symbols_.begin(), symbols_.end(),
            [](const Symbol& a, const Symbol& b) { return a.body != b.body ? a.body < b.body : a.slot < b.slot; });
  symbols_.erase(std::unique(symbols_.begin(), symbols_.end(),
                             [](const Symbol& a, const Symbol& b) { return a.body == b.body && a.slot == b.slot; }),
                 symbols_.end());
  if (static_cast<int>(symbols_.size()) > kMaxLoadVariables)
    throw InputError(InputErrorCode::TooLarge, field,
                     "uses " + std::to_string(symbols_.size()) + " of the bodies' coordinates; at most " +
                         std::to_string(kMaxLoadVariables));
  expr::Scope scope;
  for (const Symbol& s : symbols_) scope.coordinates.push_back(symbolName(s.body, s.slot));
  scope.velocities = false;
  scope.time = true;
  expr::Graph graph;
  const int node = expr::parseExpression(text, field, scope, graph).node;
  const int n = static_cast<int>(symbols_.size());
  usesTime_ = graph.dependsOn(node, 2 * n);
  std::vector<int> outputs = {node};
  if (gradient)
    for (int v = 0; v < n; ++v) outputs.push_back(graph.derivative(node, v));
  program_ = std::make_shared<expr::Program>(graph, outputs);
  variables_.assign(static_cast<std::size_t>(2 * n + 1), 0.0);
  out_.resize(outputs.size());
}

double MechanismExpression::evaluate(const std::vector<Vec3>& x, const std::vector<Mat3>& R, double t,
                                     std::vector<Vec3>* dx, std::vector<Mat3>* dR) const {
  const std::size_t n = symbols_.size();
  for (std::size_t v = 0; v < n; ++v) {
    const Symbol& s = symbols_[v];
    const int j = (s.slot - 3) / 3, k = (s.slot - 3) % 3;
    variables_[v] =
        s.slot < 3 ? x[static_cast<std::size_t>(s.body)][s.slot] : R[static_cast<std::size_t>(s.body)](j, k);
  }
  variables_[2 * n] = t;
  program_->run(variables_.data(), out_.data(), registers_);
  if (gradient_ && dx && dR)
    for (std::size_t v = 0; v < n; ++v) {
      const Symbol& s = symbols_[v];
      const int j = (s.slot - 3) / 3, k = (s.slot - 3) % 3;
      if (s.slot < 3)
        (*dx)[static_cast<std::size_t>(s.body)][s.slot] += out_[v + 1];
      else
        (*dR)[static_cast<std::size_t>(s.body)](j, k) += out_[v + 1];
    }
  return out_[0];
}

bool MechanismLoadSet::usesTime() const {
  bool uses = hasPotential && potential.usesTime();
  for (const Torque& tq : torques)
    for (const MechanismExpression& c : tq.component) uses = uses || c.usesTime();
  return uses;
}

}  // namespace vilab
