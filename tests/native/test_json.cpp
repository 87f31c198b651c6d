// parseJsonText's reader against nlohmann::json::parse, which it replaced: on hand-picked
// edge cases, every scene, the scenario fuzzer's corpus and 20,000 random edits of them,
// both accept the same texts and build the same documents (every value's type, and the
// same dump, which the run hashes read), and refuse the rest with the same code and field
// (and, for all but the syntax errors' wording, the same message).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "vilab/json.hpp"
#include "vilab/limits.hpp"

// Its own namespace: in a unity batch its helpers keep their names apart from the
// other files'.
namespace test_json {

using namespace vilab;

// The reference: parseJsonText as it was, on nlohmann's parser (its callback follows the
// path for a number out of range and bounds the depth).
struct Path {
  struct Frame {
    bool array;
    std::string key;
    std::size_t index;
  };
  std::vector<Frame> frames;
  void event(Json::parse_event_t e, const Json& parsed) {
    using E = Json::parse_event_t;
    if (e == E::object_start || e == E::array_start) frames.push_back({e == E::array_start, std::string(), 0});
    if (e == E::key && !frames.empty()) frames.back().key = cutForMessage(parsed.get<std::string>());
    if (e == E::object_end || e == E::array_end) frames.pop_back();
    if ((e == E::value || e == E::object_end || e == E::array_end) && !frames.empty() && frames.back().array)
      ++frames.back().index;
  }
  std::string str() const {
    std::string out;
    for (const auto& f : frames) {
      if (f.array)
        out += "[" + std::to_string(f.index) + "]";
      else if (!f.key.empty())
        out += (out.empty() ? "" : ".") + f.key;
    }
    return out;
  }
};

// What a reading gave: the document's dump and types, or the error's code, field and message.
struct Outcome {
  bool accepted = false;
  std::string dump, types;
  InputErrorCode code = InputErrorCode::Internal;
  std::string field, message;
};

std::string typesOf(const Json& j) {
  std::string out(1, static_cast<char>('a' + static_cast<int>(j.type())));
  if (j.is_array())
    for (const auto& v : j) out += typesOf(v);
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it) out += "<" + it.key() + ">" + typesOf(it.value());
  return out;
}

Outcome accepted(const Json& j) {
  Outcome o;
  o.accepted = true;
  o.dump = j.dump(-1, ' ', false, Json::error_handler_t::replace);
  o.types = typesOf(j);
  return o;
}

Outcome refused(const InputError& e) {
  Outcome o;
  o.code = e.code();
  o.field = e.field();
  o.message = e.what();
  return o;
}

Outcome reference(const std::string& text, const std::string& field, int maxDepth) {
  Path path;
  try {
    try {
      Json j = Json::parse(text, [&](int depth, Json::parse_event_t e, Json& parsed) {
        if (depth > maxDepth)
          throw InputError(InputErrorCode::TooLarge, field,
                           "nested too deeply (more than " + std::to_string(maxDepth) + " levels)");
        path.event(e, parsed);
        return true;
      });
      const std::size_t nul = text.find('\0');
      if (nul != std::string::npos)
        throw InputError(InputErrorCode::Syntax, field,
                         "unexpected text after the scenario at byte " + std::to_string(nul + 1));
      return accepted(j);
    } catch (const Json::out_of_range& e) {
      const std::string where = path.str();
      std::string literal = e.what();
      const std::size_t q = literal.find('\'');
      literal = literal.substr(q + 1, literal.size() - q - 2);
      const std::string at = where.empty() || where[0] == '[' ? field + where : joinField("", where);
      throw InputError(InputErrorCode::Range, at,
                       "must be a finite number, got " + cutForMessage(literal) + " (beyond the range of a double)");
    } catch (const Json::exception&) {
      const std::size_t end = endOfFirstJsonValue(text);
      if (end < text.size()) {
        const std::size_t next = text.find_first_not_of(" \t\n\r", end);
        if (next != std::string::npos && Json::accept(text.substr(0, std::min(end, text.find('\0')))))
          throw InputError(InputErrorCode::Syntax, field,
                           "unexpected text after the scenario at byte " + std::to_string(next + 1));
      }
      throw InputError(InputErrorCode::Syntax, field, "invalid JSON (…)");
    }
  } catch (const InputError& e) {
    return refused(e);
  }
}

