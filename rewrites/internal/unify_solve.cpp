// The second stage of replace's unifier: from the equations and accesses match() collected,
// solve the subproc's control arguments (each equation with one unknown, linear with
// coefficient +-1, fixes it; repeat), then each data argument (a caller variable or element for
// a scalar; for a tensor, a window of the caller's buffer: which caller dimensions are
// intervals, the offset of each and the point of each dropped one), and verify that every
// equation and access holds for the solution (simplified normal form, else the checker).
#include <algorithm>
#include <functional>
#include <optional>

#include "checker/frontend_checks.h"
#include "checker/queries.h"
#include "core/ir_visit.h"
#include "core/memory.h"
#include "core/printer.h"
#include "core/simplify.h"
#include "core/uses.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/unify.h"

namespace exocpp::rw::unify {

bool mentions_any(const Expr& e, const std::vector<Sym>& vars) {
  return std::any_of(vars.begin(), vars.end(), [&](const Sym& v) { return mentions(e, v); });
}

bool provably_equal(const checker::Context& ctx, const Expr& a, const Expr& b) {
  // Booleans come only from boolean arguments, which are solved by the caller's expression.
  if (a.type().base == ScalarKind::Bool || b.type().base == ScalarKind::Bool)
    return expr_equal(simplify_expr(a), simplify_expr(b));
  Expr d = simplify_expr(rw::mk_sub(a, b));
  if (auto c = rw::const_int(d)) return *c == 0;
  return checker::always_true(ctx,
                              BinOpNode::make(BinOpKind::Eq, simplify_expr(a), simplify_expr(b)))
      .proved();
}

namespace {

class Solver {
 public:
  Solver(const Proc& caller, const checker::Context& ctx, const Proc& callee, const Problem& pb,
         SrcInfo loc)
      : caller_(caller), ctx_(ctx), callee_(callee), pb_(pb), loc_(std::move(loc)) {
    for (const ForNode* l : pb.inner_loops) {
      inner_.push_back(l->iter);
      inner_lo_[l->iter] = l->lo;
    }
    for (const FnArg& a : callee.args())
      if (!a.type.is_data()) unknown_.push_back(a.name);
  }

  Solution run() {
    solve_control();
    verify_equations();
    // Index parameters first: the other accesses' indices may read them (`src[idx[l]]`), and
    // with_solved reads them through the caller's windows.
    std::unordered_map<Sym, Expr, SymHash> data;
    for (const FnArg& a : callee_.args())
      if (a.range && !a.type.is_scalar()) index_views_[a.name] = data[a.name] = data_arg(a);
    for (const FnArg& a : callee_.args()) {
      if (a.type.is_data()) {
        if (!data.count(a.name)) data[a.name] = data_arg(a);
        sol_.args.push_back(data.at(a.name));
      } else {
        sol_.args.push_back(sol_.control.at(a.name));
      }
    }
    return sol_;
  }

 private:
  [[noreturn]] void mismatch(const SrcInfo& where, const std::string& why) const {
    throw Mismatch{where.known() ? where : loc_, why};
  }
  std::string who(const Sym& arg) const {
    return "the argument '" + arg.name() + "' of '" + callee_.name() + "'";
  }

  // `e` in the caller's terms: solved control arguments by their values, elements of solved
  // index parameters (`idx[l]`, idx := col[j:j + 16]) by the caller's elements (`col[j + l]`).
  Expr with_solved(const Expr& e) const {
    Expr x = rw::substitute(e, solved_);
    if (!index_views_.empty())
      x = map_exprs(x, [&](const Expr& r) -> std::optional<Expr> {
        const ReadNode* n = r.as<ReadNode>();
        auto it = n ? index_views_.find(n->name) : index_views_.end();
        if (it == index_views_.end() || n->idx.empty()) return std::nullopt;
        return caller_element(it->second, n->idx, r);
      });
    return simplify_expr(x);
  }
  // The element of the caller's buffer that `arg[idx]` names, `arg` passed as `passed` (the
  // whole buffer or a window of it).
  Expr caller_element(const Expr& passed, const std::vector<Expr>& idx, const Expr& at) const {
    if (const ReadNode* whole = passed.as<ReadNode>())
      return ReadNode::make(whole->name, idx, at.type(), at.srcinfo());
    const WindowExprNode* w = passed.as<WindowExprNode>();
    std::vector<Expr> mine;
    size_t k = 0;
    for (const WAccess& d : w->idx)
      mine.push_back(d.is_interval && k < idx.size() ? rw::mk_add(d.lo, idx[k++]) : d.lo);
    return ReadNode::make(w->name, std::move(mine), at.type(), at.srcinfo());
  }
  std::vector<Sym> unknowns_in(const Expr& e) const {
    std::vector<Sym> out;
    for (const Sym& u : unknown_)
      if (!solved_.count(u) && mentions(e, u)) out.push_back(u);
    return out;
  }

