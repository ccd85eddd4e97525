// Coefficient tables of the shipped methods (facts from the cited sources; see docs/methods.md).
#include <liesim/sdk/tableau.hpp>

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

// Verner's "most efficient" 6(5) and 8(7) pairs [J. H. Verner, Numerically optimal Runge–Kutta
// pairs with interpolants, Numer. Algorithms 53 (2010) 383–396; coefficients from his web page
// (sfu.ca/~jverner), as exact rationals]. Each value below is the rational rounded to the nearest
// double; the interpolation stages are not included. b is the order-p solution, b_hat the
// embedded one. VERNER_9_6_5: the 9th stage is the FSAL stage f(y_{n+1}) (b_9 = 0), needed by the
// error estimate only. VERNER_13_8_7: b_13 = 0, b_hat_11 = b_hat_12 = 0. The coefficients are large
// (|b_7|, |b_8| ~ 175 in the 6(5) pair), so the order conditions hold in double to ~1e-11 absolute,
// eps times the size of their terms (tests/methods/test_tableaux.cpp).
constexpr ButcherTableau VERNER_9_6_5{
    "VERNER_9_6_5", 9, 6, 5,
    {0, 0.06, 0.09593333333333333, 0.1439, 0.4973, 0.9725, 0.9995, 1, 1},
    {{0},
     {0.06},
     {0.019239962962962962, 0.07669337037037037},
     {0.035975, 0, 0.107925},
     {1.3186834152331484, 0, -5.042058063628562, 4.220674648395414},
     {-41.872591664327516, 0, 159.4325621631375, -122.11921356501003, 5.531743066200054},
     {-54.430156935316504, 0, 207.06725136501848, -158.61081378459, 6.991816585950242, -0.018597231062203234},
     {-54.66374178728198, 0, 207.95280625538936, -159.2889574744995, 7.018743740796944, -0.018338785905045722, -0.0005119484997882099},
     {0.03438957868357036, 0, 0, 0.2582624555633503, 0.4209371189673537, 4.40539646966931, -176.48311902429865, 172.36413340141507}},
    {0.03438957868357036, 0, 0, 0.2582624555633503, 0.4209371189673537, 4.40539646966931, -176.48311902429865, 172.36413340141507, 0},
    {0.04301298296577121, 0, 0, 0.23882842561019763, 0.4493871915553917, 2.2956854086040193, -73.02457612433467, 70.96432878226597, 0.03333333333333333}};

constexpr ButcherTableau VERNER_13_8_7{
    "VERNER_13_8_7", 13, 8, 7,
    {0, 0.05, 0.1065625, 0.15984375, 0.39, 0.465, 0.155, 0.943, 0.901802041735857, 0.909, 0.94, 1, 1},
    {{0},
     {0.05},
     {-0.0069931640625, 0.1135556640625},
     {0.0399609375, 0, 0.1198828125},
     {0.36139756280045754, 0, -1.3415240667004928, 1.3701265039000352},
     {0.049047202797202795, 0, 0, 0.23509720422144048, 0.18085559298135673},
     {0.06169289044289044, 0, 0, 0.11236568314640277, -0.03885046071451367, 0.01979188712522046},
     {-1.767630240222327, 0, 0, -62.5, -6.061889377376669, 5.6508231982227635, 65.62169641937624},
     {-1.1809450665549708, 0, 0, -41.50473441114321, -4.434438319103725, 4.260408188586133, 43.75364022446172, 0.00787142548991231},
     {-1.2814059994414884, 0, 0, -45.047139960139866, -4.731362069449577, 4.514967016593808, 47.44909557172985, 0.010592282971116612, -0.0057468422638446166},
     {-1.7244701342624853, 0, 0, -60.92349008483054, -5.951518376222393, 5.556523730698456, 63.98301198033305, 0.014642028250414961, 0.06460408772358203, -0.0793032316900888},
     {-3.301622667747079, 0, 0, -118.01127235975251, -10.141422388456112, 9.139311332232058, 123.37594282840426, 4.62324437887458, -3.3832777380682018, 4.527592100324618, -5.828495485811623},
     {-3.039515033766309, 0, 0, -109.26086808941763, -9.290642497400293, 8.43050498176491, 114.20100103783314, -0.9637271342145479, -5.0348840888021895, 5.958130824002923, 0, 0}},
    {0.04427989419007951, 0, 0, 0, 0, 0.3541049391724449, 0.2479692154956438, -15.694202038838084, 25.084064965558564, -31.738367786260277, 22.938283273988784, -0.2361324633071542, 0},
    {0.044312615229089795, 0, 0, 0, 0, 0.35460956423432266, 0.2478480431366653, 4.4481347324757845, 19.846886366118735, -23.58162337746562, 0, 0, -0.36016794372897754}};


