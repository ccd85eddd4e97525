// libFuzzer harness: the KEY=VALUE settings parser (numbers, integers with bounds, vectors,
// choices, booleans) on arbitrary values. Every value must parse or raise a liesim::Error.
#include <liesim/sdk/settings.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string value(reinterpret_cast<const char*>(data), size);
  const std::vector<liesim::SettingSpec> specs{{"x", "0", "", "fuzzed"}};
  try {
    const liesim::Settings s(specs, {{"x", value}}, "fuzz");
    const auto guarded = [](auto&& f) {
      try {
        f();
      } catch (const liesim::Error&) {
      }
    };
    guarded([&] { (void)s.number("x"); });
    guarded([&] { (void)s.positive("x"); });
    guarded([&] { (void)s.integer("x", -1000000, 1000000); });
    guarded([&] { (void)s.integer("x", 1, 1L << 50); });
    guarded([&] { (void)s.numbers("x", {3, 9}); });
    guarded([&] { (void)s.choice("x", {"a", "b"}); });
    guarded([&] { (void)s.text("x"); });
  } catch (const liesim::Error&) {
  }
  return 0;
}