  // `d == 0` with `u` its only unknown: u's value when d is linear in u with coefficient +-1.
  std::optional<Expr> isolate(const Expr& d, const Sym& u) const {
    auto at = [&](int64_t v) {
      rw::SymMap m{{u, rw::int_const(v)}};
      return simplify_expr(rw::substitute(d, m));
    };
    Expr d0 = at(0), d1 = at(1), d2 = at(2);
    auto c1 = rw::const_int(simplify_expr(rw::mk_sub(d1, d0)));
    auto c2 = rw::const_int(simplify_expr(rw::mk_sub(d2, d1)));
    if (!c1 || !c2 || *c1 != *c2 || (*c1 != 1 && *c1 != -1)) return std::nullopt;
    // Not linear after all (u*u, u/2, ...)? verify_equations() then refuses the solution.
    return simplify_expr(*c1 == 1 ? rw::mk_sub(rw::int_const(0), d0) : d0);
  }

  // One pass over `eqs`, solving each equation with one unknown; true when one was solved.
  // `fixed`: accept only values that do not change with the block's loops.
  bool solve_from(const std::vector<IndexEq>& eqs, bool fixed) {
    bool progress = false;
    for (const IndexEq& eq : eqs) {
      Expr c = with_solved(eq.callee);
      std::vector<Sym> unk = unknowns_in(c);
      if (unk.size() != 1) continue;
      const Sym& u = unk[0];
      std::optional<Expr> v;
      if (const ReadNode* r = c.as<ReadNode>(); r && r->name == u && r->idx.empty()) {
        v = eq.caller;  // the argument itself (booleans, plain indices)
      } else if (c.type().base != ScalarKind::Bool) {
        v = isolate(simplify_expr(rw::mk_sub(c, eq.caller)), u);
      }
      if (!v || (fixed && mentions_any(simplify_expr(*v), inner_))) continue;
      solved_[u] = *v;
      progress = true;
    }
    return progress;
  }

  // A non-window tensor parameter takes the caller's whole buffer (window_arg checks that), so
  // each of its indices equals the caller's: callee `dst[i - 3 + m, ...]` against caller
  // `x[i, ...]` fixes m := 3 (Exo's test_unify8, a callee loop `for i in seq(m, n)`).
  std::vector<IndexEq> whole_tensor_eqs() const {
    std::vector<IndexEq> out;
    for (const BufAccess& x : pb_.accesses) {
      auto it = std::find_if(callee_.args().begin(), callee_.args().end(),
                             [&](const FnArg& a) { return a.name == x.callee_arg; });
      if (it == callee_.args().end() || !it->type.is_data() || it->type.window ||
          it->type.is_scalar() || x.callee_idx.size() != x.caller_idx.size())
        continue;
      for (size_t d = 0; d < x.callee_idx.size(); ++d)
        out.push_back(IndexEq{x.callee_idx[d], x.caller_idx[d], x.site});
    }
    return out;
  }

  // An index parameter's range against the range of the caller's index argument its accesses
  // read: a control argument that only a range fixes (a gather's `n` in `src: [f32][n]`,
  // `idx: i32[16] in range(0, n)`) takes the caller's bound. These equations only choose a
  // value: the call check proves the caller's range lies inside the callee's (frontend_checks).
  std::vector<IndexEq> index_range_eqs() const {
    std::vector<IndexEq> out;
    for (const FnArg& a : callee_.args()) {
      if (!a.range) continue;
      auto x = std::find_if(pb_.accesses.begin(), pb_.accesses.end(),
                            [&](const BufAccess& b) { return b.callee_arg == a.name; });
      if (x == pb_.accesses.end()) continue;
      for (const FnArg& mine : caller_.args())
        if (mine.name == x->caller_buf && mine.range) {
          out.push_back(IndexEq{a.range->lo, mine.range->lo, x->site});
          out.push_back(IndexEq{a.range->hi, mine.range->hi, x->site});
        }
    }
    return out;
  }

