// Plugin discovery by file name and manifest, loading on demand, and the errors that name files.
#include <liesim/host/registry.hpp>

#include <boost/dll/runtime_symbol_info.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <unistd.h>

namespace fs = std::filesystem;

namespace liesim {

PluginManifest manifest_from_json(const nlohmann::json& j) {
  PluginManifest m;
  const std::string kind = j.at("kind").get<std::string>();
  if (kind != "model" && kind != "integrator") throw Error(fmt::format("unknown plugin kind '{}'", kind));
  m.kind = kind == "model" ? PluginKind::model : PluginKind::integrator;
  m.name = j.at("name").get<std::string>();
  m.version = j.value("version", std::string());
  m.summary = j.value("summary", std::string());
  const auto abi = j.at("abi");
  m.abi_major = abi.at(0).get<int>();
  m.abi_minor = abi.at(1).get<int>();
  m.methods = j.value("methods", std::vector<std::string>{});
  m.library_size = j.value("library_size", std::uintmax_t{0});
  return m;
}

namespace {
/// The bytes of a file of at most 1 MiB (a manifest is a few hundred); false if it cannot be read
/// or is larger.
bool read_small_file(const fs::path& path, std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char buffer[4096];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, f)) > 0 && text.size() <= (1u << 20)) text.append(buffer, got);
  const bool ok = !std::ferror(f) && text.size() <= (1u << 20);
  std::fclose(f);
  return ok;
}

/// The manifest beside `file`, if it exists, names it and was made from a library of its size.
std::optional<PluginManifest> read_manifest(const fs::path& file, const std::string& name) {
  const fs::path path = manifest_path(file);
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  const auto size = fs::file_size(file, ec);
  if (ec) return std::nullopt;
  try {
    // Read whole and parsed from memory: every command reads every manifest on the search path,
    // and a stream-fed parser costs several times more per byte.
    std::string text;
    if (!read_small_file(path, text)) return std::nullopt;
    PluginManifest m = manifest_from_json(nlohmann::json::parse(text));
    if (m.name != name || m.abi_major != LIESIM_ABI_MAJOR || m.library_size != size) return std::nullopt;
    return m;
  } catch (const std::exception&) {
    return std::nullopt;  // unreadable: probe the library instead
  }
}
}  // namespace

namespace {
// Probe outcomes of files without a manifest, cached so that a file that hangs or crashes while
// being probed costs the probe's time limit once, not on every command: one JSON file per
// plugin path in LIESIM_CACHE_DIR, else $XDG_CACHE_HOME/liesim/probes, else
// ~/.cache/liesim/probes, keyed on the file's size, modification time and a hash of its bytes.
fs::path probe_cache_dir() {
  if (const char* d = std::getenv("LIESIM_CACHE_DIR"); d && *d) return fs::path(d) / "probes";
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return fs::path(d) / "liesim" / "probes";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "liesim" / "probes";
  return {};
}

/// FNV-1a over the file's bytes ("" if it cannot be read).
std::string content_hash(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  std::uint64_t h = 1469598103934665603ull;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    for (std::streamsize i = 0; i < in.gcount(); ++i) h = (h ^ static_cast<unsigned char>(buf[i])) * 1099511628211ull;
    if (!in) break;
  }
  return fmt::format("{:016x}", h);
}

nlohmann::json probe_key(const fs::path& file) {
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  if (ec) return {};
  const auto mtime = fs::last_write_time(file, ec).time_since_epoch().count();
  if (ec) return {};
  return {{"file", fs::absolute(file, ec).string()}, {"size", size}, {"mtime", mtime}, {"hash", content_hash(file)}};
}

fs::path probe_cache_file(const fs::path& dir, const nlohmann::json& key) {
  return dir / fmt::format("{:016x}.json", std::hash<std::string>{}(key.at("file").get<std::string>()));
}

