#include "spinning_vector.hpp"
LIESIM_PLUGIN(model, "test_factory_throws", "0.0.1", "test plugin whose factory throws", liesim::test_plugins::ThrowingType)
