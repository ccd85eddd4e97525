#include "spinning_vector.hpp"
LIESIM_PLUGIN(model, "test_good", "1.2.3", "test plugin that loads", liesim::test_plugins::SpinningVectorType)