Outcome readJson(const std::string& text, const std::string& field, int maxDepth) {
  try {
    return accepted(parseJsonText(text, field, maxDepth));
  } catch (const InputError& e) {
    return refused(e);
  }
}

// "" when the reader and the reference agree on `text`, else how they differ.
std::string compare(const std::string& text, int maxDepth = limits::kMaxScenarioDepth) {
  const Outcome want = reference(text, "scenario", maxDepth), got = readJson(text, "scenario", maxDepth);
  if (want.accepted != got.accepted)
    return want.accepted ? "refused what nlohmann accepts: " + got.message : "accepted what nlohmann refuses";
  if (want.accepted) {
    if (want.dump != got.dump) return "another dump: " + got.dump + " against " + want.dump;
    if (want.types != got.types) return "other types: " + got.types + " against " + want.types;
    return "";
  }
  if (want.code != got.code || want.field != got.field)
    return "another refusal: " + got.message + " against " + want.message;
  const bool syntax = want.message.find("invalid JSON (") != std::string::npos;
  if (syntax ? got.message.find("scenario: invalid JSON (line ") != 0 : want.message != got.message)
    return "another message: " + got.message + " against " + want.message;
  return "";
}

std::vector<std::string> fileTexts(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    out.push_back(bytes.str());
  }
  return out;
}

const std::vector<std::string> kEdgeCases = {
    "",
    " ",
    "{}",
    "[]",
    "{} ",
    " {}\n",
    "0",
    "-0",
    "-0.0",
    "01",
    "-01",
    "1.",
    ".5",
    "1.5e",
    "1e+",
    "1E-2",
    "+1",
    "-",
    "1e400",
    "-1e400",
    "1e-400",
    "[1e999]",
    "{\"h\":1e999}",
    "{\"a\":{\"b\":[0,1,-2e308]}}",
    "{\"\":1e999}",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "-9223372036854775809",
    "123456789012345678901234567890",
    "0.1",
    "2.5e-3",
    "true",
    "false",
    "null",
    "tru",
    "truex",
    "nul",
    "True",
    "NaN",
    "Infinity",
    "{\"h\":NaN}",
    "\"a\"",
    "\"\\u0041\\u00e9\\u4e2d\"",
    "\"\\ud83d\\ude00\"",
    "\"\\ud83d\"",
    "\"\\ud83dx\"",
    "\"\\ud83d\\u0041\"",
    "\"\\ude00\"",
    "\"\\u12\"",
    "\"\\u12g4\"",
    "\"\\x\"",
    "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
    "\"\\u0000\"",
    std::string("\"a\0b\"", 5),
    std::string("{}\0", 3),
    std::string("{}\0x", 4),
    std::string("{} \0", 4),
    std::string("\0{}", 3),
    std::string("0\0 1", 4),
    std::string("01\0", 3),
    std::string("[1,\0]", 5),
    "\"\x01\"",
    "\"\x7f\"",
    "\"\xc3\xa9\"",
    "\"\xc0\xaf\"",
    "\"\xe0\x80\xaf\"",
    "\"\xed\xa0\x80\"",
    "\"\xf4\x90\x80\x80\"",
    "\"\xf0\x9f\x98\x80\"",
    "\"\xc3\"",
    "\"\xff\"",
    "\"abc",
    "\xef\xbb\xbf{}",
    "\xef\xbb{}",
    "\xef{}",
    " \xef\xbb\xbf{}",
    "{\"a\":1,\"a\":2}",
    "{\"b\":1,\"a\":[1,2,{\"c\":null}]}",
    "{\"a\" 1}",
    "{\"a\":}",
    "{\"a\":1,}",
    "[1,]",
    "[,1]",
    "{a:1}",
    "{'a':1}",
    "[1 2]",
    "{\"a\":1} {\"b\":2}",
    "[] x",
    "{}}",
    "[[]]]",
    "{\"a\":[1,2}",
    "[\"a\":1]",
    "{\"a\":1\n,\n\"b\":x}",
    "[1,\n2,\n\n  q]",
    "/* c */{}",
    "{}//",
    "\t\r\n[\t1\r,\n2 ]\r\n",
    "[-]",
    "[1e]",
    "[1.0e+00, 1.50, 100e-2, 0e0, -0e-0]",
};

