// Built several times with different LIESIM_ABI_MAJOR / LIESIM_ABI_MINOR / LIESIM_BUILD_TOKEN.
#include "spinning_vector.hpp"
LIESIM_PLUGIN(model, TEST_PLUGIN_NAME, "0.0.1", "test plugin with other ABI metadata", liesim::test_plugins::SpinningVectorType)
