// Phase spaces by name, for models written in Python: the kernel's actions (liesim/lie/actions.hpp)
// as run-time blocks, and their direct product. "TS2^2 x R3" is two copies of TS^2 under SE(3)
// followed by R^3 under translation; points and algebra elements are the blocks' concatenated.
#pragma once
#include <liesim/lie/actions.hpp>
#include <liesim/sdk/lie_space.hpp>
#include <liesim/sdk/status.hpp>

#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace liesim::python {

/// The direct product of run-time spaces: every operation block by block.
class ProductSpace final : public sdk::HomogeneousSpace {
 public:
  explicit ProductSpace(std::vector<std::unique_ptr<sdk::HomogeneousSpace>> blocks)
      : sdk::HomogeneousSpace(total(blocks, true), total(blocks, false)), blocks_(std::move(blocks)) {}
  bool has_exact_dexpinv() const noexcept override {
    for (const auto& b : blocks_)
      if (!b->has_exact_dexpinv()) return false;
    return true;
  }
  bool can_project() const noexcept override {
    for (const auto& b : blocks_)
      if (!b->can_project()) return false;
    return true;
  }
  double distance(ConstVec a, ConstVec b) const noexcept override {
    double s = 0;
    int n = 0;
    for (const auto& blk : blocks_) {
      const double d = blk->distance(a.segment(n, blk->point_size()), b.segment(n, blk->point_size()));
      s += d * d;
      n += blk->point_size();
    }
    return std::sqrt(s);
  }

 private:
  static int total(const std::vector<std::unique_ptr<sdk::HomogeneousSpace>>& blocks, bool points) {
    int n = 0;
    for (const auto& b : blocks) n += points ? b->point_size() : b->algebra_dim();
    return n;
  }
  /// op(block, point offset, algebra offset) for every block; the first failure ends it.
  template <class Op>
  Status each(Op op) const noexcept {
    int n = 0, d = 0;
    for (const auto& b : blocks_) {
      const Status s = op(*b, n, d);
      if (s != Status::ok) return s;
      n += b->point_size();
      d += b->algebra_dim();
    }
    return Status::ok;
  }
  Status do_act_exp(ConstVec xi, ConstVec y, Vec out) const noexcept override {
    return each([&](const sdk::HomogeneousSpace& b, int n, int d) {
      return b.act_exp(xi.segment(d, b.algebra_dim()), y.segment(n, b.point_size()), out.segment(n, b.point_size()));
    });
  }
  Status do_dexpinv(ConstVec u, ConstVec v, Vec out) const noexcept override {
    return each([&](const sdk::HomogeneousSpace& b, int, int d) {
      return b.dexpinv(u.segment(d, b.algebra_dim()), v.segment(d, b.algebra_dim()), out.segment(d, b.algebra_dim()));
    });
  }
  Status do_bracket(ConstVec a, ConstVec c, Vec out) const noexcept override {
    return each([&](const sdk::HomogeneousSpace& b, int, int d) {
      return b.bracket(a.segment(d, b.algebra_dim()), c.segment(d, b.algebra_dim()), out.segment(d, b.algebra_dim()));
    });
  }
  Status do_generator(ConstVec xi, ConstVec y, Vec out) const noexcept override {
    return each([&](const sdk::HomogeneousSpace& b, int n, int d) {
      return b.generator(xi.segment(d, b.algebra_dim()), y.segment(n, b.point_size()), out.segment(n, b.point_size()));
    });
  }
  Status do_project(Vec y) const noexcept override {
    return each([&](const sdk::HomogeneousSpace& b, int n, int) { return b.project(y.segment(n, b.point_size())); });
  }

  std::vector<std::unique_ptr<sdk::HomogeneousSpace>> blocks_;
};

/// The names a space may be built from, with their meaning (for messages and docs).
inline const char* space_catalogue() {
  return "Rn (R^n under translation, e.g. R3), S2 (unit sphere in R^3 under SO(3)), TS2 (tangent bundle of S^2: "
         "(q, w), under SE(3)), SO3 (rotation matrices, 9 numbers row-major, under SO(3) by left multiplication), "
         "TSO3 ((R, Omega): 12 numbers, under SO(3) x R^3), so3* (R^3 under the coadjoint action of SO(3): a rigid body's "
         "momentum), se3* (R^6 under the coadjoint action of SE(3)); a block may be repeated with ^k, blocks joined with ' x '";
}

/// One block: NAME or NAME^k.
inline std::unique_ptr<sdk::HomogeneousSpace> space_block(const std::string& token, const std::string& whole) {
  std::string name = token;
  int copies = 1;
  if (const auto caret = token.find('^'); caret != std::string::npos) {
    name = token.substr(0, caret);
    const std::string k = token.substr(caret + 1);
    if (k.empty() || k.find_first_not_of("0123456789") != std::string::npos || k.size() > 6 || std::stoi(k) < 1)
      throw Error(fmt::format("space '{}': '{}' needs a positive number of copies after '^'", whole, token));
    copies = std::stoi(k);
  }
  if (name == "S2") return std::make_unique<PowerSpace<lie::SO3OnR3>>(copies);
  if (name == "TS2") return std::make_unique<PowerSpace<lie::SE3OnTS2>>(copies);
  if (name == "SO3") return std::make_unique<PowerSpace<lie::SO3OnSO3>>(copies);
  if (name == "TSO3") return std::make_unique<PowerSpace<lie::SO3xR3OnTSO3>>(copies);
  if (name == "so3*") return std::make_unique<PowerSpace<lie::SO3Coadjoint>>(copies);
  if (name == "se3*") return std::make_unique<PowerSpace<lie::SE3Coadjoint>>(copies);
  if (name.size() > 1 && name[0] == 'R' && name.find_first_not_of("0123456789", 1) == std::string::npos && name.size() <= 7) {
    const int n = std::stoi(name.substr(1));
    if (n >= 1) return std::make_unique<PowerSpace<lie::RnTranslation<1>>>(n * copies);
  }
  throw Error(fmt::format("space '{}': unknown block '{}'; the blocks are {}", whole, name, space_catalogue()));
}

/// The space named by `text`, e.g. "TS2^3", "S2 x R2", "TSO3 x TS2^2".
inline std::unique_ptr<sdk::HomogeneousSpace> make_space(const std::string& text) {
  std::vector<std::unique_ptr<sdk::HomogeneousSpace>> blocks;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(" x ", start);
    std::string token = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    token.erase(0, token.find_first_not_of(' '));
    token.erase(token.find_last_not_of(' ') + 1);
    if (token.empty()) throw Error(fmt::format("space '{}': an empty block; the blocks are {}", text, space_catalogue()));
    blocks.push_back(space_block(token, text));
    if (end == std::string::npos) break;
    start = end + 3;
  }
  if (blocks.size() == 1) return std::move(blocks.front());
  return std::make_unique<ProductSpace>(std::move(blocks));
}

}  // namespace liesim::python
