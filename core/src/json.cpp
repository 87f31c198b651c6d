#include "vilab/json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "vilab/limits.hpp"

namespace vilab {

namespace {

// A JSON reader that accepts exactly what nlohmann::json::parse accepts (RFC 8259: its
// literals, number grammar, escapes, surrogate pairs and UTF-8 table, a leading BOM, and
// a NUL byte read as the end of the text, as nlohmann's lexer reads it) and builds the
// same document: integers without a fraction or exponent as unsigned (or, with a minus,
// signed) 64-bit integers when they fit, every other number through std::strtod; a key
// given twice keeps its last value. So a document dumps to the same text as before. Its
// own code, not nlohmann's parser, which weighed twice as much in the page's first-load wasm.
class JsonReader {
 public:
  JsonReader(const std::string& text, int maxDepth) : text_(text), maxDepth_(maxDepth) {}

  // The document; SyntaxError, RangeError or the depth's InputError otherwise.
  Json document(const std::string& field) {
    field_ = &field;
    if (byte(0) == 0xEF) {  // a byte-order mark, as nlohmann skips it
      if (byte(1) != 0xBB || byte(2) != 0xBF) fail("a byte-order mark must be EF BB BF");
      at_ = 3;
    }
    Json out = value(0);
    skipWhitespace();
    if (!atEnd()) fail("expected the end of the text");
    return out;
  }

  struct SyntaxError {
    std::string message;
  };
  struct RangeError {  // a number beyond the range of a double (1e999), and where it is
    std::string literal;
    std::string path;
  };

 private:
  unsigned byte(std::size_t i) const { return i < text_.size() ? static_cast<unsigned char>(text_[i]) : 0u; }
  // nlohmann's lexer ends the text at a NUL where a token would start
  bool atEnd() const { return at_ >= text_.size() || text_[at_] == '\0'; }
  void skipWhitespace() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r'))
      ++at_;
  }

  // "line L, column C: <what>, found '…'", C counting bytes from 1, as nlohmann counts them.
  [[noreturn]] void fail(const std::string& what) const {
    const std::size_t at = std::min(at_, text_.size());
    const auto begin = text_.begin(), here = begin + static_cast<std::ptrdiff_t>(at);
    const std::size_t line = static_cast<std::size_t>(std::count(begin, here, '\n'));
    const std::size_t lineStart = at == 0 ? 0 : text_.rfind('\n', at - 1);
    const std::size_t column = lineStart == std::string::npos || at == 0 ? at + 1 : at - lineStart;
    std::string found = "the end of the text";
    if (!atEnd()) {
      std::size_t end = at_ + 1;  // the token there: a word, or a string with its quotes
      while (end < text_.size() && end - at_ < 40 && std::strchr(" \t\n\r,:[]{}\"", text_[end]) == nullptr) ++end;
      if (text_[at_] == '"' && end < text_.size() && text_[end] == '"') ++end;
      found = "'" + cutForMessage(text_.substr(at_, end - at_)) + "'";
    }
    throw SyntaxError{"line " + std::to_string(line + 1) + ", column " + std::to_string(column) + ": " + what +
                      ", found " + found};
  }

  // nlohmann's callback sees a value (or a key) inside `depth` arrays and objects after
  // reading it; one deeper than the bound is refused then.
  void checkDepth(int depth) const {
    if (depth > maxDepth_)
      throw InputError(InputErrorCode::TooLarge, *field_,
                       "nested too deeply (more than " + std::to_string(maxDepth_) + " levels)");
  }

  Json value(int depth) {
    skipWhitespace();
    if (atEnd()) fail("expected a value");
    switch (text_[at_]) {
      case '{': return container(depth, false);
      case '[': return container(depth, true);
      case '"': {
        Json out = string();
        checkDepth(depth);
        return out;
      }
      case 't': return literal("true", Json(true), depth);
      case 'f': return literal("false", Json(false), depth);
      case 'n': return literal("null", Json(nullptr), depth);
      default: {
        Json out = number();
        checkDepth(depth);
        return out;
      }
    }
  }

