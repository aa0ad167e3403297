// The evaluate-once query (checker/queries.h: value_unchanged_by): does code running between
// two evaluations of an expression write anything the expression reads?
#include "checker/conflict.h"
#include "checker/queries.h"

namespace exocpp::checker {

namespace {

// What an expression reads when evaluated in `ctx`: config fields and data locations (root
// buffer and index). A window or a whole buffer passed by name reads no data; the bounds and
// indices inside them are evaluated, so their reads count.
class ExprReads {
 public:
  explicit ExprReads(const Context& ctx) : ctx_(ctx) {}
  Effects eff;

  void walk(const Expr& e) {
    if (!e.defined()) return;
    switch (e.kind()) {
      case ExprKind::Read: {
        const ReadNode* r = e.as<ReadNode>();
        bool data_scalar = r->type.is_scalar() && is_data(r->type.base);
        if (data_scalar) {
          Location loc = resolve(ctx_, r->name, r->idx);
          Access a;
          a.kind = AccessKind::Read;
          a.buffer = loc.buffer;
          a.idx = std::move(loc.idx);
          a.srcinfo = e.srcinfo();
          eff.accesses.push_back(std::move(a));
        }
        for (const Expr& i : r->idx) walk(i);
        return;
      }
      case ExprKind::ReadConfig: {
        const ReadConfigNode* c = e.as<ReadConfigNode>();
        Access a;
        a.kind = AccessKind::Read;
        a.config = c->config;
        a.field = c->field;
        a.srcinfo = e.srcinfo();
        eff.accesses.push_back(std::move(a));
        return;
      }
      case ExprKind::WindowExpr:
        for (const WAccess& w : e.as<WindowExprNode>()->idx) {
          walk(w.lo);
          if (w.is_interval) walk(w.hi);
        }
        return;
      case ExprKind::Const:
      case ExprKind::StrideExpr:
        return;
      case ExprKind::USub:
        walk(e.as<USubNode>()->arg);
        return;
      case ExprKind::BinOp:
        walk(e.as<BinOpNode>()->lhs);
        walk(e.as<BinOpNode>()->rhs);
        return;
      case ExprKind::Extern:
        for (const Expr& x : e.as<ExternNode>()->args) walk(x);
        return;
    }
  }

 private:
  const Context& ctx_;
};

bool is_write(const Access& a) { return a.kind != AccessKind::Read; }

}  // namespace

Answer value_unchanged_by(const Context& ctx, const Expr& e, const Block& code) {
  if (code.empty()) return Answer::proof();
  return guarded([&]() -> Answer {
    ExprReads r(ctx);
    r.walk(e);
    if (r.eff.accesses.empty()) return Answer::proof();
    Effects body = effects_of(ctx, code);
    const std::string what = "`" + expr_text(e) + "` may change its value in between";
    // Config fields: any write of a field the expression reads (values are not modelled).
    for (const Access& x : r.eff.accesses) {
      if (!x.is_config()) continue;
      for (const Access& y : body.accesses)
        if (is_write(y) && y.same_location_as(x))
          return Answer::refutation(what,
                                    std::string(y.through_call ? "a call" : "the code") +
                                        " writes " + x.config->name + "." + x.field +
                                        at_line(y.srcinfo) + ", which `" + expr_text(e) + "` reads",
                                    y.srcinfo);
    }
    // Data: a write of a location the expression reads (index analysis).
    bool data = false, writes = false;
    for (const Access& x : r.eff.accesses) data = data || !x.is_config();
    for (const Access& y : body.accesses) writes = writes || (is_write(y) && !y.is_config());
    if (!data || !writes) return Answer::proof();
    Encoder enc(ctx);
    ConflictSpec spec;
    spec.first =
        Side{&r.eff, "e", {}, [](const z3::model&) { return std::string("the expression"); }};
    spec.second = Side{&body, "c", {}, [](const z3::model&) { return std::string("the code"); }};
    spec.relevant = [](const Access& x, const Access& y) {
      return !x.is_config() && x.kind == AccessKind::Read && is_write(y) && x.same_location_as(y);
    };
    spec.reason = what;
    return find_conflict(enc, ctx, spec);
  });
}

}  // namespace exocpp::checker
