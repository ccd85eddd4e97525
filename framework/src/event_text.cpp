// An event as the user writes it, "NAME<VALUE" or "NAME>VALUE": its syntax, before a model resolves
// NAME (the study file's reader checks [[event]] tables with it; the fuzz harness links it).
#include <liesim/host/driver.hpp>
#include <liesim/sdk/settings.hpp>

#include <fmt/format.h>

#include <cmath>

namespace liesim {

EventSpec parse_event_text(const std::string& text, bool terminal) {
  EventSpec e;
  e.text = text;
  e.terminal = terminal;
  const auto op = text.find_first_of("<>");
  if (op == std::string::npos || op == 0 || op + 1 >= text.size())
    throw Error(fmt::format("event '{}': write NAME<VALUE (NAME falls below VALUE) or NAME>VALUE (rises above it), NAME a state "
                            "column or an observable, e.g. \"q<0\"", text));
  e.name = detail::trim(text.substr(0, op));
  e.direction = text[op] == '<' ? -1 : +1;
  if (!detail::parse_double(text.substr(op + 1), e.value) || !std::isfinite(e.value))
    throw Error(fmt::format("event '{}': '{}' is not a finite number", text, detail::trim(text.substr(op + 1))));
  return e;
}

}  // namespace liesim
