#include "vilab/json.hpp"

#include <cmath>
#include <cstdio>

#include "vilab/limits.hpp"

namespace vilab {

namespace {

// Where the parser is, from its callback events: "params.masses[1]" ("" at the top).
class JsonPath {
 public:
  void event(Json::parse_event_t e, const Json& parsed) {
    using E = Json::parse_event_t;
    switch (e) {
      case E::object_start: frames_.push_back({false, std::string(), 0}); break;
      case E::array_start: frames_.push_back({true, std::string(), 0}); break;
      case E::key:
        if (!frames_.empty() && parsed.is_string())
          frames_.back().key = cutForMessage(parsed.get_ref<const std::string&>());
        break;
      case E::object_end:
      case E::array_end:
        if (!frames_.empty()) frames_.pop_back();
        next();
        break;
      case E::value: next(); break;
    }
  }
  std::string str() const {
    std::string out;
    for (const auto& f : frames_) {
      if (f.array)
        out += "[" + std::to_string(f.index) + "]";
      else if (!f.key.empty())
        out += (out.empty() ? "" : ".") + f.key;
    }
    return out;
  }

 private:
  void next() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
  }
  struct Frame {
    bool array;
    std::string key;
    std::size_t index;
  };
  std::vector<Frame> frames_;
};

// nlohmann's message without its "[json.exception.…] " tag, and with the token it
// quotes ("last read: '…'") cut like any user text.
std::string parserMessage(const char* what) {
  std::string m = what;
  if (m.rfind("[json.exception.", 0) == 0) {
    const std::size_t tag = m.find("] ");
    if (tag != std::string::npos) m.erase(0, tag + 2);
  }
  const std::string lastRead = "last read: '";
  std::size_t b = m.find(lastRead);
  if (b != std::string::npos) {
    b += lastRead.size();
    std::size_t e = m.find("'; expected", b);
    if (e == std::string::npos) e = m.rfind('\'');
    if (e != std::string::npos && e >= b) m = m.substr(0, b) + cutForMessage(m.substr(b, e - b)) + m.substr(e);
  }
  return cutForMessage(m, 200);
}

}  // namespace

Json parseJsonText(const std::string& text, const std::string& field, int maxDepth) {
  JsonPath path;
  try {
    // Bounded nesting: deeper documents are rejected while parsing, before a
    // recursive copy or destruction of the tree could overflow the stack.
    return Json::parse(text, [&](int depth, Json::parse_event_t e, Json& parsed) {
      if (depth > maxDepth)
        throw InputError(InputErrorCode::TooLarge, field,
                         "nested too deeply (more than " + std::to_string(maxDepth) + " levels)");
      path.event(e, parsed);
      return true;
    });
  } catch (const Json::out_of_range& e) {
    // 406: a number literal beyond the range of a double (1e999)
    const std::string where = path.str();
    std::string literal = e.what();
    const std::size_t q = literal.find('\'');
    literal = q == std::string::npos ? std::string() : literal.substr(q + 1, literal.size() - q - 2);
    const std::string at =
        where.empty() || where[0] == '[' ? field + where : joinField(field == "scenario" ? "" : field, where);
    throw InputError(InputErrorCode::Range, at,
                     "must be a finite number, got " + cutForMessage(literal) + " (beyond the range of a double)");
  } catch (const Json::exception& e) {
    throw InputError(InputErrorCode::Syntax, field, "invalid JSON (" + parserMessage(e.what()) + ")");
  }
}

std::string cutForMessage(const std::string& s, std::size_t max) { return cutUtf8(s, max); }

std::string describeJson(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case Json::value_t::string: {
      const auto& s = v.get_ref<const std::string&>();
      if (s.size() <= limits::kMaxMessageField) return "string \"" + s + "\"";
      return "string \"" + cutForMessage(s) + "\" (" + std::to_string(s.size()) + " bytes)";
    }
    case Json::value_t::array: return "an array of " + std::to_string(v.size());
    case Json::value_t::object: return "an object";
    default: return formatNumber(v.get<double>());
  }
}

std::string joinField(const std::string& parent, const std::string& key) {
  // An empty key (JSON allows "") is shown quoted, so no field is empty or a bare "params.".
  const std::string shown = key.empty() ? "\"\"" : key;
  return parent.empty() ? shown : parent + "." + shown;
}

double readNumber(const Json& v, const std::string& field) {
  if (!v.is_number()) {
    if (v.is_string()) {
      const auto& s = v.get_ref<const std::string&>();
      if (s == "NaN" || s == "Infinity" || s == "-Infinity")
        throw InputError(InputErrorCode::Range, field, "must be a finite number, got " + s);
    }
    throw InputError(InputErrorCode::Type, field, "must be a number, got " + describeJson(v));
  }
  const double x = v.get<double>();
  if (!std::isfinite(x)) throw InputError(InputErrorCode::Range, field, "must be a finite number");
  return x;
}

double readNumberInRange(const Json& v, const std::string& field, double min, double max, bool minExclusive) {
  const double x = readNumber(v, field);
  const bool belowMin = minExclusive ? !(x > min) : !(x >= min);
  if (belowMin || x > max) {
    const std::string lo = (minExclusive ? "(" : "[") + formatNumber(min);
    throw InputError(InputErrorCode::Range, field,
                     "must be in " + lo + ", " + formatNumber(max) + "], got " + formatNumber(x));
  }
  return x;
}

std::vector<double> readNumbers(const Json& v, const std::string& field, int minCount, int maxCount) {
  if (!v.is_array())
    throw InputError(InputErrorCode::Type, field, "must be an array of numbers, got " + describeJson(v));
  const int n = static_cast<int>(v.size());
  if (n < minCount || n > maxCount) {
    const std::string want =
        minCount == maxCount ? std::to_string(minCount) : std::to_string(minCount) + " to " + std::to_string(maxCount);
    throw InputError(InputErrorCode::Length, field, "expected " + want + " entries, got " + std::to_string(n));
  }
  std::vector<double> out;
  out.reserve(n);
  for (int i = 0; i < n; ++i) out.push_back(readNumber(v[i], field + "[" + std::to_string(i) + "]"));
  return out;
}

std::vector<std::vector<double>> readRows(const Json& v, const std::string& field, int count, int width) {
  if (!v.is_array()) throw InputError(InputErrorCode::Type, field, "must be an array, got " + describeJson(v));
  if (static_cast<int>(v.size()) != count)
    throw InputError(InputErrorCode::Length, field,
                     "expected " + std::to_string(count) + " entries (one per bob), got " + std::to_string(v.size()));
  std::vector<std::vector<double>> rows;
  for (int i = 0; i < count; ++i)
    rows.push_back(readNumbers(v[i], field + "[" + std::to_string(i) + "]", width, width));
  return rows;
}

void requireObject(const Json& v, const std::string& field) {
  if (!v.is_object()) throw InputError(InputErrorCode::Type, field, "must be an object, got " + describeJson(v));
}

void rejectUnknownKeys(const Json& obj, const std::string& field, std::initializer_list<const char*> allowed) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool known = false;
    for (const char* a : allowed) known = known || it.key() == a;
    if (!known) {
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      throw InputError(InputErrorCode::UnknownKey, joinField(field, cutForMessage(it.key())),
                       "unknown field" + (list.empty() ? std::string() : " (known: " + list + ")"));
    }
  }
}

}  // namespace vilab
