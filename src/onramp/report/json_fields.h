#pragma once
// Reading fields of JSON written by someone else (a saved report, a record a
// target's code could tamper with) without throwing on a wrong type: a field
// that is missing or of another type reads as the fallback.
#include <cstdint>
#include <string>

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
}  // namespace fields

}  // namespace onramp::report
