// What the host checks of a plugin's tables before it calls anything in them: every function the
// ABI requires, or a capability (flag, metadata entry) promises, is non-NULL; every size an
// instance states is positive and bounded; every string is valid UTF-8. A failure throws
// liesim::Error naming the member and the fix (the caller adds the plugin's file). The list of
// required members per capability is the one in docs/plugin-guide.md ("Required members").
#pragma once
#include <liesim/sdk/method_info.hpp>
#include <liesim/plugin.h>
#include <liesim/sdk/status.hpp>

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace liesim::tables {

/// The largest state, algebra or DAE size an instance may state (a bound on what the host
/// allocates for one vector: 80 MB of doubles), and the largest count of names.
inline constexpr std::int64_t max_size = 10'000'000;
inline constexpr std::int64_t max_names = 100'000;

inline bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      n = 1, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3, cp = c & 0x07;
    } else {
      return false;
    }
    for (std::size_t k = 1; k <= n; ++k) {
      if (i + k >= s.size()) return false;
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += n + 1;
  }
  return true;
}

/// `text` of the table member `member` as a string; throws when it is not valid UTF-8.
inline std::string checked_text(const char* text, const std::string& member) {
  if (text == nullptr) return {};
  const std::string s(text);
  if (!valid_utf8(s))
    throw Error(fmt::format("its {} is not valid UTF-8 text: write every name, summary and metadata document in UTF-8", member));
  return s;
}

namespace detail {
/// A required member that is NULL.
[[noreturn]] inline void missing(const char* table, const char* member, const std::string& why) {
  throw Error(fmt::format("its {} table has no '{}' (NULL): {}; set it in the table (the required members of each "
                          "capability are listed in docs/plugin-guide.md, 'Required members')",
                          table, member, why));
}
}  // namespace detail

