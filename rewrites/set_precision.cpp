// ============================================================================================
// set_precision: change the element type of an allocation or data argument.
// ============================================================================================
//
//   x : f32[n] @ M   -->   x : f64[n] @ M
//
// Every read, write and window of the buffer (and of windows of it) takes the new element type.
// Legality: `type` is a data type (R, f16, bf16, f32, f64, i8, ui8, ui16, i32) and the result
// type-checks (a call passing the buffer to an instruction of another precision is refused).
//
// Changing a precision changes what the proc computes (values round or wrap differently): it is
// a directive of the user, not an equivalence. The result therefore leaves its input's
// equivalence class (ProcNode::eqv_class, a fresh one), so call_eqv will not swap one for the
// other; a change to the type the buffer already has keeps the class.
#include <set>

#include "core/ir_visit.h"
#include "rewrites/internal/config_fields.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/memories.h"

namespace exocpp {

namespace {

// Gives every access of `names` (the buffer, then each window of it in turn) element type k.
class Retype : public IRMutator {
 public:
  Retype(Sym buf, ScalarKind k) : k_(k) { names_.insert(buf); }

 protected:
  Expr mutate_Read(const ReadNode* n, const Expr& e) override {
    Expr m = IRMutator::mutate_Read(n, e);
    if (!names_.count(n->name)) return m;
    const ReadNode* r = m.as<ReadNode>();
    Type t = r->type;
    t.base = k_;
    return ReadNode::make(r->name, r->idx, t, r->srcinfo);
  }
  Expr mutate_WindowExpr(const WindowExprNode* n, const Expr& e) override {
    Expr m = IRMutator::mutate_WindowExpr(n, e);
    if (!names_.count(n->name)) return m;
    const WindowExprNode* w = m.as<WindowExprNode>();
    return WindowExprNode::make(w->name, k_, w->idx, w->srcinfo);
  }
  Stmt mutate_Assign(const AssignNode* n, const Stmt& s) override {
    Stmt m = IRMutator::mutate_Assign(n, s);
    if (!names_.count(n->name)) return m;
    const AssignNode* a = m.as<AssignNode>();
    return AssignNode::make(a->name, k_, a->idx, a->rhs, a->srcinfo);
  }
  Stmt mutate_Reduce(const ReduceNode* n, const Stmt& s) override {
    Stmt m = IRMutator::mutate_Reduce(n, s);
    if (!names_.count(n->name)) return m;
    const ReduceNode* a = m.as<ReduceNode>();
    return ReduceNode::make(a->name, k_, a->idx, a->rhs, a->srcinfo);
  }
  Stmt mutate_WindowStmt(const WindowStmtNode* n, const Stmt& s) override {
    if (const WindowExprNode* w = n->rhs.as<WindowExprNode>())
      if (names_.count(w->name)) names_.insert(n->name);
    return IRMutator::mutate_WindowStmt(n, s);
  }

 private:
  std::set<Sym> names_;
  ScalarKind k_;
};
}  // namespace

Proc set_precision(const Proc& p, const CursorLike& alloc_or_arg, const std::string& type) {
  return rw::run_op("set_precision", [&]() -> Proc {
    Cursor c = rw::resolve_alloc(p, alloc_or_arg);
    std::optional<ScalarKind> k = scalar_kind_from_string(type);
    if (!k || !is_data(*k))
      rw::fail(reason::kArgType, c, "'" + type + "' is not a data type (" + type_names(true) + ")");
    if (c.is_arg() && !c.arg().type.is_data())
      rw::fail(reason::kTargetWrongKind, c,
               "'" + c.name() + "' is a control argument; only data buffers have a precision");
    rw::Edit edit(p);
    edit.declaration(c, [&](Type& t, std::string&) { t.base = *k; });
    Sym buf = c.is_arg() ? c.arg().name : c.stmt().as<AllocNode>()->name;
    edit.rewrite_body(Retype(buf, *k).mutate(edit.body()));
    rw::typecheck_candidate(edit.node(), "'" + c.name() + "' cannot become " + type);
    const ScalarKind old = c.is_arg() ? c.arg().type.base : c.stmt().as<AllocNode>()->type.base;
    if (old != *k) {
      edit.node().eqv_class = fresh_eqv_class();
      edit.node().eqv_configs.clear();
    }
    return edit.done();
  });
}

}  // namespace exocpp
