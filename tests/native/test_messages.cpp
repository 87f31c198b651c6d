// Messages (core/include/vilab/types.hpp, core/src/json.cpp): valid UTF-8 whatever
// the input, bounded in length, and naming the field, also for JSON the parser cannot
// read (a number beyond the range of a double, invalid bytes, megabytes of text).
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// The InputError parseScenario throws for `text`.
InputError scenarioError(const std::string& text) {
  try {
    parseScenario(text);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no error for " << text.substr(0, 80));
  return InputError(InputErrorCode::Internal, "", "");
}

// Valid UTF-8 that nlohmann can dump (it throws on anything else), and bounded.
void checkMessage(const std::string& m) {
  INFO(m.substr(0, 400));
  CHECK(invalidUtf8Offset(m) == std::string::npos);
  CHECK_NOTHROW(Json(m).dump());
  CHECK(m.size() <= limits::kMaxMessageBytes);
}

}  // namespace

TEST_CASE("cuts never split a UTF-8 character, and invalid bytes become U+FFFD", "[messages]") {
  // 'a' then 20 × é (2 bytes each): byte 32 is the middle of the 16th é.
  const std::string accented = "a" + repeat("\xC3\xA9", 20);
  const std::string cut = cutForMessage(accented);
  CHECK(cut == "a" + repeat("\xC3\xA9", 15) + "\xE2\x80\xA6");
  for (std::size_t max = 1; max < 45; ++max) {
    INFO(max);
    CHECK(invalidUtf8Offset(cutForMessage(accented, max)) == std::string::npos);
    CHECK(invalidUtf8Offset(cutForMessage(repeat("\xF0\x9F\x98\x80", 12), max)) == std::string::npos);
  }
  CHECK(validUtf8("42\xFF") == "42\xEF\xBF\xBD");
  CHECK(validUtf8("\xC3") == "\xEF\xBF\xBD");                     // a truncated sequence
  CHECK(validUtf8("\xED\xA0\x80") == repeat("\xEF\xBF\xBD", 3));  // a UTF-16 surrogate
  CHECK(validUtf8("\xC0\xAF") == repeat("\xEF\xBF\xBD", 2));      // an overlong form
  CHECK(invalidUtf8Offset("ok \xC3\xA9 \xE2\x80\xA6 \xF0\x9F\x98\x80") == std::string::npos);
  CHECK(invalidUtf8Offset("ab\xC3(") == 2);
  // The whole message: at most kMaxMessageBytes, cut at a boundary.
  const std::string bounded = boundedMessage(repeat("\xC3\xA9", 400));
  CHECK(bounded.size() <= limits::kMaxMessageBytes);
  CHECK(bounded.size() >= limits::kMaxMessageBytes - 4);
  CHECK(invalidUtf8Offset(bounded) == std::string::npos);
  CHECK(boundedMessage("short") == "short");
}

TEST_CASE("scenario errors quote user text as valid UTF-8, and stay bounded", "[messages][input]") {
  {
    const InputError e = scenarioError(R"({"system":")" + std::string("a") + repeat("\xC3\xA9", 20) + R"("})");
    CHECK(e.field() == "system");
    CHECK_THAT(e.what(), Catch::Contains("unknown id \"a" + repeat("\xC3\xA9", 15) + "\xE2\x80\xA6\" (41 bytes)"));
    checkMessage(e.what());
  }
  for (const std::string& text :
       {std::string("[42\xC3\xBF"), std::string("[42\xFF"), std::string("{\"system\":\"\xC3\"}"),
        std::string("{\"h\xFF\":1}"), "\"" + repeat("\xC3\xA9", 100) + "\xC3"}) {
    const InputError e = scenarioError(text);
    CHECK(e.field() == "scenario");
    CHECK_THAT(e.what(), Catch::StartsWith("scenario: invalid JSON ("));
    checkMessage(e.what());
  }
  // Megabytes of text in the token the parser quotes: cut like any user text.
  for (const auto& [text, field] :
       std::vector<std::pair<std::string, std::string>>{{"\"" + std::string(4000000, 'x'), "scenario"},
                                                        {"{\"system\":" + std::string(4000000, '7') + "x", "system"},
                                                        {"[" + std::string(4000000, '7'), "scenario[0]"},
                                                        {std::string(4000000, 't'), "scenario"}}) {
    const InputError e = scenarioError(text);
    CHECK(e.field() == field);
    checkMessage(e.what());
    CHECK(std::string(e.what()).size() < 300);
  }
  // Keys of 1 MB: the field is cut.
  const InputError key = scenarioError(R"({"system":"oscillator",")" + std::string(1 << 20, 'k') + R"(":1})");
  CHECK(key.field() == std::string(32, 'k') + "\xE2\x80\xA6");
  checkMessage(key.what());
}

TEST_CASE("a number beyond the range of a double names its field", "[messages][input]") {
  const InputError h = scenarioError(R"({"system":"oscillator","h":1e999})");
  CHECK(h.field() == "h");
  CHECK(std::string(h.what()) == "h: must be a finite number, got 1e999 (beyond the range of a double)");
  const InputError mass = scenarioError(R"({"system":"chain","params":{"masses":[1,2,-1e400],"lengths":[1,1,1]}})");
  CHECK(mass.field() == "params.masses[2]");
  const InputError deep = scenarioError(R"({"system":"rigid-body","initial":{"orientation":[1,0,0,0],"omega":[[0],1,)" +
                                        std::string(400, '9') + "]}}");
  CHECK(deep.field() == "initial.omega[2]");
  CHECK_THAT(deep.what(), Catch::Contains(std::string(32, '9') + "\xE2\x80\xA6"));
  checkMessage(deep.what());
  // The same reader serves definitions (lab.inspectLagrangian): the field is under params.
  try {
    parseJsonText(R"({"constants":{"k":-1e999}})", "params", limits::kMaxScenarioDepth);
    FAIL("1e999 accepted");
  } catch (const InputError& e) {
    CHECK(e.field() == "params.constants.k");
  }
}

TEST_CASE("an empty key is named, quoted, never an empty field", "[messages][input]") {
  // Found by the scenario fuzz target (tests/fuzz): ": unknown field" named nothing.
  const InputError top = scenarioError(R"({"system":"oscillator","":1})");
  CHECK(top.field() == "\"\"");
  CHECK_THAT(top.what(), Catch::StartsWith("\"\": unknown field (known: system,"));
  CHECK(scenarioError(R"({"system":"oscillator","params":{"":1}})").field() == "params.\"\"");
  CHECK(scenarioError(R"({"system":"oscillator","options":{"":1}})").field() == "options.\"\"");
}

TEST_CASE("every refusal and input message stays within the bound", "[messages]") {
  // The longest messages the library writes: id lists, forcing, nesting.
  for (const std::string& text :
       {std::string(R"({"system":"oscillator","integrator":")") + std::string(5000, 'z') + "\"}",
        std::string(R"({"system":"oscillator","params":{"damping":1},"integrator":"rk4","options":{"x":1}})"),
        std::string(R"({"system":"rigid-body","params":{"damping":1},"integrator":"quaternion"})"),
        "{\"system\":\"chain\",\"params\":{\"masses\":" + repeat("[", 40) + repeat("]", 40) + "}}"}) {
    const InputError e = scenarioError(text);
    checkMessage(e.what());
    CHECK(e.field().size() <= limits::kMaxFieldBytes);
  }
}
