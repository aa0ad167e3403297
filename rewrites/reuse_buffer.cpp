// reuse_buffer: use an existing buffer in place of a later allocation of the same type.
//
//   x : T ; ... ; y : T ; s        -->        x : T ; ... ; s[ y -> x ]
//
// Legality: x and y have the same type and memory, y lies in x's scope, and x is dead once y
// holds a value: in y's own list nothing after y's first use (an assignment to y, which may
// still read x) uses x; when y is nested deeper, nothing after y's allocation (nor any loop or
// if around it, inside x's scope) uses x.
#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/uses.h"
#include "rewrites/buffers.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

namespace {

bool same_type(const Type& a, const Type& b) {
  if (a.base != b.base || a.rank() != b.rank() || a.window != b.window) return false;
  for (int d = 0; d < a.rank(); ++d)
    if (!expr_equal(a.shape[d], b.shape[d])) return false;
  return true;
}
std::string first_line(const Stmt& s) {
  std::string t = to_string(s);
  return t.substr(0, t.find('\n'));
}
}  // namespace

Proc reuse_buffer(const Proc& p, const CursorLike& buf, const CursorLike& replace) {
  return rw::run_op("reuse_buffer", [&]() -> Proc {
    Cursor xc = rw::resolve_alloc_stmt(p, buf);
    Cursor yc = rw::resolve_alloc_stmt(p, replace);
    const AllocNode* x = xc.stmt().as<AllocNode>();
    const AllocNode* y = yc.stmt().as<AllocNode>();
    if (x->name == y->name) rw::fail(reason::kArgInvalid, yc, "a buffer cannot replace itself");
    if (!same_type(x->type, y->type) || x->mem != y->mem)
      rw::fail(reason::kAllocMismatch, yc,
               "'" + y->name.name() + ": " + to_string(y->type) + " @ " + y->mem + "' and '" +
                   x->name.name() + ": " + to_string(x->type) + " @ " + x->mem +
                   "' differ in type or memory");
    const BlockPath& px = xc.loc().block;
    const BlockPath& py = yc.loc().block;
    const int xi = xc.loc().lo, yi = yc.loc().lo;
    bool prefix = px.size() <= py.size() && std::equal(px.begin(), px.end(), py.begin());
    int top = py.size() == px.size() ? yi : (prefix ? py[px.size()].index : -1);
    if (!prefix || top <= xi)
      rw::fail(
          reason::kStmtOrder, yc,
          "'" + y->name.name() + "' is not allocated after '" + x->name.name() + "' in its scope");
    // A par loop between the two would make its parallel iterations share x.
    const Block* level = &xc.list();
    for (size_t l = px.size(); l < py.size(); ++l) {
      const Stmt& s = (*level)[py[l].index];
      if (const ForNode* f = s.as<ForNode>()) {
        if (is_parallel(f->mode))
          rw::fail(reason::kAllocSharedByParallel, yc,
                   "'" + y->name.name() + "' is allocated in the " + to_string(f->mode) +
                       " loop '" + f->iter.name() + "', whose parallel iterations would share '" +
                       x->name.name() + "'");
        level = &f->body;
      } else if (const IfNode* i = s.as<IfNode>()) {
        level = py[l].field == BlockField::Body ? &i->body : &i->orelse;
      }
    }
    // x must be dead from y's allocation on.
    const Block& xlist = xc.list();
    // Uses of x include uses through window statements onto it (rw::storage_uses).
    auto refuse_use = [&](const Stmt& s) {
      rw::BufferUses u = rw::storage_uses(p, s, x->name);
      if (u.any())
        rw::fail(reason::kAllocLive, yc,
                 "'" + x->name.name() + "' is still live at the allocation of '" + y->name.name() +
                     "' (used later by '" + first_line(u.stmts.front()) + "')");
    };
    const Block& ylist = yc.list();
    if (py.size() > px.size()) {
      for (size_t k = top + 1; k < xlist.size(); ++k) refuse_use(xlist[k]);
      refuse_use(xlist[top]);  // conservatively: anywhere around y
      for (size_t k = yi + 1; k < ylist.size(); ++k) refuse_use(ylist[k]);
    } else {
      // Same list: x only has to be dead once y holds a value. Statements before y's first use
      // may use x; that first use may read x if it is an assignment to y (its right-hand side
      // is read before the write, as in Exo's `c = aa + bb` --> `bb = aa + bb`); a loop or a
      // reduction there is no first write (a later iteration would read the overwritten x).
      size_t k = yi + 1;
      while (k < ylist.size() && !rw::storage_uses(p, ylist[k], y->name).any()) ++k;
      if (k < ylist.size()) {
        const AssignNode* a = ylist[k].as<AssignNode>();
        if (!(a && a->name == y->name)) refuse_use(ylist[k]);
        for (++k; k < ylist.size(); ++k) refuse_use(ylist[k]);
      }
    }

    Block rest(ylist.begin() + yi + 1, ylist.end());
    rw::AccessMap m;
    m.buf = y->name;
    m.new_name = x->name;
    Block mapped = rw::map_accesses(rest, m);
    // y's allocation disappears; the statements after it move up, rewritten in place.
    return rw::Edit(p)
        .remove(py, yi, yi + 1)
        .rewrite(py, yi, yi + static_cast<int>(mapped.size()), mapped)
        .done();
  });
}

}  // namespace exocpp
