// Settings: defaults, unknown keys and malformed values give errors naming the key.
#include <liesim/sdk/settings.hpp>
#include <liesim/sdk/status.hpp>

#include <doctest/doctest.h>

#include <functional>

#include <string>

using namespace liesim;

namespace {
const std::vector<SettingSpec> specs{{"N", "2", "", "links"}, {"m", "1", "kg", "masses"}, {"name", "", "", "a word"}};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("defaults and given values") {
  Settings s(specs, {{"m", "2.5"}}, "parameter of model 'x'");
  CHECK(s.integer("N", 1, 10) == 2);
  CHECK(s.number("m") == 2.5);
  CHECK(s.given("m"));
  CHECK_FALSE(s.given("N"));
  CHECK_FALSE(s.has("name"));
}

TEST_CASE("errors name the key and the problem") {
  CHECK(error_of([] { Settings(specs, {{"mass", "1"}}, "parameter of model 'x'"); }).find("unknown parameter 'mass' of model 'x'; known: N, m, name") != std::string::npos);
  Settings s(specs, {{"m", "abc"}, {"N", "0"}, {"name", "1,2,x"}}, "parameter of model 'x'");
  CHECK(error_of([&] { s.number("m"); }).find("parameter 'm' of model 'x': 'abc' is not a number") != std::string::npos);
  CHECK(error_of([&] { s.integer("N", 1, 10); }).find("must be in [1, 10] (got 0)") != std::string::npos);
  CHECK(error_of([&] { s.numbers("name"); }).find("bad item 'x'") != std::string::npos);
  Settings t(specs, {{"m", "1,2"}, {"N", "inf"}}, "p");
  CHECK(error_of([&] { t.numbers("m", {3, 6}); }).find("expected 3 or 6 value(s), got 2") != std::string::npos);
  CHECK(error_of([&] { t.number("N"); }).find("not finite") != std::string::npos);
  CHECK(error_of([&] { t.text("name"); }).find("required") != std::string::npos);
  CHECK(error_of([&] { t.choice("m", {"a", "b"}); }).find("is not one of: a, b") != std::string::npos);
  CHECK(error_of([] { parse_assignment("novalue", "--param"); }).find("--param expects KEY=VALUE") != std::string::npos);
}
