// ARKODE's built-in Butcher tables, named and numbered by SUNDIALS itself (no coefficient is
// retyped here): the enumerators of ARKODE_ERKTableID / ARKODE_DIRKTableID, read from the
// installed headers at configure time, checked against ARKodeButcherTable_Load*ByName.
#pragma once
#include <string>
#include <vector>

namespace liesim::sundials {

/// One built-in table of ARKODE.
struct TableInfo {
  std::string name;  ///< SUNDIALS' name, e.g. "ARKODE_DORMAND_PRINCE_7_4_5"
  int id = -1;       ///< ARKODE_ERKTableID or ARKODE_DIRKTableID value
  int stages = 0;    ///< number of stages s
  int order = 0;     ///< order q of the main method
  int embedded = 0;  ///< order p of the embedding (0: none, fixed step only)
  /// c_s = 1 but the last row of A is not b (not FSAL): ERKStep of SUNDIALS < 6.6 wrongly reuses
  /// the last stage as f(y_{n+1}) for such tables (llnl/sundials issue #311), which lowers their
  /// order; arkode_erk drives these tables through ARKStep (explicit part only) instead.
  bool erkstep_fsal_bug = false;
};

/// Every built-in explicit table (loaded once; throws liesim::Error if SUNDIALS disagrees with its headers).
const std::vector<TableInfo>& erk_tables();
/// Every built-in diagonally implicit table.
const std::vector<TableInfo>& dirk_tables();
/// The table called `name` (with or without the "ARKODE_" prefix, any case), or nullptr.
const TableInfo* find_table(const std::vector<TableInfo>& tables, const std::string& name);
/// "NAME (s stages, order q, embedding p)" for every table, comma separated.
std::string describe_tables(const std::vector<TableInfo>& tables);
/// The names only, comma separated.
std::string table_names(const std::vector<TableInfo>& tables);

}  // namespace liesim::sundials