  Json literal(const char* word, Json out, int depth) {
    const std::size_t n = std::strlen(word);
    if (text_.compare(at_, n, word) != 0) fail("expected a value");
    at_ += n;
    checkDepth(depth);
    return out;
  }

  // The byte c, when it is next.
  bool take(char c) {
    if (atEnd() || text_[at_] != c) return false;
    ++at_;
    return true;
  }

  // An object or an array: its members (a key, ':' and a value) or its elements, in order.
  Json container(int depth, bool isArray) {
    ++at_;  // { or [
    checkDepth(depth);
    const char close = isArray ? ']' : '}';
    Json out = isArray ? Json::array() : Json::object();
    path_.push_back({isArray, nullptr, 0});
    skipWhitespace();
    if (!take(close)) {
      do {
        if (isArray) {
          out.push_back(value(depth + 1));
          ++path_.back().index;
        } else {
          skipWhitespace();
          if (atEnd() || text_[at_] != '"') fail("expected a key (a string)");
          std::string key = string();
          checkDepth(depth + 1);
          path_.back().key = &key;  // read only while its value is read
          skipWhitespace();
          if (!take(':')) fail("expected ':' after the key");
          out[std::move(key)] = value(depth + 1);  // the value first (C++17)
        }
        skipWhitespace();
      } while (take(','));
      if (!take(close))
        fail(isArray ? "expected ',' or ']' after an element of an array"
                     : "expected ',' or '}' after a member of an object");
    }
    path_.pop_back();
    return out;
  }

  // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  Json number() {
    const std::size_t start = at_;
    const auto digits = [&] {
      const std::size_t from = at_;
      while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
      return at_ > from;
    };
    const bool negative = text_[at_] == '-';
    if (negative) ++at_;
    if (at_ < text_.size() && text_[at_] == '0')
      ++at_;
    else if (!(at_ < text_.size() && text_[at_] >= '1' && text_[at_] <= '9') || !digits())
      fail(negative ? "expected a digit after '-'" : "expected a value");
    bool integer = true;
    if (at_ < text_.size() && text_[at_] == '.') {
      ++at_;
      integer = false;
      if (!digits()) fail("expected a digit after '.'");
    }
    if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
      ++at_;
      integer = false;
      if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
      if (!digits()) fail("expected a digit in the exponent");
    }
    token_.assign(text_, start, at_ - start);
    if (integer) {  // nlohmann's integers, when they fit (its strtoull and strtoll, without errno)
      using U = Json::number_unsigned_t;
      const U limit = negative ? U(1) << 63 : ~U(0);  // |INT64_MIN|, UINT64_MAX
      U magnitude = 0;
      bool fits = true;
      for (std::size_t i = start + (negative ? 1 : 0); i < at_; ++i) {
        const U digit = static_cast<U>(text_[i] - '0');
        fits = fits && magnitude <= (limit - digit) / 10;
        magnitude = magnitude * 10 + digit;
      }
      if (fits && !negative) return Json(magnitude);
      if (fits)
        return Json(magnitude == limit ? std::numeric_limits<Json::number_integer_t>::min()
                                       : -static_cast<Json::number_integer_t>(magnitude));
    }
    const double x = std::strtod(token_.c_str(), nullptr);
    if (!std::isfinite(x)) throw RangeError{token_, pathText()};
    return Json(x);
  }

  // A string token: UTF-8 as nlohmann's lexer checks it (no control character, no
  // overlong form, surrogate or code point beyond U+10FFFF), escapes decoded.
  // Built in one buffer and copied out at its size, as nlohmann's lexer does.
  std::string string() {
    ++at_;  // "
    token_.clear();
    for (;;) {
      if (at_ >= text_.size()) fail("expected '\"' to close the string");
      const unsigned c = byte(at_);
      if (c == '"') {
        ++at_;
        return token_;
      }
      if (c < 0x20) fail("a control character in a string must be escaped");
      if (c == '\\') {
        escape(token_);
        continue;
      }
      const std::size_t len = utf8CharLength(text_, at_);
      if (len == 0) fail("a string must be valid UTF-8");
      token_.append(text_, at_, len);
      at_ += len;
    }
  }

  void escape(std::string& out) {
    ++at_;  // the backslash
    const char c = at_ < text_.size() ? text_[at_] : '\0';
    const char* simple = std::strchr("\"\\/bfnrt", c);
    if (c != '\0' && simple != nullptr) {
      out += "\"\\/\b\f\n\r\t"[simple - "\"\\/bfnrt"];
      ++at_;
      return;
    }
    if (c != 'u') fail("expected an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u");
    ++at_;
    unsigned code = hex4();
    if (code >= 0xDC00 && code <= 0xDFFF) fail("a low surrogate (\\uDC00 to \\uDFFF) must follow a high one");
    if (code >= 0xD800 && code <= 0xDBFF) {
      if (text_.compare(at_, 2, "\\u") != 0) fail("a high surrogate must be followed by \\uDC00 to \\uDFFF");
      at_ += 2;
      const unsigned low = hex4();
      if (low < 0xDC00 || low > 0xDFFF) fail("a high surrogate must be followed by \\uDC00 to \\uDFFF");
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    }
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  unsigned hex4() {
    unsigned code = 0;
    for (int k = 0; k < 4; ++k, ++at_) {
      const unsigned c = byte(at_);
      const unsigned digit = c >= '0' && c <= '9'   ? c - '0'
                             : c >= 'a' && c <= 'f' ? c - 'a' + 10
                             : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                    : 16u;
      if (digit == 16) fail("expected four hexadecimal digits after \\u");  // byte() is 0 past the end
      code = code * 16 + digit;
    }
    return code;
  }

  // Where the reader is: "params.masses[1]" ("" at the top); an empty key adds nothing.
  std::string pathText() const {
    std::string out;
    for (const auto& f : path_) {
      if (f.array)
        out += "[" + std::to_string(f.index) + "]";
      else if (f.key != nullptr && !f.key->empty())
        out += (out.empty() ? "" : ".") + cutForMessage(*f.key);
    }
    return out;
  }

  struct Frame {
    bool array;
    const std::string* key;  // the member being read
    std::size_t index;
  };
  const std::string& text_;
  const int maxDepth_;
  const std::string* field_ = nullptr;
  std::size_t at_ = 0;
  std::vector<Frame> path_;
  std::string token_;  // the string or number being read
};

