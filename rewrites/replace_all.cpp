// ============================================================================================
// replace_all: replace every block that unifies with a subproc's body by a call to it.
// ============================================================================================
//
// With a list of subprocs (Exo's stdlib replace_all), each subproc in turn over the result of
// the previous one. The sweep (rw::replace_matches) is replace_once's too.
//
// Every statement is tried as the start of a block as long as the subproc's body, outermost
// first and in program order, each through replace's own rule and checks (rw::replace_at,
// replace.cpp). A place where the rewrite is NotProved (the block does not unify, or the call
// would be illegal) is left as it is; any other refusal (a condition the checker could not
// decide, a bad argument) propagates. Forwarding: each replaced block becomes its call.
#include "rewrites/internal/operation.h"
#include "rewrites/internal/shared_steps.h"
#include "rewrites/replace.h"

namespace exocpp {

namespace {

// Every statement of `b` (list `path`), outermost first, in program order.
void collect(const Proc& p, const Block& b, const BlockPath& path, std::vector<Cursor>& out) {
  for (size_t i = 0; i < b.size(); ++i) {
    Loc l;
    l.kind = CursorKind::Stmt;
    l.block = path;
    l.lo = static_cast<int>(i);
    l.hi = l.lo + 1;
    out.emplace_back(p, l);
    BlockPath sub = path;
    if (const ForNode* f = b[i].as<ForNode>()) {
      sub.push_back({static_cast<int>(i), BlockField::Body});
      collect(p, f->body, sub, out);
    } else if (const IfNode* n = b[i].as<IfNode>()) {
      sub.push_back({static_cast<int>(i), BlockField::Body});
      collect(p, n->body, sub, out);
      sub.back().field = BlockField::Orelse;
      collect(p, n->orelse, sub, out);
    }
  }
}

}  // namespace

namespace rw {

Proc replace_matches(const Proc& p, const std::vector<Proc>& subprocs, bool once) {
  Proc cur = p;
  for (const Proc& subproc : subprocs) {
    if (!subproc.defined())
      rw::fail(reason::kArgUndefinedProc, SrcInfo{}, "the subproc is undefined");
    const int n = static_cast<int>(subproc.body().size());
    std::vector<Cursor> starts;
    collect(cur, cur.body(), {}, starts);
    for (const Cursor& s : starts) {
      Cursor c = cur.forward(s);
      if (!c.is_valid() || c.loc().lo + n > static_cast<int>(c.list().size())) continue;
      Loc l = c.loc();
      l.kind = CursorKind::Block;
      l.hi = l.lo + n;
      try {
        cur = rw::replace_at(cur, Cursor(cur, l), subproc, {.quiet = true});
        if (once) break;
      } catch (const SchedulingError& e) {
        // This block does not unify (or its call would be illegal): leave it. A condition the
        // checker could not decide, or a bad argument, is not a "no": it propagates.
        if (e.code() != ErrorCode::NotProved) throw;
      }
    }
  }
  return cur;
}

}  // namespace rw

Proc replace_all(const Proc& p, const Proc& subproc) {
  return replace_all(p, std::vector<Proc>{subproc});
}

Proc replace_all(const Proc& p, const std::vector<Proc>& subprocs) {
  return rw::run_op("replace_all",
                    [&]() -> Proc { return rw::replace_matches(p, subprocs, false); });
}

}  // namespace exocpp
