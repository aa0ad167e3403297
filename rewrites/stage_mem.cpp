// stage_mem: stage a window of a buffer into a new buffer around a block of statements.
//
//   stage_mem(p, block, "x[0:n, j-1:j+1]", "xt")
//
//     s                           xt : T[n, 2] @ MEM                    -- x's memory
//                           -->   for i0 in seq(0, n):                  -- load (if s reads x)
//                                     for i1 in seq(0, 2):
//                                         xt[i0, i1] = x[i0, j - 1 + i1]
//                                 s[ x[a, b] -> xt[a, b - (j - 1)] ]
//                                 for i0 ..: for i1 ..:                 -- store (if s writes x)
//                                         x[i0, j - 1 + i1] = xt[i0, i1]
//
// With accum = true the block may only reduce into x: the load becomes `xt[..] = 0` and the
// store `x[..] += xt[..]`, which regroups the sum: no float addend may meet an integer x
// (require_addends_regroup, core's reductions_regroup). Legality: the window
// covers every access of x in the block (checker::window_covers) — or, failing that, each element
// access is proved wholly inside the window (staged) or wholly outside it
// (checker::window_disjoint: left on x, whose window elements only the load and store touch) — and
// is not empty; where the window may reach outside x (in an interval or a point index), the load
// and store are guarded by `if` (as Exo does): the load runs even where the block's own accesses
// would not. The window's bounds are evaluated by the load (before the block), by every rewritten
// access (inside it) and by the store (after it): the checker proves the block writes nothing they
// read (checker::value_unchanged_by).
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "checker/context.h"
#include "checker/queries.h"
#include "core/interpreter.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/window_alias.h"
#include "rewrites/buffers.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/layout.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/scope.h"
#include "rewrites/internal/targets.h"

