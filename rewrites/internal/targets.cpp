// Target resolution (rewrites/internal/targets.h).
#include "rewrites/internal/targets.h"

#include "core/pattern.h"
#include "core/printer.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"

namespace exocpp::rw {

Cursor resolve(const std::string& op, const Proc& p, const CursorLike& target) {
  if (target.is_pattern()) {
    std::vector<Cursor> all = find_all(p, target.pattern());
    if (all.empty())
      fail(op, p->srcinfo, "no match for " + target.describe() + " in proc '" + p.name() + "'");
    return all.front();
  }
  Cursor c;
  try {
    c = p.forward(target.cursor());
  } catch (const InvalidCursorError& e) {
    fail(op, p->srcinfo, e.reason());
  }
  if (!c.is_valid())
    fail(op, p->srcinfo,
         "the cursor's target no longer exists in proc '" + p.name() + "' (a rewrite removed it)");
  return c;
}

Cursor resolve_stmt(const std::string& op, const Proc& p, const CursorLike& target) {
  Cursor c = resolve(op, p, target);
  if (c.is_block() && c.size() == 1) c = c[0];
  if (!c.is_stmt())
    fail(op, c, "expected a statement, but " + target.describe() + " is a " + to_string(c.kind()));
  return c;
}

Cursor resolve_loop(const std::string& op, const Proc& p, const CursorLike& target) {
  Cursor c;
  if (target.is_pattern()) {
    try {
      c = find_loop(p, target.pattern());
    } catch (const SchedulingError& e) {
      fail(op, p->srcinfo, "no loop matches " + target.describe() + " in proc '" + p.name() + "'");
    }
    if (c.is_block() && c.size() == 1) c = c[0];
  } else {
    c = resolve_stmt(op, p, target);
  }
  as_loop(op, c);
  return c;
}

Cursor resolve_block(const std::string& op, const Proc& p, const CursorLike& target) {
  Cursor c = resolve(op, p, target);
  if (c.is_stmt()) return c.as_block();
  if (!c.is_block())
    fail(op, c,
         "expected a block of statements, but " + target.describe() + " is a " +
             to_string(c.kind()));
  return c;
}

Cursor resolve_gap(const std::string& op, const Proc& p, const CursorLike& target) {
  Cursor c = resolve(op, p, target);
  if (c.is_block() && c.size() == 1) c = c[0];
  if (c.is_stmt()) return c.after();
  if (!c.is_gap())
    fail(op, c,
         "expected a gap between statements, but " + target.describe() + " is a " +
             to_string(c.kind()));
  return c;
}

Cursor resolve_alloc(const std::string& op, const Proc& p, const CursorLike& target) {
  Cursor c;
  if (target.is_pattern()) {
    const std::string& pat = target.pattern();
    // A bare identifier names the buffer ("C_reg"); anything else ("x: _", "_") is a pattern.
    bool bare_name = pat != "_" && is_identifier(pat);
    if (bare_name) {
      try {
        c = find_alloc_or_arg(p, pat);
      } catch (const SchedulingError&) {
        fail(op, p->srcinfo,
             "no allocation or argument named '" + pat + "' in proc '" + p.name() + "'");
      }
    } else {
      c = resolve(op, p, target);
    }
  } else {
    c = resolve(op, p, target);
  }
  if (c.is_block() && c.size() == 1) c = c[0];
  if (c.is_arg()) return c;
  if (!c.is_stmt() || c.stmt().kind() != StmtKind::Alloc)
    fail(op, c, "expected an allocation, but " + target.describe() + " is not one");
  return c;
}

Cursor resolve_expr(const std::string& op, const Proc& p, const CursorLike& target) {
  Cursor c = resolve(op, p, target);
  if (!c.is_expr())
    fail(op, c,
         "expected an expression, but " + target.describe() + " is a " + to_string(c.kind()));
  return c;
}

Cursor resolve_alloc_stmt(const std::string& op, const Proc& p, const CursorLike& alloc) {
  Cursor a = resolve_alloc(op, p, alloc);
  if (a.is_arg())
    fail(op, a, "'" + a.name() + "' is an argument; only allocations can be reshaped");
  return a;
}

}  // namespace exocpp::rw