constexpr std::array<ButcherTableau, 10> butcher{EULER_1_1, HEUN_EULER_2_2_1, KUTTA_3_3, CLASSICAL_RK_4_4,
                                                  BOGACKI_SHAMPINE_4_3_2, DORMAND_PRINCE_7_5_4, VERNER_9_6_5,
                                                  VERNER_13_8_7, GAUSS_1_2, GAUSS_2_4};

// Continuous extensions [Hairer–Nørsett–Wanner I, §II.6]: b_i(theta) as coefficients of theta,
// theta^2, ... (tests/methods/test_tableaux.cpp checks b_i(1) = b_i and the order conditions).
constexpr ContinuousExtension EULER_DENSE{&EULER_1_1, 1, 1, {{1}}};
// Heun: b_1 = theta - theta^2/2, b_2 = theta^2/2.
constexpr ContinuousExtension HEUN_EULER_DENSE{&HEUN_EULER_2_2_1, 2, 2, {{1, -0.5}, {0, 0.5}}};
// Kutta 3: order 2 (order 3 needs a fourth stage): b = (theta - 5/6 theta^2, 2/3 theta^2, 1/6 theta^2).
constexpr ContinuousExtension KUTTA_3_3_DENSE{&KUTTA_3_3, 2, 2, {{1, -5.0 / 6}, {0, 2.0 / 3}, {0, 1.0 / 6}}};
// Classical RK4, order 3 [HNW I, (II.6.6)]: b_1 = theta - 3/2 theta^2 + 2/3 theta^3,
// b_2 = b_3 = theta^2 - 2/3 theta^3, b_4 = -theta^2/2 + 2/3 theta^3.
constexpr ContinuousExtension CLASSICAL_RK_4_4_DENSE{
    &CLASSICAL_RK_4_4, 3, 3, {{1, -1.5, 2.0 / 3}, {0, 1, -2.0 / 3}, {0, 1, -2.0 / 3}, {0, -0.5, 2.0 / 3}}};
// Bogacki–Shampine: the cubic Hermite interpolant through y_n, y_{n+1} and their derivatives
// k_1, k_4 (FSAL), b_i(theta) = (3 theta^2 - 2 theta^3) b_i + (theta - 2 theta^2 + theta^3) [i = 1]
// + (theta^3 - theta^2) [i = 4].
constexpr ContinuousExtension BOGACKI_SHAMPINE_DENSE{
    &BOGACKI_SHAMPINE_4_3_2, 3, 3, {{1, -4.0 / 3, 5.0 / 9}, {0, 1, -2.0 / 3}, {0, 4.0 / 3, -8.0 / 9}, {0, -1, 1}}};