  void solve_control() {
    // The equations of trip counts, conditions and control expressions first; the indices of
    // whole-tensor parameters only for what those leave open, then index parameters' ranges.
    for (bool progress = true; progress;) {
      progress = solve_from(pb_.eqs, false);
      if (!progress) progress = solve_from(whole_tensor_eqs(), true);
      if (!progress) progress = solve_from(index_range_eqs(), true);
    }
    for (const FnArg& a : callee_.args()) {
      if (a.type.is_data()) continue;
      auto it = solved_.find(a.name);
      if (it == solved_.end())
        mismatch(loc_, "cannot determine " + who(a.name) +
                           " from the block: no loop bound or index of the block fixes it");
      Expr v = simplify_expr(it->second);
      if (mentions_any(v, inner_))
        mismatch(loc_, who(a.name) + " would be `" + to_string(v) +
                           "`, which changes with the loops of the block (a call takes one value)");
      sol_.control[a.name] = v;
    }
  }

  void verify_equations() {
    for (const IndexEq& eq : pb_.eqs) {
      Expr c = with_solved(eq.callee);
      if (!provably_equal(ctx_, c, eq.caller))
        mismatch(eq.site.where, eq.site.caller + " cannot equal " + eq.site.callee + " of '" +
                                    callee_.name() + "' (with the arguments solved, that is `" +
                                    to_string(c) + "`)");
    }
  }

  Expr data_arg(const FnArg& a) {
    std::vector<const BufAccess*> accs;
    for (const BufAccess& x : pb_.accesses)
      if (x.callee_arg == a.name) accs.push_back(&x);
    if (accs.empty())
      mismatch(loc_,
               "cannot determine " + who(a.name) + ": '" + callee_.name() + "' never accesses it");
    const Sym buf = accs[0]->caller_buf;
    Solution::View view{buf, {}, false};
    for (const BufAccess* x : accs) {
      view.written = view.written || x->write;
      if (x->caller_buf != buf)
        mismatch(x->site.where, who(a.name) + " would have to be both '" + buf.name() + "' (`" +
                                    accs[0]->site.caller + "`) and '" + x->caller_buf.name() +
                                    "' (`" + x->site.caller + "`)");
    }
    for (const auto& [callee_local, caller_local] : pb_.locals)
      if (caller_local == buf)
        mismatch(accs[0]->site.where,
                 "'" + buf.name() + "' would be passed for '" + a.name.name() + "' of '" +
                     callee_.name() +
                     "', but it is allocated inside the block and gone at the call");
    const Type* bt = ctx_.type_of(buf);
    if (!bt || !bt->is_data())
      mismatch(
          accs[0]->site.where,
          "'" + buf.name() + "' is not a data buffer, so it cannot be passed as " + who(a.name));
    check_types(a, buf, *bt, accs[0]->site.where);
    const int caller_rank = static_cast<int>(accs[0]->caller_idx.size());
    for (const BufAccess* x : accs)
      if (static_cast<int>(x->caller_idx.size()) != caller_rank)
        mismatch(x->site.where,
                 "'" + buf.name() + "' is accessed with different numbers of indices");
    Expr out;
    if (a.type.is_scalar()) {
      out = scalar_arg(a, accs, *bt);
    } else {
      out = window_arg(a, accs, *bt, view.dims);
    }
    sol_.views[a.name] = view;
    return out;
  }

  void check_types(const FnArg& a, const Sym& buf, const Type& bt, const SrcInfo& where) const {
    ScalarKind ck = a.type.base, kk = bt.base;
    if (ck != kk && ck != ScalarKind::R && kk != ScalarKind::R)
      mismatch(where, "'" + buf.name() + "' holds " + to_string(kk) + " but " + who(a.name) +
                          " is " + to_string(ck) + ": precisions must agree (R matches any)");
    std::string cm = a.mem.empty() ? "DRAM" : a.mem;
    std::string km = mem_of(caller_, buf);
    const Memory* caller_mem = find_memory(km);
    bool dram_family = cm == "DRAM" && caller_mem && caller_mem->passes_as_dram();
    if (cm != km && !dram_family)
      mismatch(where, "'" + buf.name() + "' lives in " + km + " but " + who(a.name) +
                          " is declared @ " + cm);
  }

