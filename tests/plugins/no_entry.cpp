// A shared library without the liesim entry point.
extern "C" int not_a_liesim_plugin() { return 42; }
