// libFuzzer harness: the study-file parser (TOML, validation, sweep expansion) on arbitrary text.
// Every input must end in a parsed study or a liesim::Error; anything else (a crash, another
// exception, a sanitizer report, a hang) is a finding.
#include <liesim/sdk/status.hpp>
#include <liesim/study/study_file.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const liesim::study::StudySpec s = liesim::study::parse_study(text, "fuzz.toml");
    (void)liesim::study::expand(s);
  } catch (const liesim::Error&) {
  }
  return 0;
}
