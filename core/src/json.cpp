#include "vilab/json.hpp"

#include <algorithm>
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

// Where the first JSON value of `text` ends, by its brackets and strings (for a text
// whose first value nlohmann accepts): the offset just past it, or npos.
std::size_t endOfFirstValue(const std::string& text) {
  std::size_t i = text.find_first_not_of(" \t\n\r");
  if (i == std::string::npos) return i;
  const char first = text[i];
  if (first == 't' || first == 'n') return i + 4;
  if (first == 'f') return i + 5;
  if (first != '{' && first != '[' && first != '"') {
    const std::size_t end = text.find_first_not_of("0123456789+-.eE", i);
    return end == std::string::npos ? text.size() : end;
  }
  int depth = 0;
  bool inString = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"') {
        inString = false;
        if (depth == 0) return i + 1;
      }
    } else if (c == '"') {
      inString = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return i + 1;
    }
  }
  return std::string::npos;
}

// Text after a document's end: only whitespace may follow it. nlohmann stops at a NUL
// (C strings end there), so "{…}\0 garbage" would otherwise read as "{…}".
[[noreturn]] void trailingText(const std::string& field, std::size_t at) {
  throw InputError(InputErrorCode::Syntax, field,
                   "unexpected text after the " + std::string(field == "scenario" ? "scenario" : "JSON value") +
                       " at byte " + std::to_string(at + 1));
}

}  // namespace

Json parseJsonText(const std::string& text, const std::string& field, int maxDepth) {
  JsonPath path;
  try {
    // Bounded nesting: deeper documents are rejected while parsing, before a
    // recursive copy or destruction of the tree could overflow the stack.
    Json j = Json::parse(text, [&](int depth, Json::parse_event_t e, Json& parsed) {
      if (depth > maxDepth)
        throw InputError(InputErrorCode::TooLarge, field,
                         "nested too deeply (more than " + std::to_string(maxDepth) + " levels)");
      path.event(e, parsed);
      return true;
    });
    // Parsed, so any NUL is outside strings (nlohmann refuses one inside) and after the end.
    const std::size_t nul = text.find('\0');
    if (nul != std::string::npos) trailingText(field, nul);
    return j;
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
    // A whole document followed by more text: say so, and where.
    const std::size_t end = endOfFirstValue(text);
    if (end < text.size()) {
      const std::size_t next = text.find_first_not_of(" \t\n\r", end);
      if (next != std::string::npos && Json::accept(text.substr(0, std::min(end, text.find('\0')))))
        trailingText(field, next);
    }
    throw InputError(InputErrorCode::Syntax, field, "invalid JSON (" + parserMessage(e.what()) + ")");
  }
}

std::string cutForMessage(const std::string& s, std::size_t max) {
  std::string out = validUtf8(escapeControl(s), max);
  if (out.size() <= max) return out;
  std::size_t end = max;  // at a character boundary
  while (end > 0 && (static_cast<unsigned char>(out[end]) & 0xC0) == 0x80) --end;
  // …and never inside an escape: "\u00" alone would read as text the user did not write.
  const std::size_t slash = end > 0 ? out.rfind('\\', end - 1) : std::string::npos;
  if (slash != std::string::npos && end - slash < 6 && out.compare(slash, 3, "\\u0") == 0) end = slash;
  out.resize(end);
  return out + "\xE2\x80\xA6";
}

std::string describeJson(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case Json::value_t::string: {
      const auto& s = v.get_ref<const std::string&>();
      if (s.size() <= limits::kMaxMessageField) return "string \"" + escapeControl(s) + "\"";
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
