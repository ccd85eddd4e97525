// Eigen <-> N_Vector without copies: Eigen views of SUNDIALS serial vectors, and serial
// N_Vectors that point at memory owned by Eigen (rebindable, never owning).
#pragma once
#include <liesim/sdk/types.hpp>

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>

namespace liesim::sundials {

/// Writable Eigen view of a serial N_Vector (no copy, no allocation).
inline Eigen::Map<Eigen::VectorXd> view(N_Vector v) noexcept {
  return {N_VGetArrayPointer_Serial(v), static_cast<Eigen::Index>(N_VGetLength_Serial(v))};
}
/// Read-only Eigen view of a serial N_Vector.
inline Eigen::Map<const Eigen::VectorXd> cview(N_Vector v) noexcept {
  return {N_VGetArrayPointer_Serial(v), static_cast<Eigen::Index>(N_VGetLength_Serial(v))};
}

/// A serial N_Vector of fixed length whose data pointer is borrowed (N_VMake_Serial: SUNDIALS
/// never frees it). bind() repoints it at other storage of the same length without allocating.
class BorrowedVector {
 public:
  BorrowedVector() = default;
  BorrowedVector(const BorrowedVector&) = delete;
  BorrowedVector& operator=(const BorrowedVector&) = delete;
  ~BorrowedVector() { reset(); }

  /// Create the vector header (the only allocation); false if SUNDIALS could not allocate it.
  bool create(Eigen::Index n, double* data, SUNContext ctx) noexcept {
    reset();
    v_ = N_VMake_Serial(static_cast<sunindextype>(n), data, ctx);
    return v_ != nullptr;
  }
  /// Point the vector at `data` (same length as at creation).
  void bind(double* data) noexcept { N_VSetArrayPointer_Serial(data, v_); }
  /// The N_Vector handle.
  N_Vector get() const noexcept { return v_; }
  /// Destroy the header (the borrowed data is left alone).
  void reset() noexcept {
    if (v_) N_VDestroy_Serial(v_);
    v_ = nullptr;
  }

 private:
  N_Vector v_ = nullptr;
};

}  // namespace liesim::sundials