/// The probe of `file`, from the cache when its key matches, else run and cached.
ProbeResult cached_probe(const fs::path& file) {
  std::error_code ec;
  // Not a regular file (a FIFO): refused without opening it, nothing to cache.
  if (!fs::is_regular_file(file, ec)) return probe_plugin(file);
  const fs::path dir = probe_cache_dir();
  const nlohmann::json key = probe_key(file);
  if (dir.empty() || key.is_null()) return probe_plugin(file);
  const fs::path cache = probe_cache_file(dir, key);
  try {
    std::ifstream in(cache);
    if (in) {
      const auto j = nlohmann::json::parse(in);
      if (j.at("key") == key) {
        ProbeResult r;
        if (!j.at("manifest").is_null()) r.manifest = manifest_from_json(j.at("manifest"));
        r.metadata = j.at("metadata").get<std::string>();
        r.failure = j.at("failure").get<std::string>();
        return r;
      }
    }
  } catch (const std::exception&) {  // unreadable: probe again
  }
  ProbeResult r = probe_plugin(file);
  if (r.failure.rfind("could not probe it", 0) == 0) return r;  // this machine's trouble (fork, pipe), not the file's
  nlohmann::json manifest = nullptr;
  if (r.manifest) manifest = nlohmann::json::parse(manifest_json(*r.manifest));
  fs::create_directories(dir, ec);
  const fs::path tmp = cache.string() + fmt::format(".{}", ::getpid());
  {
    std::ofstream out(tmp);
    out << nlohmann::json{{"key", key}, {"manifest", manifest}, {"metadata", r.metadata}, {"failure", r.failure}}.dump() << "\n";
  }
  fs::rename(tmp, cache, ec);  // atomic: concurrent commands (MPI ranks) never read half a file
  if (ec) fs::remove(tmp, ec);
  return r;
}
}  // namespace

Registry::Registry(Registry&& other) noexcept
    : candidates_(std::move(other.candidates_)), loaded_(std::move(other.loaded_)), failures_(std::move(other.failures_)) {}

std::vector<fs::path> Registry::search_path(const std::vector<std::string>& cli_paths) {
  std::vector<fs::path> dirs(cli_paths.begin(), cli_paths.end());
  if (const char* env = std::getenv("LIESIM_PLUGIN_PATH")) {
    std::string s(env);
    std::size_t start = 0;
    while (start <= s.size()) {
      const auto colon = s.find(':', start);
      const std::string item = s.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
      if (!item.empty()) dirs.emplace_back(item);
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  }
  std::error_code ec;
  const fs::path exe = boost::dll::program_location(ec);
  if (!ec) dirs.push_back(exe.parent_path().parent_path() / "lib" / "liesim" / "plugins");
  return dirs;
}

void Registry::load_directories(const std::vector<fs::path>& dirs) {
  std::set<fs::path> seen;
  for (const auto& c : candidates_) seen.insert(fs::weakly_canonical(c.file.parent_path()));
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    const fs::path canon = fs::weakly_canonical(dir, ec);
    if (!seen.insert(canon).second) continue;
    // Every user may put a library here that liesim then loads (in a child, but with this user's
    // rights): say so, once per folder and command.
    const fs::perms perms = fs::status(dir, ec).permissions();
    if (!ec && (perms & fs::perms::others_write) != fs::perms::none)
      std::fprintf(stderr, "liesim: warning: the plugin folder %s is writable by every user: anyone can put code there that liesim "
                           "loads; make it yours alone (chmod o-w %s)\n", dir.string().c_str(), dir.string().c_str());
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      const std::string fname = entry.path().filename().string();
      if (fname.rfind("liesim_", 0) == 0 && entry.path().extension() == ".so" && fname.size() > 10) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      PluginCandidate c;
      c.file = f;
      c.name = f.stem().string().substr(7);
      c.manifest = read_manifest(f, c.name);
      if (!c.manifest) {
        ProbeResult r = cached_probe(f);
        c.manifest = r.manifest;
        c.failure = r.failure;
        c.probed = true;
        c.metadata = r.metadata;
        if (!r.manifest) failures_.push_back({f.string(), c.name, r.failure});
      }
      candidates_.push_back(std::move(c));
    }
  }
}

std::vector<LoadedPlugin> Registry::plugins() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<LoadedPlugin> out;
  for (const auto& [file, p] : loaded_) out.push_back(p);
  return out;
}

void Registry::load_all() const {
  for (const auto& c : candidates_) {
    if (!c.manifest) continue;
    try {
      (void)load(c.file);
    } catch (const Error&) {
      // recorded in failures_ by load()
    }
  }
}

std::vector<LoadFailure> Registry::failures() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failures_;
}

const LoadedPlugin& Registry::load(const fs::path& file) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string key = file.string();
  if (auto it = loaded_.find(key); it != loaded_.end()) return it->second;
  try {
    return loaded_.emplace(key, load_plugin(file)).first->second;
  } catch (const Error& e) {
    failures_.push_back({key, file.stem().string().substr(std::min<std::size_t>(7, file.stem().string().size())), e.what()});
    throw PluginFault(fmt::format("plugin {} could not be loaded: {}", key, e.what()));
  }
}

std::vector<std::string> Registry::model_names() const {
  std::vector<std::string> out;
  for (const auto& c : candidates_)
    if (c.manifest && c.manifest->kind == PluginKind::model) out.push_back(c.name);
  return out;
}