namespace exocpp {

namespace {

// The window the user named, as a WindowExpr over every dimension of its buffer.
Expr as_window(const Cursor& at, const Expr& e, const std::string& text, Type& buf_type) {
  Sym name;
  std::vector<WAccess> idx;
  ScalarKind elem = e.type().base;
  if (const WindowExprNode* w = e.as<WindowExprNode>()) {
    name = w->name;
    idx = w->idx;
  } else if (const ReadNode* r = e.as<ReadNode>()) {
    name = r->name;
    for (const Expr& i : r->idx) idx.push_back(WAccess::point(i));
  } else {
    rw::fail(reason::kArgExpression, at,
             "expected a window of a buffer such as 'A[i, 0:16]', got '" + text + "'");
  }
  bool found = false;
  for (const ScopeVar& v : rw::scope_at(at))
    if (v.sym == name) {
      buf_type = v.type;
      found = true;
    }
  if (!found || !buf_type.is_data())
    rw::fail(reason::kArgExpression, at,
             "'" + name.name() + "' in '" + text + "' is not a data buffer");
  if (const ReadNode* r = e.as<ReadNode>(); r && r->idx.empty() && buf_type.is_tensor_or_window())
    for (const Expr& d : buf_type.shape) idx.push_back(WAccess::interval(rw::int_const(0), d));
  if (static_cast<int>(idx.size()) != buf_type.rank())
    rw::fail(reason::kArgExpression, at,
             "the window '" + text + "' has " + std::to_string(idx.size()) + " indices but '" +
                 name.name() + "' has " + std::to_string(buf_type.rank()) + " dimensions");
  return WindowExprNode::make(name, elem, std::move(idx), e.srcinfo());
}

// Every window expression of `buf` in the block must keep the staged window's point
// dimensions as points (they disappear in the staged buffer).
void check_block_windows(const Cursor& at, const Block& b, const Expr& win_e) {
  const WindowExprNode& win = *win_e.as<WindowExprNode>();
  std::string bad;  // the first window spanning a dimension the staged window fixes
  for_each_expr(b, [&](const Expr& e) {
    const WindowExprNode* n = e.as<WindowExprNode>();
    if (n && n->name == win.name)
      for (size_t d = 0; d < n->idx.size() && d < win.idx.size(); ++d)
        if (n->idx[d].is_interval && !win.idx[d].is_interval && bad.empty()) bad = to_string(e);
  });
  if (!bad.empty())
    rw::fail(reason::kBufferLayoutUse, at,
             "the window '" + bad + "' spans dimensions that the staged window '" +
                 to_string(win_e) + "' fixes to a point");
}

// Another name in the block for memory `buf` shares, whose accesses would bypass the staged
// copy: a window of `buf` defined before the block (the block's own windows of `buf` are
// rewritten with it), or, when `buf` is itself a window, its root buffer or any other window of
// that root that is not a window of `buf`. Returns {name, true when it is a window of buf}.
std::optional<std::pair<Sym, bool>> bypassing_alias(const Proc& p, const Block& b, const Sym& buf) {
  const WindowAliases windows = WindowAliases::of_proc(p);
  const Sym root = windows.root(buf);
  std::set<Sym> defined_inside;
  for (const Stmt& s : b)
    if (const WindowStmtNode* w = s.as<WindowStmtNode>()) defined_inside.insert(w->name);
  // The root, then its windows in symbol order (the order this check has always reported in).
  std::vector<Sym> names = windows.names_of(root);
  std::sort(names.begin() + 1, names.end());
  for (const Sym& name : names) {
    if (name == buf || !rw::buffer_uses(b, name).any()) continue;
    std::vector<Sym> c = windows.chain(name);
    bool of_buf = std::find(c.begin(), c.end(), buf) != c.end();
    if (of_buf && defined_inside.count(name)) continue;
    return std::make_pair(name, of_buf);
  }
  return std::nullopt;
}

// Where the window does not cover the whole block: the accesses of `buf` in the block
// (statements [lo, hi) of list `path`) that may stay on `buf` because each is proved to touch no
// element of the window where it stands, or nullopt when some access is neither proved outside
// nor proved inside. An element access (a read, or the target of an assignment or reduction) is
// asked about alone, as the store `buf[idx] = 0` at its place; a statement forming a window of
// `buf` or passing it to a call must be inside as a whole. A node that sits at several places
// (rewrites share unchanged subtrees) stays on `buf` only when every place of it is outside.
std::optional<std::set<const void*>> accesses_outside(const Proc& p, const BlockPath& path, int lo,
                                                      int hi, const Expr& win_e, const Sym& buf,
                                                      ScalarKind elem) {
  std::set<const void*> out, inside;
  bool unknown = false;
  auto classify = [&](const checker::Context& here, const void* node, const std::vector<Expr>& idx,
                      const SrcInfo& src) {
    Block probe{AssignNode::make(buf, elem, idx, rw::int_const(0, src), src)};
    if (checker::window_disjoint(here, win_e, probe).proved())
      out.insert(node);
    else if (checker::window_covers(here, win_e, probe).proved())
      inside.insert(node);
    else
      unknown = true;
  };
  std::function<void(const BlockPath&, int, int)> walk = [&](const BlockPath& at, int from,
                                                             int to) {
    const Block& list = block_at(p.body(), at);
    for (int k = from; k < to && !unknown; ++k) {
      const Stmt& s = list[static_cast<size_t>(k)];
      rw::BufferUses u = rw::buffer_uses(s, buf);
      if (!u.any()) continue;
      // The reads a loop's bounds or an if's condition make (data conditions, x[i] > m) are
      // accesses of the statement itself, rewritten like the others.
      auto header_reads = [&](const Expr& e) {
        const checker::Context here = checker::Context::at(p, at, k);
        for_each_expr(e, [&](const Expr& x) {
          if (const ReadNode* n = x.as<ReadNode>(); n && n->name == buf)
            classify(here, n, n->idx, s.srcinfo());
        });
      };
      if (const ForNode* f = s.as<ForNode>()) {
        header_reads(f->lo);
        header_reads(f->hi);
        BlockPath inner = at;
        inner.push_back({k, BlockField::Body});
        walk(inner, 0, static_cast<int>(f->body.size()));
        continue;
      }
      if (const IfNode* i = s.as<IfNode>()) {
        header_reads(i->cond);
        for (BlockField field : {BlockField::Body, BlockField::Orelse}) {
          BlockPath inner = at;
          inner.push_back({k, field});
          walk(inner, 0,
               static_cast<int>((field == BlockField::Body ? i->body : i->orelse).size()));
        }
        continue;
      }
      checker::Context here = checker::Context::at(p, at, k);
      if (u.window || u.whole || u.stride || !(s.is<AssignNode>() || s.is<ReduceNode>())) {
        unknown = unknown || !checker::window_covers(here, win_e, {s}).proved();
        continue;
      }
      std::vector<const ReadNode*> reads;  // of buf, in s
      for_each_expr(s, [&](const Expr& e) {
        if (const ReadNode* n = e.as<ReadNode>(); n && n->name == buf) reads.push_back(n);
      });
      for (const ReadNode* r : reads) classify(here, r, r->idx, s.srcinfo());
      if (const AssignNode* a = s.as<AssignNode>(); a && a->name == buf)
        classify(here, a, a->idx, s.srcinfo());
      if (const ReduceNode* r = s.as<ReduceNode>(); r && r->name == buf)
        classify(here, r, r->idx, s.srcinfo());
    }
  };
  walk(path, lo, hi);
  if (unknown) return std::nullopt;
  for (const void* n : inside) out.erase(n);
  return out;
}

// Precision: with accum = true the reductions into the window are summed in the staged buffer
// (of `buf`'s type), from 0, and added to `buf` once — `x += e1; x += e2` becomes
// `xt = 0; xt += e1; xt += e2; x += xt` — which regroups the sum. Each addend is computed as
// before; the sum regroups when core's reductions_regroup says so (floats as reals, as in Exo;
// integers modulo 2^bits), not for a float addend into an integer buffer (`X_i8 += 0.5 * a` would
// truncate each staged sum instead of each original one). Reductions that stay on `buf` (those
// in `outside`) are not regrouped.
void require_addends_regroup(const Cursor& blk, const Block& stmts, const Sym& buf, ScalarKind elem,
                             const std::set<const void*>& outside) {
  std::function<void(const Block&)> walk = [&](const Block& b) {
    for (const Stmt& s : b) {
      if (const ForNode* f = s.as<ForNode>()) walk(f->body);
      if (const IfNode* i = s.as<IfNode>()) {
        walk(i->body);
        walk(i->orelse);
      }
      const ReduceNode* r = s.as<ReduceNode>();
      if (!r || r->name != buf || outside.count(r) > 0 || reductions_regroup(elem, r->rhs))
        continue;
      rw::fail(reason::kPrecisionRegroup, blk,
               "with accum = true the reductions into '" + buf.name() +
                   "' are summed apart and added once, but the float addend '" + to_string(r->rhs) +
                   "' is truncated by each reduction into '" + buf.name() + "' (" +
                   to_string(elem) + "): the sums would truncate at other points");
    }
  };
  walk(stmts);
}

}  // namespace

Proc stage_mem(const Proc& p, const CursorLike& block, const std::string& win_expr,
               const std::string& new_name, const StageMemOptions& opts) {
  return rw::run_op("stage_mem", [&]() -> Proc {
    // 1. Arguments.
    Cursor blk = rw::resolve_block(p, block);
    const Block stmts = blk.stmts();
    const BlockPath path = blk.loc().block;
    const int lo = blk.loc().lo, hi = blk.loc().hi;
    Expr parsed = rw::parse_user_expr(blk, win_expr, /*allow_window=*/true);
    Type buf_type;
    Expr win_e = as_window(blk, parsed, win_expr, buf_type);
    const WindowExprNode& win = *win_e.as<WindowExprNode>();
    const Sym buf = win.name;
    const ScalarKind elem = buf_type.base;
    Sym new_sym = rw::fresh_name(p, new_name, blk);

    // 2. Checks.
    rw::BufferUses uses = rw::buffer_uses(stmts, buf);
    if (auto alias = bypassing_alias(p, stmts, buf)) {
      const std::string other = alias->first.name();
      if (alias->second)
        rw::fail(reason::kBufferAliased, blk,
                 "the block accesses '" + buf.name() + "' through the window '" + other +
                     "' defined before it; inline_window it first");
      rw::fail(reason::kBufferAliased, blk,
               "the block also accesses '" + other + "', which shares memory with the window '" +
                   buf.name() + "': those accesses would bypass the staged copy");
    }
    // A window of the buffer defined in the block and used after it would outlive the staging.
    for (const Stmt& s : stmts)
      if (const WindowStmtNode* w = s.as<WindowStmtNode>(); w && rw::buffer_uses(s, buf).any())
        for (size_t k = hi; k < blk.list().size(); ++k)
          if (rw::buffer_uses(blk.list()[k], w->name).any())
            rw::fail(reason::kScopeEscapes, blk,
                     "the window '" + w->name.name() + "' of '" + buf.name() +
                         "' defined in the block is used after it");
    if (!uses.any())
      rw::fail(reason::kBufferNotAccessed, blk,
               "'" + buf.name() + "' is not accessed in the block, nothing to stage");
    if (uses.whole)
      rw::fail(reason::kBufferLayoutUse, blk,
               "the block passes all of '" + buf.name() +
                   "' to a call; stage only element or window accesses");
    if (uses.stride)
      rw::fail(reason::kBufferLayoutUse, blk,
               "the block takes a stride of '" + buf.name() + "', which staging would change");
    if (opts.accum && (uses.read || uses.write || uses.window))
      rw::fail(reason::kStmtForm, blk,
               "with accum = true the block may only reduce (+=) into '" + buf.name() +
                   "', but it also reads or assigns it");
    check_block_windows(blk, stmts, win_e);
    checker::Context ctx = checker::Context::at(p, stmts);
    for (const WAccess& a : win.idx)
      if (a.is_interval)
        rw::require_proved(blk, checker::always_true(ctx, rw::mk_cmp(BinOpKind::Le, a.lo, a.hi)),
                           [&] {
                             return "the window '" + to_string(win_e) +
                                    "' is not empty (lo <= hi in every dimension)";
                           });
    // Statements whose accesses of x all lie outside the window stay on x (as in Exo); every
    // other access must lie inside it.
    std::set<const void*> outside;
    checker::Answer covers = checker::window_covers(ctx, win_e, stmts);
    if (!covers.proved())
      if (auto split = accesses_outside(p, path, lo, hi, win_e, buf, elem)) {
        outside = std::move(*split);
        covers = checker::Answer::proof();
      }
    rw::require_proved(blk, covers, [&] {
      return "the window '" + to_string(win_e) + "' covers every access of '" + buf.name() +
             "' in the block (or each access lies wholly inside or wholly outside it)";
    });
    if (opts.accum) require_addends_regroup(blk, stmts, buf, elem, outside);
    rw::require_unchanged(blk, ctx, win_e, stmts, [&] {
      return "the window '" + to_string(win_e) + "', evaluated before, inside and after the block,";
    });
    // Which dimensions need guards in the load and store (the window may reach outside).
    std::vector<bool> guard_lo(win.idx.size(), false), guard_hi(win.idx.size(), false);
    // A point index is guarded too: the load runs even where the block's accesses do not (a
    // loop of no iterations, an untaken branch), so it must not read outside x.
    for (size_t d = 0; d < win.idx.size(); ++d) {
      const WAccess& a = win.idx[d];
      Expr hi_d = a.is_interval ? a.hi : rw::simplified_add(a.lo, rw::int_const(1));
      guard_lo[d] =
          !checker::always_true(ctx, rw::mk_cmp(BinOpKind::Le, rw::int_const(0), a.lo)).proved();
      guard_hi[d] =
          !checker::always_true(ctx, rw::mk_cmp(BinOpKind::Le, hi_d, buf_type.shape[d])).proved();
    }
    for (const WAccess& a : win.idx)
      if (a.is_interval)
        rw::require_size_expr(blk, rw::simplified_sub(a.hi, a.lo), "the window's extent");
    // The load is needed unless the block first overwrites the whole (one-element) window.
    bool all_points = std::none_of(win.idx.begin(), win.idx.end(),
                                   [](const WAccess& a) { return a.is_interval; });
    bool overwritten = false;
    if (all_points && outside.empty() && !uses.read && !uses.reduce && !uses.window) {
      for (const Stmt& s : stmts) {
        if (!rw::buffer_uses(s, buf).any()) continue;
        const AssignNode* a = s.as<AssignNode>();
        overwritten = a && a->name == buf;
        break;
      }
    }
    const bool load = opts.accum || uses.read || uses.reduce || uses.window || !overwritten;
    const bool store = uses.write || uses.reduce || uses.window;

    // 3. The staged buffer and the rewritten block.
    std::vector<Expr> shape;
    std::vector<Expr> los;  // per interval dimension
    for (const WAccess& a : win.idx)
      if (a.is_interval) {
        shape.push_back(rw::simplified_sub(a.hi, a.lo));
        los.push_back(a.lo);
      }
    SrcInfo src = stmts.front().srcinfo();
    Type new_type = shape.empty() ? Type(elem) : Type(elem, shape);
    Stmt alloc = AllocNode::make(new_sym, new_type, rw::mem_of(p, buf), src);

    rw::AccessMap m;
    m.buf = buf;
    m.new_name = new_sym;
    m.idx = [&win](const std::vector<Expr>& idx) {
      std::vector<Expr> out;
      for (size_t d = 0; d < idx.size(); ++d)
        if (win.idx[d].is_interval) out.push_back(rw::simplified_sub(idx[d], win.idx[d].lo));
      return out;
    };
    m.window = [&win](const std::vector<WAccess>& idx) {
      std::vector<WAccess> out;
      for (size_t d = 0; d < idx.size(); ++d) {
        if (!win.idx[d].is_interval) continue;
        const Expr& off = win.idx[d].lo;
        out.push_back(idx[d].is_interval ? WAccess::interval(rw::simplified_sub(idx[d].lo, off),
                                                             rw::simplified_sub(idx[d].hi, off))
                                         : WAccess::point(rw::simplified_sub(idx[d].lo, off)));
      }
      return out;
    };
    m.leave = [&outside](const void* access) { return outside.count(access) > 0; };
    Block body = rw::map_accesses(stmts, m);

    // 4. Load and store nests over the window.
    std::vector<std::string> taken;
    std::vector<Sym> iters;
    for (size_t k = 0; k < shape.size(); ++k)
      iters.push_back(rw::fresh_iter(p, "i" + std::to_string(k), taken));
    std::vector<Expr> new_idx, buf_idx;
    std::vector<Expr> guards;
    for (size_t d = 0, k = 0; d < win.idx.size(); ++d) {
      if (!win.idx[d].is_interval) {
        const Expr& at = win.idx[d].lo;
        buf_idx.push_back(at);
        if (guard_lo[d]) guards.push_back(rw::mk_cmp(BinOpKind::Le, rw::int_const(0), at, src));
        if (guard_hi[d]) guards.push_back(rw::mk_cmp(BinOpKind::Lt, at, buf_type.shape[d], src));
        continue;
      }
      Expr it = rw::index_var(iters[k], src);
      new_idx.push_back(it);
      Expr at = rw::simplified_add(win.idx[d].lo, it);
      buf_idx.push_back(at);
      if (guard_lo[d]) guards.push_back(rw::mk_cmp(BinOpKind::Le, rw::int_const(0), at, src));
      if (guard_hi[d]) guards.push_back(rw::mk_cmp(BinOpKind::Lt, at, buf_type.shape[d], src));
      ++k;
    }
    auto nest = [&](Stmt inner, bool guarded) {
      if (guarded && !guards.empty()) {
        Expr cond = guards[0];
        for (size_t g = 1; g < guards.size(); ++g) cond = rw::mk_and(cond, guards[g], src);
        inner = IfNode::make(cond, {inner}, {}, src);
      }
      for (size_t k = iters.size(); k-- > 0;)
        inner = ForNode::make(iters[k], rw::int_const(0), shape[k], {inner}, LoopMode::Seq, src);
      return inner;
    };
    Expr new_read = ReadNode::make(new_sym, new_idx, Type(elem), src);
    Expr buf_read = ReadNode::make(buf, buf_idx, Type(elem), src);
    Block before{alloc}, after;
    if (load) {
      if (opts.accum) {
        Expr z =
            is_float(elem) ? ConstNode::make_float(0.0, ScalarKind::R, src) : rw::int_const(0, src);
        before.push_back(nest(AssignNode::make(new_sym, elem, new_idx, z, src), false));
      } else {
        before.push_back(nest(AssignNode::make(new_sym, elem, new_idx, buf_read, src), true));
      }
    }
    if (store) {
      Stmt st = opts.accum ? ReduceNode::make(buf, elem, buf_idx, new_read, src)
                           : AssignNode::make(buf, elem, buf_idx, new_read, src);
      after.push_back(nest(st, true));
    }

    // 5. The new proc; the block's statements shift past the allocation and load.
    rw::Edit edit(p);
    edit.surround(path, lo, hi, before, body, after);
    rw::require_layout_observations_kept(blk, p, edit.candidate(), {{buf}, {buf, new_sym}, {}});
    return edit.done();
  });
}

}  // namespace exocpp
