// Pattern matching. (Placeholder until the pattern matcher lands: finds nothing.)
#include "core/pattern.h"

namespace exocpp {

std::vector<Cursor> find_all(const Proc&, const std::string&) { return {}; }
std::vector<Cursor> find_all(const Cursor&, const std::string&) { return {}; }
Cursor find(const Proc& p, const std::string& pattern) {
  throw SchedulingError("find", p->srcinfo, "no match for '" + pattern + "' (pattern matcher not built yet)");
}
Cursor find(const Cursor& c, const std::string& pattern) { return find(c.proc(), pattern); }
Cursor find_loop(const Proc& p, const std::string& pattern) { return find(p, pattern); }
Cursor find_alloc_or_arg(const Proc& p, const std::string& name) { return find(p, name); }

Cursor Proc::find(const std::string& pattern) const { return exocpp::find(*this, pattern); }
std::vector<Cursor> Proc::find_all(const std::string& pattern) const { return exocpp::find_all(*this, pattern); }
Cursor Proc::find_loop(const std::string& pattern) const { return exocpp::find_loop(*this, pattern); }
Cursor Proc::find_alloc_or_arg(const std::string& name) const { return exocpp::find_alloc_or_arg(*this, name); }

}  // namespace exocpp
