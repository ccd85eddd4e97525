// Coefficient tables of the shipped methods (facts from the cited sources; see docs/methods.md).
#include <liesim/tableau.hpp>

#include <array>

namespace liesim {

namespace {

constexpr ButcherTableau EULER_1_1{"EULER_1_1", 1, 1, 0, {0}, {{0}}, {1}, {0}};

// Heun's method with explicit Euler embedded.
constexpr ButcherTableau HEUN_EULER_2_2_1{"HEUN_EULER_2_2_1", 2, 2, 1, {0, 1}, {{0}, {1}}, {0.5, 0.5}, {1, 0}};

// Kutta's third-order method [Hairer–Nørsett–Wanner I, Table II.1.1; thesis RKMK3].
constexpr ButcherTableau KUTTA_3_3{"KUTTA_3_3", 3, 3, 0, {0, 0.5, 1}, {{0}, {0.5}, {-1, 2}}, {1.0 / 6, 2.0 / 3, 1.0 / 6}, {0}};

// The classical fourth-order Runge–Kutta method.
constexpr ButcherTableau CLASSICAL_RK_4_4{
    "CLASSICAL_RK_4_4", 4, 4, 0, {0, 0.5, 0.5, 1}, {{0}, {0.5}, {0, 0.5}, {0, 0, 1}},
    {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6}, {0}};

// Bogacki–Shampine 3(2) pair [Bogacki & Shampine, Appl. Math. Lett. 2 (1989)].
constexpr ButcherTableau BOGACKI_SHAMPINE_4_3_2{
    "BOGACKI_SHAMPINE_4_3_2", 4, 3, 2, {0, 0.5, 0.75, 1},
    {{0}, {0.5}, {0, 0.75}, {2.0 / 9, 1.0 / 3, 4.0 / 9}},
    {2.0 / 9, 1.0 / 3, 4.0 / 9, 0}, {7.0 / 24, 0.25, 1.0 / 3, 0.125}};

// Dormand–Prince 5(4) [Dormand & Prince, J. Comput. Appl. Math. 6 (1980); thesis §1.4.2].
constexpr ButcherTableau DORMAND_PRINCE_7_5_4{
    "DORMAND_PRINCE_7_5_4", 7, 5, 4, {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1},
    {{0},
     {1.0 / 5},
     {3.0 / 40, 9.0 / 40},
     {44.0 / 45, -56.0 / 15, 32.0 / 9},
     {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
     {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
     {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}},
    {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0},
    {5179.0 / 57600, 0, 7571.0 / 16695, 393.0 / 640, -92097.0 / 339200, 187.0 / 2100, 1.0 / 40}};

// Gauss–Legendre collocation [Butcher 1964; Hairer–Lubich–Wanner II.1.3]: the implicit midpoint
// rule (1 stage, order 2) and the 2-stage order-4 method; symplectic, preserve quadratic invariants.
constexpr double sqrt3_6 = 0.28867513459481288225457439025097873;  // sqrt(3)/6
constexpr ButcherTableau GAUSS_1_2{"GAUSS_1_2", 1, 2, 0, {0.5}, {{0.5}}, {1}, {0}};
constexpr ButcherTableau GAUSS_2_4{"GAUSS_2_4", 2, 4, 0, {0.5 - sqrt3_6, 0.5 + sqrt3_6},
                                   {{0.25, 0.25 - sqrt3_6}, {0.25 + sqrt3_6, 0.25}}, {0.5, 0.5}, {0}};

constexpr std::array<ButcherTableau, 8> butcher{EULER_1_1, HEUN_EULER_2_2_1, KUTTA_3_3, CLASSICAL_RK_4_4,
                                                 BOGACKI_SHAMPINE_4_3_2, DORMAND_PRINCE_7_5_4, GAUSS_1_2, GAUSS_2_4};

// Casas–Owren RKMK4 with two commutators [BIT 43 (2003); thesis §2.2.2]: stage 3 argument
// ½K2 − (1/8)[K1, K2]; update (1/6)(K1 + 2K2 + 2K3 + K4 − ½[K1, K4]).
constexpr std::array<CommutatorTerm, 2> casas_owren{{{2, 0, 1, -1.0 / 8}, {4, 0, 3, -1.0 / 12}}};

// CF4 [Celledoni–Marthinsen–Owren, FGCS 19 (2003); thesis (2.2.9)]; Y4 reuses exp(½hf1).
constexpr ExponentialProduct CF4_UPDATE{2, {{3.0 / 12, 2.0 / 12, 2.0 / 12, -1.0 / 12}, {-1.0 / 12, 2.0 / 12, 2.0 / 12, 3.0 / 12}}};
constexpr ExponentialProduct CF4_STAGE2{1, {{0.5}}};
constexpr ExponentialProduct CF4_STAGE3{1, {{0, 0.5}}};
constexpr ExponentialProduct CF4_STAGE4{2, {{0.5}, {-0.5, 0, 1}}};

constexpr CommutatorFreeScheme CF4_4_4{"CF4_4_4", 4, 4, 0, {0, 0.5, 0.5, 1},
                                       {{0, {}}, CF4_STAGE2, CF4_STAGE3, CF4_STAGE4}, CF4_UPDATE, {0, {}}};

// CF 3(2) pair A [Curry & Owren, Numer. Algorithms 82 (2019); thesis §2.4.2.1]; update reuses Y2.
constexpr CommutatorFreeScheme CF_A_3_3_2{"CF_A_3_3_2", 3, 3, 2, {0, 1.0 / 3, 2.0 / 3},
                                          {{0, {}}, {1, {{1.0 / 3}}}, {1, {{0, 2.0 / 3}}}},
                                          {2, {{1.0 / 3}, {-1.0 / 12, 0, 0.75}}},
                                          {1, {{0, 0.5, 0.5}}}};

// CF 3(2) pair B [Curry & Owren 2019; thesis §2.4.2.1]; update reuses Y3.
constexpr CommutatorFreeScheme CF_B_3_3_2{"CF_B_3_3_2", 3, 3, 2, {0, 2.0 / 3, 2.0 / 3},
                                          {{0, {}}, {1, {{2.0 / 3}}}, {1, {{5.0 / 12, 0.25}}}},
                                          {2, {{5.0 / 12, 0.25}, {-1.0 / 6, -0.5, 1}}},
                                          {1, {{0.25, 0, 0.75}}}};

// CF4 with the third-order auxiliary scheme [thesis §2.4.2.2, (2.4.2)]: extra stage
// Y5 = exp(¾ h f2) y_n, auxiliary exp((h/9)(−f1 + 3f2 + 4f5)) exp((h/3) f1) y_n.
constexpr CommutatorFreeScheme CF4_AUX3_5_4_3{
    "CF4_AUX3_5_4_3", 5, 4, 3, {0, 0.5, 0.5, 1, 0.75},
    {{0, {}}, CF4_STAGE2, CF4_STAGE3, CF4_STAGE4, {1, {{0, 0.75}}}},
    CF4_UPDATE,
    {2, {{1.0 / 3}, {-1.0 / 9, 3.0 / 9, 0, 0, 4.0 / 9}}}};

// Crouch–Grossman third order [Crouch & Grossman, J. Nonlinear Sci. 3 (1993); thesis notes §1.5.4].
constexpr CommutatorFreeScheme CROUCH_GROSSMAN_3_3{
    "CROUCH_GROSSMAN_3_3", 3, 3, 0, {0, 0.75, 17.0 / 24},
    {{0, {}}, {1, {{0.75}}}, {2, {{119.0 / 216}, {0, 17.0 / 108}}}},
    {3, {{13.0 / 51}, {0, -2.0 / 3}, {0, 0, 24.0 / 17}}},
    {0, {}}};

constexpr std::array<CommutatorFreeScheme, 5> commutator_free{CF4_4_4, CF_A_3_3_2, CF_B_3_3_2, CF4_AUX3_5_4_3,
                                                              CROUCH_GROSSMAN_3_3};

}  // namespace

bool is_explicit(const ButcherTableau& t) {
  for (int i = 0; i < t.stages; ++i)
    for (int j = i; j < t.stages; ++j)
      if (t.A[i][j] != 0.0) return false;
  return true;
}

std::span<const ButcherTableau> butcher_tableaux() { return butcher; }

std::span<const CommutatorFreeScheme> commutator_free_schemes() { return commutator_free; }

const ButcherTableau* find_butcher(std::string_view name) {
  for (const auto& t : butcher)
    if (t.name == name) return &t;
  return nullptr;
}

const CommutatorFreeScheme* find_commutator_free(std::string_view name) {
  for (const auto& s : commutator_free)
    if (s.name == name) return &s;
  return nullptr;
}

std::span<const CommutatorTerm> casas_owren_rkmk4_commutators() { return casas_owren; }

ButcherTableau consistent_butcher(const CommutatorFreeScheme& s) {
  ButcherTableau t{s.name, s.stages, s.order, s.embedded_order, {}, {{}}, {}, {}};
  auto sum = [&](const ExponentialProduct& p, int k) {
    double a = 0;
    for (int j = 0; j < p.count; ++j) a += p.alpha[j][k];
    return a;
  };
  for (int r = 0; r < s.stages; ++r) {
    t.c[r] = s.c[r];
    for (int k = 0; k < s.stages; ++k) t.A[r][k] = sum(s.stage[r], k);
  }
  for (int k = 0; k < s.stages; ++k) {
    t.b[k] = sum(s.update, k);
    t.b_hat[k] = sum(s.embedded, k);
  }
  return t;
}

}  // namespace liesim