std::vector<std::string> Registry::method_names() const {
  std::vector<std::string> out;
  for (const auto& c : candidates_)
    if (c.manifest && c.manifest->kind == PluginKind::integrator) out.insert(out.end(), c.manifest->methods.begin(), c.manifest->methods.end());
  return out;
}

std::string Registry::unknown(const std::string& what, const std::string& name, const std::vector<std::string>& known) const {
  std::string msg = fmt::format("unknown {} '{}'; available: {}", what, name,
                                known.empty() ? std::string("(none)") : fmt::format("{}", fmt::join(known, ", ")));
  std::vector<const PluginCandidate*> failed;
  for (const auto& c : candidates_)
    if (!c.manifest) failed.push_back(&c);
  if (!failed.empty()) {
    msg += fmt::format("; {} plugin file(s) failed to load:", failed.size());
    for (const auto* c : failed) msg += fmt::format("\n  {}: {}", c->file.string(), c->failure);
  }
  msg += "\n(run `liesim list` to see what is available; add folders with --plugin-path or LIESIM_PLUGIN_PATH)";
  return msg;
}

namespace {
std::string both(const std::vector<const PluginCandidate*>& cs) {
  std::vector<std::string> files;
  for (const auto* c : cs) files.push_back(c->file.string());
  return fmt::format("{}", fmt::join(files, " and "));
}
}  // namespace

namespace {
bool names_a_file(const std::string& name) {
  return name.find('/') != std::string::npos || (name.size() > 3 && name.substr(name.size() - 3) == ".so");
}
}  // namespace

const PluginCandidate* Registry::find_model(const std::string& name) const {
  if (names_a_file(name)) return nullptr;
  std::vector<const PluginCandidate*> matches;
  for (const auto& c : candidates_)
    if (c.name == name && (!c.manifest || c.manifest->kind == PluginKind::model)) matches.push_back(&c);
  if (matches.size() > 1)
    throw Error(fmt::format("model '{}' is provided by {} plugin files: {}; remove all but one from the plugin path, or choose "
                            "one by giving its file as the model (--model {})", name, matches.size(), both(matches),
                            matches.front()->file.string()));
  if (matches.empty()) throw Error(unknown("model", name, model_names()));
  const PluginCandidate& c = *matches.front();
  if (!c.manifest) throw PluginFault(fmt::format("model '{}' could not be loaded from {}: {}", name, c.file.string(), c.failure));
  return &c;
}

const LoadedPlugin& Registry::model(const std::string& name) const {
  const PluginCandidate* c = find_model(name);
  const fs::path file = c ? c->file : fs::path(name);
  const LoadedPlugin& p = load(file);
  if (!p.model) throw Error(fmt::format("{} is an integrator plugin, not a model", file.string()));
  return p;
}

std::pair<std::string, std::string> split_method(const std::string& method) {
  const auto at = method.rfind(".so:");
  if (at == std::string::npos) return {std::string(), method};
  return {method.substr(0, at + 3), method.substr(at + 4)};
}

const PluginCandidate* Registry::find_method(const std::string& given) const {
  const auto [file, method] = split_method(given);
  std::vector<const PluginCandidate*> matches;
  for (const auto& c : candidates_) {
    std::error_code ec;
    if (!file.empty() && !fs::equivalent(c.file, file, ec)) continue;
    if (c.manifest && c.manifest->kind == PluginKind::integrator &&
        std::find(c.manifest->methods.begin(), c.manifest->methods.end(), method) != c.manifest->methods.end())
      matches.push_back(&c);
  }
  // Two files offering one name (a stray plugin offering a shipped method's name) are refused
  // with both named, never resolved silently; FILE.so:METHOD chooses one.
  if (matches.size() > 1)
    throw Error(fmt::format("method '{}' is provided by {} plugin files: {}; remove all but one from the plugin path, or choose "
                            "one by giving its file: --integrator {}:{}", method, matches.size(), both(matches),
                            matches.front()->file.string(), method));
  if (matches.empty() && !file.empty())
    throw Error(fmt::format("no plugin file {} on the plugin path offers method '{}' (see `liesim list`)", file, method));
  if (matches.empty()) throw Error(unknown("integrator", method, method_names()));
  return matches.front();
}

std::pair<const LoadedPlugin*, MethodInfo> Registry::method(const std::string& given) const {
  const PluginCandidate* c = find_method(given);
  const std::string method = split_method(given).second;
  const LoadedPlugin& p = load(c->file);
  if (p.integrator)
    for (const auto& m : p.integrator->methods())
      if (m.name == method) return {&p, m};
  throw PluginFault(fmt::format("the manifest {} says the plugin provides method '{}', but the plugin does not: regenerate the "
                                "manifest with `liesim manifest {}`", manifest_path(c->file).string(), method, c->file.string()));
}

}  // namespace liesim
