// The spinning-vector test model as a C++ plugin, built several times: with gcc and with clang,
// against the headers of this tree and against a copy with a lower ABI minor, and under a
// built-in model's name. TEST_PLUGIN_NAME is the name (the file is liesim_NAME.so).
#include "spinning_vector.hpp"
#ifdef TEST_THROWING_TYPE
LIESIM_PLUGIN(model, TEST_PLUGIN_NAME, "0.0.1", "test plugin whose type throws", liesim::test_plugins::ThrowingType)
#else
LIESIM_PLUGIN(model, TEST_PLUGIN_NAME, "1.2.3", "test plugin: a vector spinning about e3", liesim::test_plugins::SpinningVectorType)
#endif
