// Shared part of the SUNDIALS solvers: context, RHS trampoline, messages.
#include "solver_base.hpp"

#include <sunmatrix/sunmatrix_dense.h>

#include <fmt/format.h>

#include <cstdio>
#include <cstring>

namespace liesim::sundials {

SolverBase::~SolverBase() {
  y_.reset();
  if (ctx_) SUNContext_Free(&ctx_);
}

bool SolverBase::setup_common(ModelView& model, ConstVec y0, std::string& error) noexcept {
  try {
    model_ = &model;
    if (y0.size() != model.size()) {
      error = fmt::format("initial state has {} components, the model expects {}", y0.size(), model.size());
      return false;
    }
    y0_ = y0;  // the one copy of the initial state, made before SUNDIALS clones it
    if (SUNContext_Create(nullptr, &ctx_) != 0 || !ctx_) {
      error = "SUNContext_Create failed";
      return false;
    }
    if (!y_.create(y0_.size(), y0_.data(), ctx_)) {
      error = "N_VMake_Serial failed (out of memory)";
      return false;
    }
    return true;
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
}

bool SolverBase::check(int flag, const char* call, const std::string& what, std::string& error) noexcept {
  if (flag >= 0) {
    message_[0] = '\0';  // a warning of a successful call is not the cause of a later failure
    return true;
  }
  try {
    error = fmt::format("{}{}{} refused it with {}", what, what.empty() ? "" : ": ", call, flag_name(flag));
    if (message_[0]) error += fmt::format(" ({})", message_);
  } catch (...) {
    error = call;
  }
  return false;
}

namespace {
bool ends_with(const std::string& s, const char* suffix) {
  const std::size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}
}  // namespace

std::string SolverBase::failure_hint(const std::string& name) const {
  const std::string model_error = model_ ? model_->last_error() : std::string();
  const char* kind = rhs_status_ == Status::recoverable ? "recoverable" : "fatal";
  if (ends_with(name, "TOO_MUCH_WORK"))
    return fmt::format("raise the option max_steps (now {}; it limits the steps between two output times)", opt_.max_steps);
  if (ends_with(name, "TOO_MUCH_ACC")) return "the tolerances ask for more accuracy than double precision allows: loosen rtol/atol";
  if (ends_with(name, "ERR_FAILURE"))
    return "repeated error test failures: the solution may be non-smooth, or reached min_step; loosen the tolerances";
  if (ends_with(name, "CONV_FAILURE") || ends_with(name, "NLS_FAIL"))
    return "repeated nonlinear solver convergence failures: the problem may be stiff (use Newton: cvode_bdf, "
           "arkode_dirk) or lower max_step";
  if (ends_with(name, "LSETUP_FAIL") || ends_with(name, "LSOLVE_FAIL")) return "the dense linear solver failed (singular Newton matrix)";
  if (ends_with(name, "RHSFUNC_FAIL") || ends_with(name, "RHSFUNC_ERR"))
    return fmt::format("the model's vector field returned a {} status{}{}", kind, model_error.empty() ? "" : ": ", model_error);
  if (ends_with(name, "PROJFUNC_FAIL") || ends_with(name, "PROJFUNC_ERR"))
    return fmt::format("the model's projection failed{}{}", model_error.empty() ? "" : ": ", model_error);
  if (ends_with(name, "RTFUNC_FAIL") || ends_with(name, "RTFUNC_ERR"))
    return fmt::format("evaluating the events failed (the model's observables){}{}", model_error.empty() ? "" : ": ", model_error);
  if (ends_with(name, "TOO_CLOSE")) return "the output time is too close to the initial time";
  return {};
}

Status SolverBase::fail(int flag, double t) noexcept {
  try {
    const std::string name = flag_name(flag);
    const std::string hint = failure_hint(name);
    last_error_ = fmt::format("{} failed at t = {}: {}", module(), t, name);
    if (!hint.empty()) last_error_ += fmt::format(" ({})", hint);
    if (message_[0]) last_error_ += fmt::format("; SUNDIALS: {}", message_);
  } catch (...) {
    last_error_ = "SUNDIALS solver failed";
  }
  return Status::fatal;
}

int SolverBase::rhs(double t, N_Vector y, N_Vector ydot, void* self) noexcept {
  auto* s = static_cast<SolverBase*>(self);
  auto out = view(ydot);
  Status st = s->model_->vector_field(t, cview(y), out);
  if (st == Status::ok && !out.allFinite()) st = Status::recoverable;  // let SUNDIALS retry with a smaller step
  if (st != Status::ok) s->rhs_status_ = st;
  return st == Status::ok ? 0 : st == Status::recoverable ? 1 : -1;
}

int SolverBase::jac(double t, N_Vector y, N_Vector, SUNMatrix J, void* self, N_Vector, N_Vector, N_Vector) noexcept {
  auto* s = static_cast<SolverBase*>(self);
  const auto n = static_cast<Eigen::Index>(SM_ROWS_D(J));
  Eigen::Map<Eigen::MatrixXd> out(SM_DATA_D(J), n, n);
  Status st = s->model_->vector_field_jacobian(t, cview(y), out);
  if (st == Status::ok && !out.allFinite()) st = Status::recoverable;
  if (st != Status::ok) s->rhs_status_ = st;
  return st == Status::ok ? 0 : st == Status::recoverable ? 1 : -1;
}

Status SolverBase::set_events(const sdk::EventFunctions& events, std::string& error) noexcept {
  try {
    if (events.count <= 0 || !events.g || !events.directions) {
      error = "set_events: no event functions given";
      return Status::fatal;
    }
    for (int k = 0; k < events.count; ++k)
      if (events.directions[k] != 1 && events.directions[k] != -1) {
        error = fmt::format("event {}: direction {} (must be +1 or -1)", k, events.directions[k]);
        return Status::fatal;
      }
    events_ = events;
    directions_.assign(events.directions, events.directions + events.count);
    found_.assign(static_cast<std::size_t>(events.count), 0);
    return init_roots(error) ? Status::ok : Status::fatal;
  } catch (const std::exception& e) {
    error = e.what();
    return Status::fatal;
  }
}

int SolverBase::root(double t, N_Vector y, double* g, void* self) noexcept {
  return static_cast<const SolverBase*>(self)->events_at(t, cview(y).data(), g);
}

void SolverBase::on_message(int code, const char* module, const char* function, char* msg, void* self) noexcept {
  auto* s = static_cast<SolverBase*>(self);
  (void)code;
  std::snprintf(s->message_, sizeof s->message_, "%s in %s: %s", module ? module : "SUNDIALS", function ? function : "?",
                msg ? msg : "");
}

}  // namespace liesim::sundials
