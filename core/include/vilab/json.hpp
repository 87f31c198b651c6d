// Reading JSON input with errors that name the field ("params.masses[1]: must be
// positive, got -2"). Used by the scenario parser for the CLI, the JS API and links.
#pragma once

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "vilab/types.hpp"

namespace vilab {

using Json = nlohmann::json;

// JSON text from a user (a scenario, a definition) as a document, nested at most
// `maxDepth` levels. Errors are InputErrors: syntax errors name `field` and say where
// (line, column, the token cut for the message); a number out of the range of a double
// names the field that holds it ("h: must be a finite number, got 1e999 …").
Json parseJsonText(const std::string& text, const std::string& field, int maxDepth);

// Where the first JSON value of `text` ends, by its brackets and strings (for a text whose
// first value is well formed): the offset just past it, or npos. Text after it is reported
// as text after the document rather than as a syntax error.
std::size_t endOfFirstJsonValue(const std::string& text);

// User text quoted in a message, cut to `max` bytes at a UTF-8 character boundary.
std::string cutForMessage(const std::string& s, std::size_t max = 32);
// Short description of a JSON value for messages; long strings are cut.
std::string describeJson(const Json& v);

// A finite number; strings such as "NaN" (how the JS API encodes non-finite
// numbers) are rejected with their text.
double readNumber(const Json& v, const std::string& field);
double readNumberInRange(const Json& v, const std::string& field, double min, double max, bool minExclusive);
std::vector<double> readNumbers(const Json& v, const std::string& field, int minCount, int maxCount);
// An array of `count` arrays of `width` numbers each.
std::vector<std::vector<double>> readRows(const Json& v, const std::string& field, int count, int width);
void requireObject(const Json& v, const std::string& field);
void rejectUnknownKeys(const Json& obj, const std::string& field, std::initializer_list<const char*> allowed);
std::string joinField(const std::string& parent, const std::string& key);

}  // namespace vilab
