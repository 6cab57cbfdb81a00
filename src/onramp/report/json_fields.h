#pragma once
// Reading fields of JSON written by someone else (a saved report, a record a
// target's code could tamper with) without throwing on a wrong type: a field
// that is missing or of another type reads as the fallback.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace onramp::report {

// Each works on nlohmann::json and nlohmann::ordered_json alike.

template <class Json>
const Json* field(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

template <class Json>
std::string text_field(const Json& object, const char* key, std::string fallback = "") {
  const Json* v = field(object, key);
  return v && v->is_string() ? v->template get<std::string>() : fallback;
}

template <class Json>
bool bool_field(const Json& object, const char* key, bool fallback) {
  const Json* v = field(object, key);
  return v && v->is_boolean() ? v->template get<bool>() : fallback;
}

template <class Json>
double number_field(const Json& object, const char* key, double fallback) {
  const Json* v = field(object, key);
  return v && v->is_number() ? v->template get<double>() : fallback;
}

template <class Json>
uint64_t unsigned_field(const Json& object, const char* key, uint64_t fallback) {
  const Json* v = field(object, key);
  return v && v->is_number_unsigned() ? v->template get<uint64_t>() : fallback;
}

// An array of whole numbers (a tensor's shape), or nullopt where `value` is
// anything else. A float is never converted: nlohmann casts it, and out of the
// integer's range that cast is undefined behaviour.
template <class Json>
std::optional<std::vector<int64_t>> whole_numbers(const Json& value) {
  if (!value.is_array()) return std::nullopt;
  std::vector<int64_t> out;
  for (const auto& n : value) {
    if (!n.is_number_integer()) return std::nullopt;
    out.push_back(n.template get<int64_t>());
  }
  return out;
}

// The value under key as it is, or null.
template <class Json>
Json value_field(const Json& object, const char* key) {
  const Json* v = field(object, key);
  return v ? *v : Json();
}

// The array under key, or an empty one.
template <class Json>
const Json& array_field(const Json& object, const char* key) {
  static const Json empty = Json::array();
  const Json* v = field(object, key);
  return v && v->is_array() ? *v : empty;
}

// What a reader of records brings in with one line: `using namespace report::fields;`.
namespace fields {
using report::array_field;
using report::bool_field;
using report::field;
using report::number_field;
using report::text_field;
using report::unsigned_field;
using report::value_field;
using report::whole_numbers;
}  // namespace fields

}  // namespace onramp::report
