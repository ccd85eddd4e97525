// Built-in ARKODE tables: names from the SUNDIALS headers (generated X-macro lists), properties
// from ARKodeButcherTable_Load{ERK,DIRK}, both cross-checked against the Load*ByName accessors.
#include "butcher_tables.hpp"

#include <cstdio>  // arkode_butcher.h uses FILE without including <stdio.h>

#include <butcher_table_ids.hpp>  // generated: LIESIM_SUNDIALS_ERK_TABLES, LIESIM_SUNDIALS_DIRK_TABLES

#include <liesim/sdk/status.hpp>

#include <arkode/arkode_butcher_dirk.h>
#include <arkode/arkode_butcher_erk.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <type_traits>

namespace liesim::sundials {

namespace {

// Each generated name must be an enumerator of the right enum, and the lists must cover the
// whole ID range SUNDIALS declares (a new SUNDIALS release with new tables fails to compile
// here until CMake re-reads the headers).
#define LIESIM_CHECK_ERK(id) static_assert(std::is_same_v<decltype(id), ARKODE_ERKTableID>, #id " is not an ARKODE_ERKTableID");
#define LIESIM_CHECK_DIRK(id) static_assert(std::is_same_v<decltype(id), ARKODE_DIRKTableID>, #id " is not an ARKODE_DIRKTableID");
LIESIM_SUNDIALS_ERK_TABLES(LIESIM_CHECK_ERK)
LIESIM_SUNDIALS_DIRK_TABLES(LIESIM_CHECK_DIRK)
#undef LIESIM_CHECK_ERK
#undef LIESIM_CHECK_DIRK

#define LIESIM_COUNT(id) +1
static_assert(0 LIESIM_SUNDIALS_ERK_TABLES(LIESIM_COUNT) == ARKODE_MAX_ERK_NUM - ARKODE_MIN_ERK_NUM + 1,
              "the ERK table list does not cover ARKODE_MIN_ERK_NUM..ARKODE_MAX_ERK_NUM: re-run CMake");
static_assert(0 LIESIM_SUNDIALS_DIRK_TABLES(LIESIM_COUNT) == ARKODE_MAX_DIRK_NUM - ARKODE_MIN_DIRK_NUM + 1,
              "the DIRK table list does not cover ARKODE_MIN_DIRK_NUM..ARKODE_MAX_DIRK_NUM: re-run CMake");
#undef LIESIM_COUNT

struct Raw {
  const char* name;
  int id;
};

using LoadById = ARKodeButcherTable (*)(int);
using LoadByName = ARKodeButcherTable (*)(const char*);

std::vector<TableInfo> load(const std::vector<Raw>& raw, LoadById by_id, LoadByName by_name, const char* kind) {
  std::vector<TableInfo> out;
  const bool explicit_tables = std::string(kind) == "ERK";
  for (const Raw& r : raw) {
    ARKodeButcherTable a = by_id(r.id);
    ARKodeButcherTable b = by_name(r.name);
    const bool same = a && b && a->stages == b->stages && a->q == b->q && a->p == b->p;
    TableInfo info;
    if (same) {
      info = {r.name, r.id, a->stages, a->q, a->d ? a->p : 0, false};
      const int last = a->stages - 1;
      bool fsal = true;
      for (int j = 0; j < a->stages; ++j) fsal = fsal && std::abs(a->A[last][j] - a->b[j]) <= 1e-14;
      info.erkstep_fsal_bug = explicit_tables && a->c[last] == 1.0 && !fsal;
    }
    ARKodeButcherTable_Free(a);
    ARKodeButcherTable_Free(b);
    if (!same)
      throw Error(fmt::format("SUNDIALS does not load its {} table {} (id {}) consistently by id and by name: "
                              "rebuild the sundials plugin against the installed SUNDIALS",
                              kind, r.name, r.id));
    out.push_back(std::move(info));
  }
  return out;
}

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

}  // namespace

const std::vector<TableInfo>& erk_tables() {
  static const std::vector<TableInfo> t = [] {
#define LIESIM_RAW(id) Raw{#id, static_cast<int>(id)},
    const std::vector<Raw> raw{LIESIM_SUNDIALS_ERK_TABLES(LIESIM_RAW)};
#undef LIESIM_RAW
    return load(
        raw, [](int id) { return ARKodeButcherTable_LoadERK(static_cast<ARKODE_ERKTableID>(id)); },
        [](const char* n) { return ARKodeButcherTable_LoadERKByName(n); }, "ERK");
  }();
  return t;
}

const std::vector<TableInfo>& dirk_tables() {
  static const std::vector<TableInfo> t = [] {
#define LIESIM_RAW(id) Raw{#id, static_cast<int>(id)},
    const std::vector<Raw> raw{LIESIM_SUNDIALS_DIRK_TABLES(LIESIM_RAW)};
#undef LIESIM_RAW
    return load(
        raw, [](int id) { return ARKodeButcherTable_LoadDIRK(static_cast<ARKODE_DIRKTableID>(id)); },
        [](const char* n) { return ARKodeButcherTable_LoadDIRKByName(n); }, "DIRK");
  }();
  return t;
}

const TableInfo* find_table(const std::vector<TableInfo>& tables, const std::string& name) {
  // Case-insensitive: SUNDIALS' own names mix cases (ARKODE_ARK548L2SAb_ERK_8_4_5).
  const std::string u = upper(name);
  for (const auto& t : tables) {
    const std::string n = upper(t.name);
    if (n == u || n == "ARKODE_" + u) return &t;
  }
  return nullptr;
}

std::string describe_tables(const std::vector<TableInfo>& tables) {
  std::string s;
  for (const auto& t : tables) {
    if (!s.empty()) s += ", ";
    s += t.embedded > 0 ? fmt::format("{} ({} stages, order {}, embedding {}", t.name, t.stages, t.order, t.embedded)
                        : fmt::format("{} ({} stages, order {}, no embedding: fixed step only", t.name, t.stages, t.order);
    s += t.erkstep_fsal_bug ? "; run by ARKStep)" : ")";
  }
  return s;
}

std::string table_names(const std::vector<TableInfo>& tables) {
  std::string s;
  for (const auto& t : tables) {
    if (!s.empty()) s += ", ";
    s += t.name;
  }
  return s;
}

}  // namespace liesim::sundials
