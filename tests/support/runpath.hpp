// Test support: the RUNPATH (or RPATH) elements of the ELF files in a folder that would make the
// loader search somewhere other than an absolute or $ORIGIN-based folder (an empty element is the
// current directory: running liesim in a downloaded folder would load that folder's libraries).
#pragma once
#include <support/command.hpp>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace liesim::test {

struct RunpathScan {
  int elf_files = 0;                ///< ELF files read (manifests and scripts are skipped)
  std::vector<std::string> unsafe;  ///< "FILE: [VALUE]" for each file with an unsafe element
};

inline RunpathScan scan_runpaths(const std::vector<std::filesystem::path>& dirs) {
  RunpathScan scan;
  for (const auto& dir : dirs)
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      if (!e.is_regular_file()) continue;
      const Result r = sh("readelf -d '" + e.path().string() + "'");
      if (r.code != 0) continue;
      ++scan.elf_files;
      for (const char* tag : {"(RUNPATH)", "(RPATH)"}) {
        const auto at = r.out.find(tag);
        if (at == std::string::npos) continue;
        const auto open = r.out.find('[', at), close = r.out.find(']', at);
        const std::string value = open < close ? r.out.substr(open + 1, close - open - 1) : std::string();
        bool safe = open < close && !value.empty() && value.front() != ':' && value.back() != ':' &&
                    value.find("::") == std::string::npos;
        std::stringstream list(value);
        for (std::string item; std::getline(list, item, ':');)
          safe = safe && (item.rfind('/', 0) == 0 || item.rfind("$ORIGIN", 0) == 0);
        if (!safe) scan.unsafe.push_back(e.path().string() + ": [" + value + "]");
      }
    }
  return scan;
}

}  // namespace liesim::test
