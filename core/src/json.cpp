#include "vilab/json.hpp"

#include <cmath>
#include <cstdio>

#include "vilab/limits.hpp"

namespace vilab {

std::string cutForMessage(const std::string& s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t end = max;
  // Never split a UTF-8 sequence: back up over continuation bytes (10xxxxxx).
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end) + "…";
}

std::string describeJson(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return v.get<bool>() ? "true" : "false";
    case Json::value_t::string: {
      const auto& s = v.get_ref<const std::string&>();
      if (s.size() <= limits::kMaxMessageField) return "string \"" + s + "\"";
      return "string \"" + cutForMessage(s) + "\" (" + std::to_string(s.size()) + " bytes)";
    }
    case Json::value_t::array:
      return "an array of " + std::to_string(v.size());
    case Json::value_t::object:
      return "an object";
    default:
      return formatNumber(v.get<double>());
  }
}

std::string joinField(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

double readNumber(const Json& v, const std::string& field) {
  if (!v.is_number()) {
    if (v.is_string()) {
      const auto& s = v.get_ref<const std::string&>();
      if (s == "NaN" || s == "Infinity" || s == "-Infinity")
        throw InputError(field, "must be a finite number, got " + s);
    }
    throw InputError(field, "must be a number, got " + describeJson(v));
  }
  const double x = v.get<double>();
  if (!std::isfinite(x)) throw InputError(field, "must be a finite number");
  return x;
}

double readNumberInRange(const Json& v, const std::string& field, double min, double max, bool minExclusive) {
  const double x = readNumber(v, field);
  const bool belowMin = minExclusive ? !(x > min) : !(x >= min);
  if (belowMin || x > max) {
    const std::string lo = (minExclusive ? "(" : "[") + formatNumber(min);
    throw InputError(field, "must be in " + lo + ", " + formatNumber(max) + "], got " + formatNumber(x));
  }
  return x;
}

std::vector<double> readNumbers(const Json& v, const std::string& field, int minCount, int maxCount) {
  if (!v.is_array()) throw InputError(field, "must be an array of numbers, got " + describeJson(v));
  const int n = static_cast<int>(v.size());
  if (n < minCount || n > maxCount) {
    const std::string want =
        minCount == maxCount ? std::to_string(minCount) : std::to_string(minCount) + " to " + std::to_string(maxCount);
    throw InputError(field, "expected " + want + " entries, got " + std::to_string(n));
  }
  std::vector<double> out;
  out.reserve(n);
  for (int i = 0; i < n; ++i) out.push_back(readNumber(v[i], field + "[" + std::to_string(i) + "]"));
  return out;
}

std::vector<std::vector<double>> readRows(const Json& v, const std::string& field, int count, int width) {
  if (!v.is_array()) throw InputError(field, "must be an array, got " + describeJson(v));
  if (static_cast<int>(v.size()) != count)
    throw InputError(field, "expected " + std::to_string(count) + " entries (one per bob), got " +
                                std::to_string(v.size()));
  std::vector<std::vector<double>> rows;
  for (int i = 0; i < count; ++i)
    rows.push_back(readNumbers(v[i], field + "[" + std::to_string(i) + "]", width, width));
  return rows;
}

void requireObject(const Json& v, const std::string& field) {
  if (!v.is_object()) throw InputError(field, "must be an object, got " + describeJson(v));
}

void rejectUnknownKeys(const Json& obj, const std::string& field, std::initializer_list<const char*> allowed) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool known = false;
    for (const char* a : allowed) known = known || it.key() == a;
    if (!known) {
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      throw InputError(joinField(field, cutForMessage(it.key())),
                       "unknown field" + (list.empty() ? std::string() : " (known: " + list + ")"));
    }
  }
}

}  // namespace vilab