#define LIESIM_REQUIRE_MEMBER_(api, type, table, member, why) \
  do {                                                        \
    if (LIESIM_HAS_MEMBER(api, type, member) && (api)->member == nullptr) detail::missing(table, #member, why); \
  } while (0)

/// The members every model table must have (ABI 2.0).
inline void check_model_table(const liesim_model_api* api) {
  const char* every = "every model provides it";
#define LIESIM_M_(member) LIESIM_REQUIRE_MEMBER_(api, liesim_model_api, "model", member, every)
  LIESIM_M_(create);
  LIESIM_M_(destroy);
  LIESIM_M_(info);
  LIESIM_M_(prepare);
  LIESIM_M_(initial_state);
  LIESIM_M_(generator);
  LIESIM_M_(vector_field);
  LIESIM_M_(act_exp);
  LIESIM_M_(dexpinv);
  LIESIM_M_(bracket);
  LIESIM_M_(space_generator);
  LIESIM_M_(distance);
  LIESIM_M_(invariants);
  LIESIM_M_(check_state);
#undef LIESIM_M_
}

/// What an instance's info states: sizes positive and bounded, names present and UTF-8, and
/// every function its flags promise present in the table; the sizes its descriptions state
/// (ham_dims, rb_translation, riem_sphere_blocks) bounded too. Called in the process that made
/// `instance` (never the coordinator's: see docs/design.md, "Fault isolation").
inline void check_model_info(const liesim_model_api* api, liesim_model* instance, const liesim_model_info& info) {
  auto bounded = [](const char* what, std::int64_t v, std::int64_t lo, std::int64_t hi) {
    if (v < lo || v > hi)
      throw Error(fmt::format("its instance states {} = {}, outside {}..{}: fix the model's info() (is the member set, and "
                              "set to the size of one vector?)", what, v, lo, hi));
  };
  bounded("point_size (n)", info.point_size, 1, max_size);
  bounded("algebra_dim (d)", info.algebra_dim, 1, max_size);
  bounded("invariant_count", info.invariant_count, 0, max_names);
  auto names = [](const char* what, const char* const* list, std::int64_t count) {
    if (count == 0) return;
    if (list == nullptr)
      throw Error(fmt::format("its instance states {} names but its info's '{}' is NULL: point it at an array of {} strings",
                              count, what, count));
    for (std::int64_t k = 0; k < count; ++k) {
      if (list[k] == nullptr)
        throw Error(fmt::format("its info's '{}'[{}] is NULL: give every entry a string (\"\" where there is nothing to say)", what, k));
      (void)checked_text(list[k], fmt::format("info's '{}'[{}]", what, k));
    }
  };
  names("state_names", info.state_names, info.point_size);
  names("invariant_names", info.invariant_names, info.invariant_count);
  names("invariant_docs", info.invariant_docs, info.invariant_count);
  const std::uint32_t f = info.flags;
  auto promised = [&](std::uint32_t flag, const char* flag_name, const char* member, bool present) {
    if ((f & flag) && !present)
      throw Error(fmt::format("its instance sets {} but its model table has no '{}' (NULL): set the function, or clear the flag",
                              flag_name, member));
  };
  promised(LIESIM_MODEL_CAN_PROJECT, "LIESIM_MODEL_CAN_PROJECT", "project", api->project != nullptr);
  promised(LIESIM_MODEL_EXACT_SOLUTION, "LIESIM_MODEL_EXACT_SOLUTION", "exact_solution", api->exact_solution != nullptr);
  // A capability of a later minor than the table's is ignored (the host never reads past its size).
#define LIESIM_FLAG_(flag, member) \
  promised(flag, #flag, #member, !LIESIM_HAS_MEMBER(api, liesim_model_api, member) || api->member != nullptr)
#if LIESIM_ABI_MINOR >= 1
  LIESIM_FLAG_(LIESIM_MODEL_JACOBIAN, jacobian);
  LIESIM_FLAG_(LIESIM_MODEL_DAE, dae_differential_components);
  LIESIM_FLAG_(LIESIM_MODEL_DAE, dae_initial_values);
  LIESIM_FLAG_(LIESIM_MODEL_DAE, dae_residual);
  LIESIM_FLAG_(LIESIM_MODEL_DAE, dae_to_state);
  LIESIM_FLAG_(LIESIM_MODEL_DAE, dae_constraints);
  if ((f & LIESIM_MODEL_DAE) && LIESIM_HAS_MEMBER(api, liesim_model_api, dae_constraints)) {
    bounded("dae_size", info.dae_size, 1, max_size);
    bounded("dae_constraint_count", info.dae_constraint_count, 0, info.dae_size);
  }
#endif
#if LIESIM_ABI_MINOR >= 2
  LIESIM_FLAG_(LIESIM_MODEL_MECHANICAL, mech_mass_matrix);
  LIESIM_FLAG_(LIESIM_MODEL_MECHANICAL, mech_potential);
  LIESIM_FLAG_(LIESIM_MODEL_MECHANICAL, mech_force);
  LIESIM_FLAG_(LIESIM_MODEL_RIGID_BODY, rb_translation);
  LIESIM_FLAG_(LIESIM_MODEL_RIGID_BODY, rb_inertia);
  LIESIM_FLAG_(LIESIM_MODEL_RIGID_BODY, rb_potential);
  LIESIM_FLAG_(LIESIM_MODEL_RIGID_BODY, rb_from_state);
  LIESIM_FLAG_(LIESIM_MODEL_RIGID_BODY, rb_to_state);
  LIESIM_FLAG_(LIESIM_MODEL_RIGID_BODY, rb_forces);
#endif
#if LIESIM_ABI_MINOR >= 3
  LIESIM_FLAG_(LIESIM_MODEL_HAMILTONIAN, ham_dims);
  LIESIM_FLAG_(LIESIM_MODEL_HAMILTONIAN, ham_from_state);
  LIESIM_FLAG_(LIESIM_MODEL_HAMILTONIAN, ham_to_state);
  LIESIM_FLAG_(LIESIM_MODEL_HAMILTONIAN, ham_gradient);
  LIESIM_FLAG_(LIESIM_MODEL_HAMILTONIAN, ham_exp_mult);
  LIESIM_FLAG_(LIESIM_MODEL_HAMILTONIAN, ham_coadjoint);
  LIESIM_FLAG_(LIESIM_MODEL_HAMILTONIAN, ham_dexp_dual);
  LIESIM_FLAG_(LIESIM_MODEL_HAMILTONIAN, ham_dexpinv_dual);
  LIESIM_FLAG_(LIESIM_MODEL_RIEMANNIAN, riem_exp);
  LIESIM_FLAG_(LIESIM_MODEL_RIEMANNIAN, riem_log);
  LIESIM_FLAG_(LIESIM_MODEL_RIEMANNIAN, riem_distance);
  LIESIM_FLAG_(LIESIM_MODEL_RIEMANNIAN, riem_sphere_blocks);
#endif
#undef LIESIM_FLAG_
#if LIESIM_ABI_MINOR >= 2
  if ((f & LIESIM_MODEL_RIGID_BODY) && LIESIM_HAS_MEMBER(api, liesim_model_api, rb_forces)) {
    const std::int32_t t = api->rb_translation(instance);
    if (t != 0 && t != 3)
      throw Error(fmt::format("its rb_translation() returns {}, not 0 (a body about a fixed point) or 3: fix rb_translation()", t));
  }
#endif
#if LIESIM_ABI_MINOR >= 3
  if ((f & LIESIM_MODEL_HAMILTONIAN) && LIESIM_HAS_MEMBER(api, liesim_model_api, ham_dexpinv_dual)) {
    std::int32_t group = 0;
    const std::int32_t k = api->ham_dims(instance, &group);
    bounded("ham_dims() (dim g)", k, 1, max_size);
    bounded("ham_dims()'s group_size", group, 0, max_size);
  }
  if ((f & LIESIM_MODEL_RIEMANNIAN) && LIESIM_HAS_MEMBER(api, liesim_model_api, riem_sphere_blocks)) {
    const std::int32_t b = api->riem_sphere_blocks(instance);
    bounded("riem_sphere_blocks()", b, 0, info.point_size);
    if (b > 0 && info.point_size % b != 0)
      throw Error(fmt::format("its riem_sphere_blocks() returns {}, which does not divide n = {}: fix riem_sphere_blocks()", b,
                              info.point_size));
  }
#endif
#if LIESIM_ABI_MINOR >= 5
  if (LIESIM_HAS_MEMBER(&info, liesim_model_info, invariant_scales))
    for (std::int64_t k = 0; k < info.invariant_count; ++k) {
      const std::int32_t kind = info.invariant_kinds ? info.invariant_kinds[k] : LIESIM_INVARIANT_MONITORED;
      if (kind < LIESIM_INVARIANT_MONITORED || kind > LIESIM_INVARIANT_NONINCREASING)
        throw Error(fmt::format("its info's invariant_kinds[{}] is {}: use LIESIM_INVARIANT_MONITORED, _CONSERVED or _NONINCREASING", k,
                                kind));
      const double scale = info.invariant_scales ? info.invariant_scales[k] : 0.0;
      if (!(scale >= 0.0) || !std::isfinite(scale))
        throw Error(fmt::format("its info's invariant_scales[{}] is {}: a scale is finite and >= 0 (0: relative to |I0| only)", k, scale));
    }
#endif
#if LIESIM_ABI_MINOR >= 4
  if (LIESIM_HAS_MEMBER(&info, liesim_model_info, observable_docs) && info.observable_count != 0) {
    bounded("observable_count", info.observable_count, 0, max_names);
    if (LIESIM_HAS_MEMBER(api, liesim_model_api, observables) && api->observables == nullptr)
      throw Error(fmt::format("its instance states {} observables but its model table has no 'observables' (NULL): set the "
                              "function, or state observable_count = 0", info.observable_count));
    names("observable_names", info.observable_names, info.observable_count);
    names("observable_docs", info.observable_docs, info.observable_count);
    if (info.observable_units != nullptr)
      for (std::int64_t k = 0; k < info.observable_count; ++k)
        if (info.observable_units[k] != nullptr) (void)checked_text(info.observable_units[k], "info's 'observable_units'");
  }
#endif
}

/// The members an integrator family needs for the methods its metadata lists: the stepper
/// functions for a kernel-driven method, the solver functions for a self-controlled one, and the
/// diagnostics function of the kind of a method that lists diagnostics.
inline void check_integrator_table(const liesim_integrator_api* api, const std::vector<MethodInfo>& methods) {
  bool steppers = false, solvers = false, stepper_diagnostics = false, solver_diagnostics = false;
  for (const auto& m : methods) {
    (m.self_controlled ? solvers : steppers) = true;
    if (!m.diagnostics.empty()) (m.self_controlled ? solver_diagnostics : stepper_diagnostics) = true;
  }
  const char* stepper_why = "a kernel-driven method of its metadata needs it";
  const char* solver_why = "a self-controlled method of its metadata needs it";
#define LIESIM_I_(member, why) LIESIM_REQUIRE_MEMBER_(api, liesim_integrator_api, "integrator", member, why)
  if (steppers) {
    LIESIM_I_(create_stepper, stepper_why);
    LIESIM_I_(stepper_destroy, stepper_why);
    LIESIM_I_(stepper_init, stepper_why);
    LIESIM_I_(stepper_error_space, stepper_why);
    LIESIM_I_(stepper_step, stepper_why);
  }
  if (solvers) {
    LIESIM_I_(create_solver, solver_why);
    LIESIM_I_(solver_destroy, solver_why);
    LIESIM_I_(solver_init, solver_why);
    LIESIM_I_(solver_advance, solver_why);
    LIESIM_I_(solver_stats, solver_why);
  }
#if LIESIM_ABI_MINOR >= 2
  if (stepper_diagnostics) LIESIM_I_(stepper_diagnostics, "a kernel-driven method of its metadata lists diagnostics");
  if (solver_diagnostics) LIESIM_I_(solver_diagnostics, "a self-controlled method of its metadata lists diagnostics");
#endif
#undef LIESIM_I_
}
#undef LIESIM_REQUIRE_MEMBER_

}  // namespace liesim::tables
