#pragma once
// Reading fields of JSON written by someone else (a saved report, a record a
// target's code could tamper with) without throwing on a wrong type: a field
// that is missing or of another type reads as the fallback.
#include <string>

#include "onramp/report/model.h"

namespace onramp::report {

inline const Json* field(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

inline std::string text_field(const Json& object, const char* key, std::string fallback = "") {
  const Json* v = field(object, key);
  return v && v->is_string() ? v->get<std::string>() : fallback;
}

inline bool bool_field(const Json& object, const char* key, bool fallback) {
  const Json* v = field(object, key);
  return v && v->is_boolean() ? v->get<bool>() : fallback;
}

inline double number_field(const Json& object, const char* key, double fallback) {
  const Json* v = field(object, key);
  return v && v->is_number() ? v->get<double>() : fallback;
}

// The value under key as it is, or null.
inline Json value_field(const Json& object, const char* key) {
  const Json* v = field(object, key);
  return v ? *v : Json();
}

// The array under key, or an empty one.
inline const Json& array_field(const Json& object, const char* key) {
  static const Json empty = Json::array();
  const Json* v = field(object, key);
  return v && v->is_array() ? *v : empty;
}

}  // namespace onramp::report