  Expr scalar_arg(const FnArg& a, const std::vector<const BufAccess*>& accs, const Type& bt) const {
    const BufAccess& first = *accs[0];
    for (const BufAccess* x : accs) {
      for (const Expr& i : x->caller_idx)
        if (mentions_any(i, inner_))
          mismatch(x->site.where,
                   who(a.name) + " is a scalar, but `" + x->site.caller +
                       "` names a different element in each iteration of the block's loops");
      for (size_t d = 0; d < x->caller_idx.size(); ++d)
        if (!provably_equal(ctx_, x->caller_idx[d], first.caller_idx[d]))
          mismatch(x->site.where, who(a.name) + " is a scalar, but the block uses both `" +
                                      first.site.caller + "` and `" + x->site.caller + "` for it");
    }
    std::vector<Expr> idx;
    for (const Expr& i : first.caller_idx) idx.push_back(simplify_expr(i));
    if (idx.empty() && bt.is_tensor_or_window())
      mismatch(first.site.where, "'" + first.caller_buf.name() + "' is a tensor, not a scalar");
    return ReadNode::make(first.caller_buf, std::move(idx), bt.base, first.site.where);
  }

  // The value of caller index `e` with the block's loop variables at their lower bounds.
  Expr at_start(const Expr& e) const {
    Expr v = e;
    for (size_t n = 0; n <= inner_.size() && mentions_any(v, inner_); ++n)
      v = simplify_expr(rw::substitute(v, inner_lo_));
    return v;
  }

  // One way to see `buf` as `a`: caller dimensions `dims` (ascending) are the window's
  // intervals. Returns the window accesses, or sets `why`.
  std::optional<std::vector<WAccess>> try_window(const FnArg& a,
                                                 const std::vector<const BufAccess*>& accs,
                                                 const std::vector<int>& dims, std::string& why,
                                                 SrcInfo& why_at) const {
    const BufAccess& first = *accs[0];
    const int rank = static_cast<int>(first.caller_idx.size());
    std::vector<WAccess> idx;
    for (int d = 0; d < rank; ++d) {
      auto pos = std::find(dims.begin(), dims.end(), d);
      const Expr& f0 = first.caller_idx[static_cast<size_t>(d)];
      if (pos == dims.end()) {
        Expr pt = simplify_expr(f0);
        for (const BufAccess* x : accs) {
          const Expr& f = x->caller_idx[static_cast<size_t>(d)];
          if (mentions_any(f, inner_) || !provably_equal(ctx_, f, pt)) {
            why = "`" + x->site.caller + "` cannot equal `" + x->site.callee +
                  "` for any window of '" + first.caller_buf.name() + "': its index `" +
                  to_string(f) + "` in dimension " + std::to_string(d) +
                  " is not fixed across the block";
            why_at = x->site.where;
            return std::nullopt;
          }
        }
        idx.push_back(WAccess::point(pt));
        continue;
      }
      size_t k = static_cast<size_t>(pos - dims.begin());
      // Callee indices may mention control arguments solved above (`i - 3 + m` with m := 3):
      // the window is in the caller's terms, so substitute their values.
      Expr off = at_start(rw::mk_sub(f0, with_solved(first.callee_idx[k])));
      if (mentions_any(off, inner_)) {
        why = "`" + first.site.caller + "` cannot equal `" + first.site.callee +
              "` for any window of '" + first.caller_buf.name() + "': the offset `" +
              to_string(off) + "` would change with the block's loops";
        why_at = first.site.where;
        return std::nullopt;
      }
      for (const BufAccess* x : accs) {
        Expr want = simplify_expr(rw::mk_add(off, with_solved(x->callee_idx[k])));
        if (!provably_equal(ctx_, x->caller_idx[static_cast<size_t>(d)], want)) {
          why = "`" + x->site.caller + "` cannot equal `" + x->site.callee +
                "` for any window of '" + first.caller_buf.name() + "': in dimension " +
                std::to_string(d) + " `" + to_string(x->caller_idx[static_cast<size_t>(d)]) +
                "` is not `" + to_string(want) + "`";
          why_at = x->site.where;
          return std::nullopt;
        }
      }
      Expr ext = with_solved(a.type.shape[k]);
      idx.push_back(WAccess::interval(off, simplify_expr(rw::mk_add(off, ext))));
    }
    return idx;
  }

