#include "record/record_schema.h"

#include <cmath>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gbx {

// Generated at configure time from docs/gbx-record.schema.json (record/CMakeLists.txt).
extern const char* const kRecordSchemaText;

namespace {

using json = nlohmann::json;

// A pattern of the schema's kind: anchored at the start, a sequence of literal characters and
// [classes], each optionally repeated {n} times, then '$' (the whole text) or nothing (a prefix, as
// "^SIG"). Anything else is a schema this reader does not understand.
bool matches_pattern(const std::string& pattern, const std::string& text) {
  if (pattern.size() < 2 || pattern.front() != '^') {
    throw std::logic_error("record schema: unsupported pattern " + pattern);
  }
  const bool whole = pattern.back() == '$';
  const std::size_t end = whole ? pattern.size() - 1 : pattern.size();
  std::size_t at = 0;  // in text
  for (std::size_t p = 1; p < end;) {
    std::set<char> accepted;
    if (pattern[p] == '[') {
      const std::size_t close = pattern.find(']', p);
      if (close == std::string::npos) throw std::logic_error("record schema: unsupported pattern " + pattern);
      for (std::size_t c = p + 1; c < close; ++c) {
        if (c + 2 < close && pattern[c + 1] == '-') {
          for (char x = pattern[c]; x <= pattern[c + 2]; ++x) accepted.insert(x);
          c += 2;
        } else {
          accepted.insert(pattern[c]);
        }
      }
      p = close + 1;
    } else if (std::string("\\.*+?()|{}").find(pattern[p]) == std::string::npos) {
      accepted.insert(pattern[p++]);
    } else {
      throw std::logic_error("record schema: unsupported pattern " + pattern);
    }
    std::size_t count = 1;
    if (p < end && pattern[p] == '{') {
      const std::size_t close = pattern.find('}', p);
      const std::string digits = pattern.substr(p + 1, close - p - 1);
      if (close == std::string::npos || digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) {
        throw std::logic_error("record schema: unsupported pattern " + pattern);
      }
      count = std::stoul(digits);
      p = close + 1;
    }
    for (std::size_t i = 0; i < count; ++i, ++at) {
      if (at >= text.size() || accepted.count(text[at]) == 0) return false;
    }
  }
  return !whole || at == text.size();
}

enum class Type { object, array, string, boolean, null, number, integer, unknown };

Type type_named(const std::string& type) {
  if (type == "object") return Type::object;
  if (type == "array") return Type::array;
  if (type == "string") return Type::string;
  if (type == "boolean") return Type::boolean;
  if (type == "null") return Type::null;
  if (type == "number") return Type::number;
  if (type == "integer") return Type::integer;
  return Type::unknown;
}

bool has_type(const json& value, Type type, const std::string& name) {
  switch (type) {
    case Type::object:
      return value.is_object();
    case Type::array:
      return value.is_array();
    case Type::string:
      return value.is_string();
    case Type::boolean:
      return value.is_boolean();
    case Type::null:
      return value.is_null();
    case Type::number:
      return value.is_number();
    case Type::integer:
      if (value.is_number_integer()) return true;
      return value.is_number_float() && std::trunc(value.get<double>()) == value.get<double>();
    case Type::unknown:
      break;
  }
  throw std::logic_error("record schema: unknown type " + name);
}

std::string type_name(const json& value) { return value.is_number_integer() ? "integer" : value.type_name(); }

// Where a value is, as a JSON pointer spelled only when a violation names it: a record holds a
// hundred thousand samples, and building each one's pointer text was most of the check's time.
struct Where {
  const Where* parent = nullptr;  // null: the top level
  const std::string* key = nullptr;
  std::size_t index = 0;  // when key is null