// Whether `text` is one JSON document. nlohmann's accept() has no bound on the nesting,
// but parseJsonText asks only of a prefix whose reading failed within `maxDepth` levels.
bool acceptsJson(const std::string& text, int maxDepth) {
  try {
    JsonReader(text, maxDepth).document("");
    return true;
  } catch (...) {
    return false;
  }
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
  try {
    // Bounded nesting: deeper documents are refused while reading, before a recursive
    // copy or destruction of the tree could overflow the stack.
    Json j = JsonReader(text, maxDepth).document(field);
    // Read, so any NUL is outside strings (the reader refuses one inside) and after the end.
    const std::size_t nul = text.find('\0');
    if (nul != std::string::npos) trailingText(field, nul);
    return j;
  } catch (const JsonReader::RangeError& e) {
    const std::string& where = e.path;
    const std::string at =
        where.empty() || where[0] == '[' ? field + where : joinField(field == "scenario" ? "" : field, where);
    throw InputError(InputErrorCode::Range, at,
                     "must be a finite number, got " + cutForMessage(e.literal) + " (beyond the range of a double)");
  } catch (const JsonReader::SyntaxError& e) {
    // A whole document followed by more text: say so, and where.
    const std::size_t end = endOfFirstJsonValue(text);
    if (end < text.size()) {
      const std::size_t next = text.find_first_not_of(" \t\n\r", end);
      if (next != std::string::npos && acceptsJson(text.substr(0, std::min(end, text.find('\0'))), maxDepth))
        trailingText(field, next);
    }
    throw InputError(InputErrorCode::Syntax, field, "invalid JSON (" + cutForMessage(e.message, 200) + ")");
  }
}

std::size_t endOfFirstJsonValue(const std::string& text) {
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
