// The viewer page: share/liesim/viewer.html (view.html with three.js embedded at build time) with
// the view document in place of its data marker.
#include <liesim/host/share_scripts.hpp>
#include <liesim/sdk/status.hpp>
#include <liesim/host/view.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace liesim {

namespace fs = std::filesystem;

void write_view_page(const nlohmann::json& data, const std::string& path) {
  std::error_code ec;
  const fs::path page = share_folder() / "viewer.html";
  std::ifstream in(page, std::ios::binary);
  if (!in) throw Error(fmt::format("view: the viewer page {} is missing (reinstall liesim)", page.string()));
  std::ostringstream text;
  text << in.rdbuf();
  std::string html = text.str();
  const std::string marker = "/*@VIEW_DATA@*/";
  const std::size_t at = html.find(marker);
  if (at == std::string::npos) throw Error(fmt::format("view: the viewer page {} has no data marker (reinstall liesim)", page.string()));
  // Inside <script>, "</" could end the element: JSON allows "<\/" for it.
  std::string json = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  for (std::size_t p = 0; (p = json.find("</", p)) != std::string::npos; p += 3) json.replace(p, 2, "<\\/");
  html.replace(at, marker.size(), json);
  const fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  const std::string temporary = path + ".part";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << html;
    out.close();
    if (!out) {
      std::remove(temporary.c_str());
      throw Error(fmt::format("view: writing '{}' failed (disk full or not writable)", path));
    }
  }
  fs::rename(temporary, target, ec);
  if (ec) throw Error(fmt::format("view: writing '{}' failed: {}", path, ec.message()));
}

}  // namespace liesim