  std::string text() const {
    if (parent == nullptr) return "";
    return parent->text() + "/" + (key != nullptr ? *key : std::to_string(index));
  }
};

enum class Keyword {
  annotation,
  ref,
  type,
  constant,
  enumeration,
  condition,
  required,
  properties,
  additional_properties,
  dependent_required,
  dependent_schemas,
  items,
  min_items,
  minimum,
  exclusive_minimum,
  maximum,
  pattern,
  unknown
};

Keyword keyword_named(const std::string& name) {
  static const std::unordered_map<std::string, Keyword> keywords = {
      {"$schema", Keyword::annotation},
      {"$id", Keyword::annotation},
      {"$defs", Keyword::annotation},
      {"title", Keyword::annotation},
      {"description", Keyword::annotation},
      {"then", Keyword::annotation},  // read by "if"
      {"$ref", Keyword::ref},
      {"type", Keyword::type},
      {"const", Keyword::constant},
      {"enum", Keyword::enumeration},
      {"if", Keyword::condition},
      {"required", Keyword::required},
      {"properties", Keyword::properties},
      {"additionalProperties", Keyword::additional_properties},
      {"dependentRequired", Keyword::dependent_required},
      {"dependentSchemas", Keyword::dependent_schemas},
      {"items", Keyword::items},
      {"minItems", Keyword::min_items},
      {"minimum", Keyword::minimum},
      {"exclusiveMinimum", Keyword::exclusive_minimum},
      {"maximum", Keyword::maximum},
      {"pattern", Keyword::pattern}};
  const auto found = keywords.find(name);
  return found == keywords.end() ? Keyword::unknown : found->second;
}

// One keyword of a schema object, its name looked up once rather than at every value it checks.
struct Rule {
  Keyword keyword = Keyword::unknown;
  const std::string* name = nullptr;
  const json* argument = nullptr;
  std::vector<std::pair<Type, const std::string*>> types;  // of "type", in its order
};

class Checker {
 public:
  explicit Checker(const json& root) : root_(root) {}

  // The first violation of schema by value at where, or "".
  std::string check(const json& schema, const json& value, const Where& where) const {
    if (schema.is_boolean()) return schema.get<bool>() ? "" : where.text() + ": not allowed here";
    if (!schema.is_object()) {
      throw std::logic_error("record schema: a schema that is not an object at " + where.text());
    }
    return check_rules(rules_of(schema), schema, value, where);
  }

 private:
  std::string check_rules(const std::vector<Rule>& rules, const json& schema, const json& value,
                          const Where& where) const {
    for (const Rule& rule : rules) {
      std::string fault = apply(schema, rule, value, where);
      if (!fault.empty()) return fault;
    }
    return "";
  }

  // The type first: its message says most, and the other keywords then see the kind they expect.
  const std::vector<Rule>& rules_of(const json& schema) const {
    const auto cached = rules_.find(&schema);
    if (cached != rules_.end()) return cached->second;
    std::vector<Rule> rules;
    const auto type = schema.find("type");
    if (type != schema.end()) rules.push_back(rule(type.key(), *type));
    for (auto it = schema.begin(); it != schema.end(); ++it) {
      if (it != type) rules.push_back(rule(it.key(), *it));
    }
    return rules_.emplace(&schema, std::move(rules)).first->second;
  }

  static Rule rule(const std::string& name, const json& argument) {
    Rule rule{keyword_named(name), &name, &argument, {}};
    if (rule.keyword != Keyword::type) return rule;
    const auto add = [&](const json& type) {
      const std::string& type_name_text = type.get_ref<const std::string&>();
      rule.types.emplace_back(type_named(type_name_text), &type_name_text);
    };
    if (!argument.is_array()) {
      add(argument);
      return rule;
    }
    for (const json& type : argument) add(type);
    return rule;
  }

  std::string apply(const json& schema, const Rule& rule, const json& value, const Where& where) const {
    const json& argument = *rule.argument;
    switch (rule.keyword) {
      case Keyword::annotation:
        return "";
      case Keyword::ref:
        return check(resolve(argument), value, where);
      case Keyword::type:
        for (const auto& [type, name] : rule.types) {
          if (has_type(value, type, *name)) return "";
        }
        return where.text() + ": is " + type_name(value) + ", not " +
               (argument.is_array() ? argument.dump() : argument.get<std::string>());
      case Keyword::constant:
        return value == argument ? "" : where.text() + ": is " + value.dump(-1, ' ', true) + ", not " + argument.dump();
      case Keyword::enumeration:
        for (const json& allowed : argument) {
          if (value == allowed) return "";
        }
        return where.text() + ": " + value.dump(-1, ' ', true) + " is not one of " + argument.dump();
      case Keyword::condition:
        if (!check(argument, value, where).empty() || !schema.contains("then")) return "";
        return check(schema["then"], value, where);
      case Keyword::unknown:
        throw std::logic_error("record schema: unsupported keyword " + *rule.name);
      default:
        break;
    }
    // A keyword that applies to another kind of value passes.
    if (value.is_object()) return check_object_keyword(schema, rule.keyword, argument, value, where);
    if (value.is_array()) return check_array_keyword(rule.keyword, argument, value, where);
    if (value.is_number()) return check_number_keyword(rule.keyword, argument, value, where);
    if (value.is_string() && rule.keyword == Keyword::pattern) {
      return matches_pattern(argument.get<std::string>(), value.get<std::string>())
                 ? ""
                 : where.text() + ": " + value.dump(-1, ' ', true) + " does not match " + argument.get<std::string>();
    }
    return "";
  }