TEST_CASE("the JSON reader agrees with nlohmann's parser on its edge cases", "[json]") {
  for (const auto& text : kEdgeCases) {
    INFO(text);
    CHECK(compare(text) == "");
  }
}

TEST_CASE("the JSON reader agrees with nlohmann's parser on the nesting bound", "[json]") {
  const std::vector<std::string> texts = {"[[[1]]]",
                                          "[[[]]]",
                                          "[[[[]]]]",
                                          "{\"a\":{\"b\":{}}}",
                                          "{\"a\":{\"b\":{\"c\":1}}}",
                                          "[[[[x]]]]",
                                          "[[[x",
                                          "[[[[",
                                          "[[[1e999]]]",
                                          "[[[[1e999]]]]",
                                          "{\"a\":[[{}]]}",
                                          "[[[\"\\q\"]]]",
                                          "[[[{\"a\" x}]]]",
                                          "{\"a\":{\"b\":{\"c\"}}}"};
  for (int maxDepth = 0; maxDepth <= 4; ++maxDepth)
    for (const auto& text : texts) {
      INFO(text << " at most " << maxDepth << " levels");
      CHECK(compare(text, maxDepth) == "");
    }
  const std::string deep = std::string(40, '[') + std::string(40, ']');
  CHECK(compare(deep) == "");
  CHECK(readJson(deep, "scenario", limits::kMaxScenarioDepth).code == InputErrorCode::TooLarge);
}

TEST_CASE("the JSON reader agrees with nlohmann's parser on the scenes, the fuzz corpus and 20,000 edits of them",
          "[json]") {
  std::vector<std::string> seeds = fileTexts(VILAB_SCENES_DIR);
  const std::size_t scenes = seeds.size();
  for (auto& text : fileTexts(std::string(VILAB_SCENES_DIR) + "/../tests/fuzz/corpus/scenario"))
    seeds.push_back(std::move(text));
  REQUIRE(scenes > 20);
  REQUIRE(seeds.size() > scenes + 100);
  int acceptedSeeds = 0;
  for (const auto& text : seeds) {
    INFO(text.substr(0, 300));
    REQUIRE(compare(text) == "");
    acceptedSeeds += readJson(text, "scenario", limits::kMaxScenarioDepth).accepted;
  }
  CHECK(acceptedSeeds >= static_cast<int>(scenes));
  // Edits that reach the reader's every branch: structure, numbers, escapes, UTF-8, NUL.
  const std::vector<std::string> pieces = {"{",
                                           "}",
                                           "[",
                                           "]",
                                           "\"",
                                           ":",
                                           ",",
                                           " ",
                                           "\n",
                                           "0",
                                           "1",
                                           "-",
                                           "+",
                                           ".",
                                           "e",
                                           "E",
                                           "\\",
                                           "u",
                                           "d83d",
                                           "t",
                                           "null",
                                           "1e999",
                                           "\\u",
                                           "\xc3",
                                           "\xa9",
                                           "\xed\xa0\x80",
                                           std::string(1, '\0'),
                                           "\x1f",
                                           "\xef\xbb\xbf"};
  std::mt19937_64 rng(20261205);
  int agreed = 0, editsAccepted = 0;
  for (int k = 0; k < 20000; ++k) {
    std::string text = seeds[rng() % seeds.size()];
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = text.empty() ? 0 : rng() % (text.size() + 1);
      const std::string& piece = pieces[rng() % pieces.size()];
      switch (rng() % 3) {
        case 0: text.insert(at, piece); break;
        case 1: text.erase(at, 1 + rng() % 4); break;
        default: text.replace(at, 1, piece); break;
      }
    }
    const std::string why = compare(text);
    INFO(text.substr(0, 300));
    CHECK(why == "");
    agreed += why.empty();
    editsAccepted += readJson(text, "scenario", limits::kMaxScenarioDepth).accepted;
  }
  CHECK(agreed == 20000);
  // Both sides of the comparison are exercised.
  CHECK(editsAccepted > 1000);
  CHECK(editsAccepted < 19000);
}

}  // namespace test_json