  Expr window_arg(const FnArg& a, const std::vector<const BufAccess*>& accs, const Type& bt,
                  std::vector<int>& out_dims) {
    const BufAccess& first = *accs[0];
    const int r = a.type.rank();
    const int rank = static_cast<int>(first.caller_idx.size());
    for (const BufAccess* x : accs)
      for (const Expr& e : x->callee_idx)
        if (auto u = unknowns_in(e); !u.empty())
          mismatch(x->site.where,
                   "cannot determine " + who(u[0]) + " from `" + x->site.callee + "`");
    if (rank < r)
      mismatch(first.site.where, who(a.name) + " has " + std::to_string(r) + " dimensions but `" +
                                     first.site.caller + "` indexes only " + std::to_string(rank));
    std::vector<bool> varies(static_cast<size_t>(rank), false);
    for (const BufAccess* x : accs)
      for (int d = 0; d < rank; ++d)
        if (mentions_any(x->caller_idx[static_cast<size_t>(d)], inner_))
          varies[static_cast<size_t>(d)] = true;
    // Candidate interval dimensions: every dimension that varies, plus the latest others.
    std::vector<std::vector<int>> cands;
    std::vector<int> pick;
    std::function<void(int)> gen = [&](int d) {
      if (static_cast<int>(pick.size()) == r) {
        bool ok = true;
        for (int e = 0; e < rank; ++e)
          if (varies[static_cast<size_t>(e)] &&
              std::find(pick.begin(), pick.end(), e) == pick.end())
            ok = false;
        if (ok) cands.push_back(pick);
        return;
      }
      if (d < 0) return;
      pick.insert(pick.begin(), d);
      gen(d - 1);
      pick.erase(pick.begin());
      gen(d - 1);
    };
    gen(rank - 1);
    if (cands.empty())
      mismatch(first.site.where, "`" + first.site.caller + "` cannot equal `" + first.site.callee +
                                     "`: '" + first.caller_buf.name() +
                                     "' varies in more dimensions across the block than " +
                                     who(a.name) + " has (" + std::to_string(r) + ")");
    std::string why;
    SrcInfo why_at;
    for (const std::vector<int>& dims : cands) {
      std::string w;
      SrcInfo wa;
      auto idx = try_window(a, accs, dims, w, wa);
      if (!idx) {
        if (why.empty()) why = w, why_at = wa;
        continue;
      }
      out_dims = dims;
      if (a.type.window)
        return WindowExprNode::make(first.caller_buf, bt.base, std::move(*idx), first.site.where);
      // A tensor parameter takes a whole tensor of the same shape.
      bool whole = !bt.window && bt.rank() == r;
      for (size_t d = 0; whole && d < idx->size(); ++d)
        whole = provably_equal(ctx_, (*idx)[d].lo, rw::int_const(0)) &&
                provably_equal(ctx_, (*idx)[d].hi, bt.shape[d]);
      if (whole) return ReadNode::make(first.caller_buf, {}, bt, first.site.where);
      // A part of the buffer may stand for a tensor parameter (a plain pointer) when dense.
      Expr part =
          WindowExprNode::make(first.caller_buf, bt.base, std::move(*idx), first.site.where);
      if (!checker::window_is_dense(ctx_, part).proved())
        mismatch(first.site.where,
                 who(a.name) + " is a tensor, which takes a dense buffer, but the block uses `" +
                     to_string(part) + "`, which may be strided; declare it as a window [" +
                     to_string(a.type.base) + "][...]");
      return part;
    }
    mismatch(why_at, why);
  }

  const Proc& caller_;
  const checker::Context& ctx_;
  const Proc& callee_;
  const Problem& pb_;
  SrcInfo loc_;
  std::vector<Sym> inner_;
  rw::SymMap inner_lo_;
  std::vector<Sym> unknown_;
  rw::SymMap solved_;
  std::unordered_map<Sym, Expr, SymHash> index_views_;  // index parameter -> what it is passed
  Solution sol_;
};

}  // namespace

Solution solve(const Proc& caller, const checker::Context& ctx, const Proc& callee,
               const Problem& pb, const SrcInfo& block_loc) {
  return Solver(caller, ctx, callee, pb, block_loc).run();
}

}  // namespace exocpp::rw::unify