// Dormand–Prince 5(4), the order-4 interpolant of Shampine [Math. Comp. 46 (1986)] in the form of
// Hairer's DOPRI5 (HNW I, §II.6): with R2 = h sum b_i k_i, R3 = h k_1 - R2, R4 = R2 - h k_7 - R3,
// R5 = h sum d_i k_i, u(theta) = y_n + theta (R2 + (1 - theta) (R3 + theta (R4 + (1 - theta) R5))).
constexpr ContinuousExtension dopri5_dense() {
  constexpr double d[7] = {-12715105075.0 / 11282082432.0, 0, 87487479700.0 / 32700410799.0,
                           -10690763975.0 / 1880347072.0,   701980252875.0 / 199316789632.0,
                           -1453857185.0 / 822651844.0,    69997945.0 / 29380423.0};
  ContinuousExtension e{&DORMAND_PRINCE_7_5_4, 4, 4, {}};
  for (int i = 0; i < 7; ++i) {
    const double b = DORMAND_PRINCE_7_5_4.b[i];
    const double r3 = (i == 0 ? 1.0 : 0.0) - b;       // R3's weight
    const double r4 = b - (i == 6 ? 1.0 : 0.0) - r3;  // R4's weight
    // theta R2 + theta (1 - theta) R3 + theta^2 (1 - theta) R4 + theta^2 (1 - theta)^2 R5
    e.B[i][0] = b + r3;
    e.B[i][1] = -r3 + r4 + d[i];
    e.B[i][2] = -r4 - 2 * d[i];
    e.B[i][3] = d[i];
  }
  return e;
}
constexpr ContinuousExtension DORMAND_PRINCE_DENSE = dopri5_dense();

constexpr std::array<ContinuousExtension, 6> continuous{EULER_DENSE, HEUN_EULER_DENSE, KUTTA_3_3_DENSE, CLASSICAL_RK_4_4_DENSE,
                                                        BOGACKI_SHAMPINE_DENSE, DORMAND_PRINCE_DENSE};

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

const ContinuousExtension* continuous_extension(const ButcherTableau& tableau) {
  for (const auto& e : continuous)
    if (e.tableau->name == tableau.name) return &e;
  return nullptr;
}

RungeKuttaTable runge_kutta_table(const ButcherTableau& t) {
  RungeKuttaTable r{std::string(t.name), t.stages, t.order, t.embedded_order, {}, {}, {}, {}, continuous_extension(t)};
  for (int i = 0; i < t.stages; ++i) {
    r.c.push_back(t.c[i]);
    r.b.push_back(t.b[i]);
    r.b_hat.push_back(t.b_hat[i]);
    for (int j = 0; j < t.stages; ++j) r.A.push_back(t.A[i][j]);
  }
  return r;
}

namespace {
ExponentialList exponential_list(const ExponentialProduct& p, int stages) {
  ExponentialList l{p.count, stages, {}};
  for (int j = 0; j < p.count; ++j) l.alpha.insert(l.alpha.end(), p.alpha[j], p.alpha[j] + stages);
  return l;
}
}  // namespace

CommutatorFreeTable commutator_free_table(const CommutatorFreeScheme& s) {
  CommutatorFreeTable t{std::string(s.name), s.stages, s.order, s.embedded_order, {s.c, s.c + s.stages}, {}, {}, {}};
  for (int r = 0; r < s.stages; ++r) t.stage.push_back(exponential_list(s.stage[r], s.stages));
  t.update = exponential_list(s.update, s.stages);
  t.embedded = exponential_list(s.embedded, s.stages);
  return t;
}

RungeKuttaTable consistent_table(const CommutatorFreeTable& s) {
  RungeKuttaTable t{s.name, s.stages, s.order, s.embedded_order, s.c, {}, {}, {}, nullptr};
  const auto sums = [&](const ExponentialList& l) {
    std::vector<double> w(static_cast<std::size_t>(s.stages), 0.0);
    for (int j = 0; j < l.count; ++j)
      for (int k = 0; k < s.stages; ++k) w[k] += l.row(j)[k];
    return w;
  };
  for (int r = 0; r < s.stages; ++r) {
    const std::vector<double> a = sums(s.stage[r]);
    t.A.insert(t.A.end(), a.begin(), a.end());
  }
  t.b = sums(s.update);
  t.b_hat = sums(s.embedded);
  return t;
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
