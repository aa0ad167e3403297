// rw::LaneSplit (rewrites/internal/lane_split.h).
#include "rewrites/internal/lane_split.h"

#include "checker/queries.h"
#include "core/printer.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"

namespace exocpp::rw {

LaneSplit::LaneSplit(const Proc& p, const Cursor& loop, int64_t lanes, const std::string& outer,
                     const std::string& lane)
    : p_(p), c_(loop), f_(as_loop(loop)), ctx_(checker::Context::at(loop)) {
  check_int_arg(c_, "the lane count", lanes, 1);
  if (f_->mode != LoopMode::Seq)
    fail(reason::kLoopMode, c_,
         std::string("the loop must be seq (its iterations in order), but it is ") +
             to_string(f_->mode));
  if (outer == lane)
    fail(reason::kArgName, c_, "the two new loop names must differ, both are '" + lane + "'");
  require_proved(c_, checker::always_true(ctx_, mk_cmp(BinOpKind::Le, f_->lo, f_->hi)), [&] {
    return "the loop's range is not negative ('" + c_.lo().to_string() + "' <= '" +
           c_.hi().to_string() +
           "'; where that holds only for some inputs, as for bounds read from data, specialize "
           "the loop on it first)";
  });
  outer_ = fresh_name(p, outer, c_, NameScope::Statements);
  lane_ = fresh_name(p, lane, c_, NameScope::Statements);
  L_ = int_const(lanes, f_->srcinfo);
  groups_ = mk_div(mk_sub(f_->hi, f_->lo), L_);
}

Expr LaneSplit::iteration(const Sym& l) const {
  const SrcInfo& si = f_->srcinfo;
  return mk_add(mk_add(f_->lo, mk_mul(L_, index_var(outer_, si))), index_var(l, si));
}

Stmt LaneSplit::lane_loop(const Sym& l, Block body) const {
  return ForNode::make(l, int_const(0, f_->srcinfo), L_, std::move(body), LoopMode::Seq,
                       f_->srcinfo);
}

Stmt LaneSplit::groups_loop(const Sym& l, Block body) const {
  return ForNode::make(outer_, int_const(0, f_->srcinfo), groups_, {lane_loop(l, std::move(body))},
                       LoopMode::Seq, f_->srcinfo);
}

Proc LaneSplit::finish(const Block& before, const Block& lanes_code) const {
  for (const Expr& bound : {f_->lo, f_->hi})
    require_unchanged(c_, ctx_, bound, lanes_code, [&] {
      return "the bound '" + to_string(bound) + "', evaluated again after the lanes,";
    });
  const Stmt tail = ForNode::make(f_->iter, mk_add(f_->lo, mk_mul(L_, groups_)), f_->hi, f_->body,
                                  f_->mode, f_->srcinfo);
  const Loc& loc = c_.loc();
  return Edit(p_).surround(loc.block, loc.lo, loc.lo + 1, before, {tail}, {}).done();
}

}  // namespace exocpp::rw
