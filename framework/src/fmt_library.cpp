// fmt's compiled part, from fmt's own implementation header, built into a static library
// (liesim::fmt_library) that every liesim binary links in place of libfmt.so: a process that loads
// libfmt.so also maps and relocates libstdc++.so, which the command links statically (issue 32:
// start-up; docs/benchmarks.md). Outside fmt's header-only mode its format.h declares
// four templates `extern`; their instances for char and wchar_t are defined here.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {
template auto thousands_sep_impl<char>(locale_ref) -> thousands_sep_result<char>;
template auto thousands_sep_impl<wchar_t>(locale_ref) -> thousands_sep_result<wchar_t>;
template auto decimal_point_impl(locale_ref) -> char;
template auto decimal_point_impl(locale_ref) -> wchar_t;
}  // namespace detail
FMT_END_NAMESPACE