  std::string check_object_keyword(const json& schema, Keyword keyword, const json& argument, const json& value,
                                   const Where& where) const {
    switch (keyword) {
      case Keyword::required:
        for (const json& key : argument) {
          const std::string& name = key.get_ref<const std::string&>();
          if (!value.contains(name)) return where.text() + ": has no \"" + name + "\"";
        }
        return "";
      case Keyword::properties:
        for (auto property = argument.begin(); property != argument.end(); ++property) {
          const auto item = value.find(property.key());
          if (item == value.end()) continue;
          std::string fault = check(*property, *item, Where{&where, &property.key()});
          if (!fault.empty()) return fault;
        }
        return "";
      case Keyword::additional_properties: {
        const auto properties = schema.find("properties");
        for (auto item = value.begin(); item != value.end(); ++item) {
          if (properties != schema.end() && properties->contains(item.key())) continue;
          std::string fault = check(argument, *item, Where{&where, &item.key()});
          if (!fault.empty()) return fault;
        }
        return "";
      }
      case Keyword::dependent_required:
        for (const auto& [key, needed] : argument.items()) {
          if (!value.contains(key)) continue;
          for (const json& other : needed) {
            if (!value.contains(other.get<std::string>())) {
              return where.text() + ": has \"" + key + "\" but no \"" + other.get<std::string>() + "\"";
            }
          }
        }
        return "";
      case Keyword::dependent_schemas:
        for (const auto& [key, dependent] : argument.items()) {
          if (!value.contains(key)) continue;
          std::string fault = check(dependent, value, where);
          if (!fault.empty()) return fault;
        }
        return "";
      default:
        return "";
    }
  }

  std::string check_array_keyword(Keyword keyword, const json& argument, const json& value, const Where& where) const {
    if (keyword == Keyword::items) {
      // A record's sample arrays are most of its values: their schema's rules are found once.
      const std::vector<Rule>* rules = argument.is_object() ? &rules_of(argument) : nullptr;
      for (std::size_t i = 0; i < value.size(); ++i) {
        const Where at{&where, nullptr, i};
        std::string fault =
            rules != nullptr ? check_rules(*rules, argument, value[i], at) : check(argument, value[i], at);
        if (!fault.empty()) return fault;
      }
      return "";
    }
    if (keyword == Keyword::min_items) {
      return value.size() >= argument.get<std::size_t>()
                 ? ""
                 : where.text() + ": holds " + std::to_string(value.size()) + " items, fewer than " + argument.dump();
    }
    return "";
  }

  static std::string check_number_keyword(Keyword keyword, const json& argument, const json& value,
                                          const Where& where) {
    if (keyword != Keyword::minimum && keyword != Keyword::exclusive_minimum && keyword != Keyword::maximum) return "";
    const double x = value.get<double>();
    const double bound = argument.get<double>();
    if (keyword == Keyword::minimum) {
      return x >= bound ? "" : where.text() + ": " + value.dump() + " is below " + argument.dump();
    }
    if (keyword == Keyword::exclusive_minimum) {
      return x > bound ? "" : where.text() + ": " + value.dump() + " is not above " + argument.dump();
    }
    return x <= bound ? "" : where.text() + ": " + value.dump() + " is above " + argument.dump();
  }

  // Each $ref is looked up once per check, not once per value it applies to.
  const json& resolve(const json& argument) const {
    const auto cached = resolved_.find(&argument);
    if (cached != resolved_.end()) return *cached->second;
    const std::string reference = argument.get<std::string>();
    if (reference.rfind("#/", 0) != 0) throw std::logic_error("record schema: unsupported $ref " + reference);
    const json& target = root_.at(json::json_pointer(reference.substr(1)));
    resolved_.emplace(&argument, &target);
    return target;
  }

  const json& root_;
  mutable std::unordered_map<const json*, std::vector<Rule>> rules_;
  mutable std::unordered_map<const json*, const json*> resolved_;
};

}  // namespace

const nlohmann::json& record_schema() {
  static const json schema = json::parse(kRecordSchemaText);
  return schema;
}

std::string schema_violation(const nlohmann::json& schema, const nlohmann::json& value) {
  const std::string fault = Checker(schema).check(schema, value, Where{});
  return fault.rfind(':', 0) == 0 ? "the top level" + fault : fault;
}

std::string schema_violation(const nlohmann::json& record) { return schema_violation(record_schema(), record); }

}  // namespace gbx
