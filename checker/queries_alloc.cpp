// can_lift_alloc: may an allocation inside a loop body move in front of the loop? Asks whether
// a value written into the buffer by one iteration can be read by a later one. can_fold_dim:
// may a dimension of a buffer become a circular buffer?
#include "checker/conflict.h"
#include "checker/queries.h"
#include "core/uses.h"

namespace exocpp::checker {

namespace {

// An unconditional write nest `for v1..: for vk..: t[idx] = ...` inside the loop body, reached
// through loops only: `steps[k]` is the position of the statement at depth k in its block
// (steps[0] the top-level statement of the loop body, the last the assignment), `loops` the
// loops on the way. A read later in the same iteration of the lifted loop, in a later statement
// of a block that holds the nest, sees the nest's write of every location it covers.
struct Kill {
  std::vector<int> steps;
  std::vector<LoopRange> loops;
  std::vector<Expr> idx;
};

void collect_kills(const Stmt& s, const Sym& buf, std::vector<LoopRange>& loops,
                   std::vector<int>& steps, std::vector<Kill>& out) {
  if (const AssignNode* a = s.as<AssignNode>()) {
    if (a->name == buf) out.push_back(Kill{steps, loops, a->idx});
  } else if (const ForNode* f = s.as<ForNode>()) {
    loops.push_back(LoopRange{f->iter, f->lo, f->hi, f});
    for (size_t k = 0; k < f->body.size(); ++k) {
      steps.push_back(static_cast<int>(k));
      collect_kills(f->body[k], buf, loops, steps, out);
      steps.pop_back();
    }
    loops.pop_back();
  }
}

bool mentions_any(const Expr& e, const std::vector<LoopRange>& loops) {
  for (const LoopRange& l : loops)
    if (mentions(e, l.iter)) return true;
  return false;
}

// Matches `v`, `v + e`, `e + v` or `v - e` with v one of the kill's iterators and e free of
// them; `off` is the offset (so v = index - off).
bool match_var_offset(const Expr& e, const std::vector<LoopRange>& loops, size_t& which,
                      Expr& off) {
  auto var_of = [&](const Expr& x) -> int {
    const ReadNode* r = x.as<ReadNode>();
    if (!r || !r->idx.empty()) return -1;
    for (size_t k = 0; k < loops.size(); ++k)
      if (loops[k].iter == r->name) return static_cast<int>(k);
    return -1;
  };
  if (int k = var_of(e); k >= 0) {
    which = static_cast<size_t>(k);
    off = ConstNode::make_int(0);
    return true;
  }
  const BinOpNode* b = e.as<BinOpNode>();
  if (!b) return false;
  if (b->op == BinOpKind::Add) {
    if (int k = var_of(b->lhs); k >= 0 && !mentions_any(b->rhs, loops)) {
      which = static_cast<size_t>(k);
      off = b->rhs;
      return true;
    }
    if (int k = var_of(b->rhs); k >= 0 && !mentions_any(b->lhs, loops)) {
      which = static_cast<size_t>(k);
      off = b->lhs;
      return true;
    }
  }
  if (b->op == BinOpKind::Sub) {
    if (int k = var_of(b->lhs); k >= 0 && !mentions_any(b->rhs, loops)) {
      which = static_cast<size_t>(k);
      off = USubNode::make(b->rhs);
      return true;
    }
  }
  return false;
}

// The condition "location `loc` is written by `kill`", or false when the kill's indices are
// not of the invertible form (then it covers nothing, which is the conservative answer).
z3::expr covers(Encoder& enc, const Kill& kill, const std::vector<z3::expr>& loc) {
  z3::context& c = enc.ctx();
  if (kill.idx.size() != loc.size()) return c.bool_val(false);
  for (const LoopRange& l : kill.loops)
    if (mentions_any(l.lo, kill.loops) || mentions_any(l.hi, kill.loops)) return c.bool_val(false);
  std::vector<bool> used(kill.loops.size(), false);
  z3::expr f = c.bool_val(true);
  for (size_t d = 0; d < loc.size(); ++d) {
    // An index naming none of the kill's iterators is one value throughout the iteration (a
    // double buffer's `i % 2`), provided it reads no data or config, which could change
    // between the write and the read.
    if (!mentions_any(kill.idx[d], kill.loops)) {
      if (uses_of(kill.idx[d]).reads_data) return c.bool_val(false);
      f = f && loc[d] == enc.num(kill.idx[d]);
      continue;
    }
    size_t k = 0;
    Expr off;
    if (!match_var_offset(kill.idx[d], kill.loops, k, off) || used[k]) return c.bool_val(false);
    used[k] = true;
    z3::expr v = loc[d] - enc.num(off);
    f = f && enc.num(kill.loops[k].lo) <= v && v < enc.num(kill.loops[k].hi);
  }
  for (size_t k = 0; k < kill.loops.size(); ++k)
    if (!used[k]) f = f && enc.num(kill.loops[k].lo) < enc.num(kill.loops[k].hi);
  return f;
}

// The condition "`kill` wrote location `loc` before read `y` (encoded as `ey`), in the same
// iteration of the lifted loop", or false when the kill does not stand before the read.
// The kill and the read share the loops down to the block where their paths part; there the
// kill's statement must come first. The shared loops' iterators take the read's values, and
// the kill's own loops below are covered as in `covers`.
z3::expr covers_before(Encoder& enc, const Kill& kill, const Access& y, const Encoder::Enc& ey,
                       const Sym& lifted) {
  z3::context& c = enc.ctx();
  size_t depth = 0;  // steps shared by the kill and the read: each one the same loop
  while (depth + 1 < kill.steps.size() && depth < y.path.size() &&
         kill.steps[depth] == y.path[depth].index && y.path[depth].loop >= 0 &&
         y.loops[static_cast<size_t>(y.path[depth].loop)].node == kill.loops[depth].node)
    ++depth;
  if (depth >= y.path.size() || kill.steps[depth] >= y.path[depth].index) return c.bool_val(false);
  std::vector<std::pair<Sym, z3::expr>> shared;
  for (size_t k = 0; k < depth; ++k) {
    // A shared loop that reuses the lifted loop's symbol or another shared loop's would need
    // its binding restored afterwards; such a kill conservatively covers nothing.
    const Sym& iter = kill.loops[k].iter;
    if (iter == lifted) return c.bool_val(false);
    for (const auto& [other, value] : shared)
      if (other == iter) return c.bool_val(false);
    shared.emplace_back(iter, ey.iters.at(static_cast<size_t>(y.path[k].loop)));
  }
  Kill below{{}, {kill.loops.begin() + static_cast<long>(depth), kill.loops.end()}, kill.idx};
  for (const auto& [sym, value] : shared) enc.bind(sym, value);
  z3::expr f = covers(enc, below, ey.idx);
  for (const auto& [sym, value] : shared) enc.unbind(sym);
  return f;
}

}  // namespace

Answer can_lift_alloc(const Context& ctx, const Stmt& loop_stmt, const Stmt& alloc_stmt) {
  const ForNode* loop = loop_stmt.as<ForNode>();
  const AllocNode* alloc = alloc_stmt.as<AllocNode>();
  EXOCPP_ASSERT(loop && alloc, "can_lift_alloc: expects a loop and an allocation");
  bool top_level = false;
  for (const Stmt& s : loop->body) top_level = top_level || s.same_as(alloc_stmt);
  EXOCPP_ASSERT(top_level,
                "can_lift_alloc: the allocation is not a top-level statement of the loop body");
  for (const Expr& d : alloc->type.shape)
    if (mentions(d, loop->iter))
      return Answer::refutation(
          "the shape of " + alloc->name.name() + " depends on " + loop->iter.name(), "",
          alloc_stmt.srcinfo());
  return guarded([&]() -> Answer {
    Effects body = effects_of(ctx, loop->body);
    std::vector<Kill> kills;
    for (size_t k = 0; k < loop->body.size(); ++k) {
      std::vector<LoopRange> loops;
      std::vector<int> steps = {static_cast<int>(k)};
      collect_kills(loop->body[k], alloc->name, loops, steps, kills);
    }
    Encoder enc(ctx);
    z3::expr lo = enc.num(loop->lo), hi = enc.num(loop->hi);
    z3::context& c = enc.ctx();
    std::string base = loop->iter.name() + "!" + std::to_string(loop->iter.id()) + "@";
    z3::expr i1 = c.int_const((base + "1").c_str()), i2 = c.int_const((base + "2").c_str());
    auto label = [name = loop->iter.name()](const z3::expr& v) {
      return
          [name, v](const z3::model& m) { return "iteration " + name + " = " + model_value(m, v); };
    };
    const Sym& t = alloc->name;
    ConflictSpec spec;
    spec.first = Side{&body, "x", {{loop->iter, i1}}, label(i1)};
    spec.second = Side{&body, "y", {{loop->iter, i2}}, label(i2)};
    spec.extra = lo <= i1 && i1 < i2 && i2 < hi;
    spec.skip_private = false;
    spec.relevant = [&t](const Access& x, const Access& y) {
      return !x.is_config() && x.buffer == t && y.buffer == t && !y.is_config() &&
             x.kind != AccessKind::Read && y.kind != AccessKind::Write;
    };
    spec.second_extra = [&kills, loop](Encoder& e, const Access& y, const Encoder::Enc& ey) {
      z3::expr f = e.ctx().bool_val(true);
      for (const Kill& k : kills) f = f && !covers_before(e, k, y, ey, loop->iter);
      return f;
    };
    spec.reason = "a value of " + t.name() + " written by one iteration of loop " +
                  loop->iter.name() + " may be read by a later one";
    return find_conflict(enc, ctx, spec);
  });
}

namespace {

// The condition "access `b` happens before access `a`" for instances encoded as `eb` and `ea`,
// comparing their positions from step k on (equal before k): statements of one block in order,
// iterations of a shared loop in order, never both branches of one if. Within one statement
// its reads come before its write; two reads of it count as simultaneous, so as either order.
z3::expr happens_before(z3::context& c, const Access& b, const Encoder::Enc& eb, const Access& a,
                        const Encoder::Enc& ea, size_t k = 0) {
  if (k >= b.path.size() || k >= a.path.size()) return c.bool_val(b.kind == AccessKind::Read);
  const AccessStep& sb = b.path[k];
  const AccessStep& sa = a.path[k];
  if (sb.else_branch != sa.else_branch) return c.bool_val(false);
  if (sb.index != sa.index) return c.bool_val(sb.index < sa.index);
  if (sb.loop < 0 || sa.loop < 0) return happens_before(c, b, eb, a, ea, k + 1);
  const z3::expr& ib = eb.iters.at(static_cast<size_t>(sb.loop));
  const z3::expr& ia = ea.iters.at(static_cast<size_t>(sa.loop));
  return ib < ia || (ib == ia && happens_before(c, b, eb, a, ea, k + 1));
}

std::string describe_access(const Access& a, const Encoder::Enc& e, const z3::model& m) {
  std::vector<std::string> idx;
  for (const z3::expr& i : e.idx) idx.push_back(model_value(m, i));
  std::string s = std::string(to_string(a.kind)) + " " + location_text(a, idx);
  std::string inner;
  for (size_t k = 0; k < e.iters.size(); ++k)
    inner += (k ? ", " : "") + a.loops[k].iter.name() + " = " + model_value(m, e.iters[k]);
  if (!inner.empty()) s += " (" + inner + ")";
  return s + at_line(a.srcinfo);
}

}  // namespace

Answer can_fold_dim(const Context& ctx, const Block& code, const Sym& buf, int dim, int64_t size) {
  return guarded([&]() -> Answer {
    Effects eff = effects_of(ctx, code);
    Encoder enc(ctx);
    z3::context& c = enc.ctx();
    z3::expr facts = enc.facts(ctx);
    struct Encoded {
      const Access* access;
      Encoder::Enc earlier, later;  // as the earlier and as the later access of a pair
    };
    std::vector<Encoded> xs;
    for (size_t k = 0; k < eff.accesses.size(); ++k) {
      const Access& a = eff.accesses[k];
      if (a.is_config() || a.buffer != buf) continue;
      if (a.through_call)
        return Answer::unknown_because(buf.name() + " is passed to a call" + at_line(a.srcinfo) +
                                       ", whose accesses are not ordered here");
      if (static_cast<int>(a.idx.size()) <= dim)
        return Answer::unknown_because("an access of " + buf.name() + " without dimension " +
                                       std::to_string(dim));
      xs.push_back(Encoded{&a, enc.access(a, "e" + std::to_string(k)),
                           enc.access(a, "l" + std::to_string(k))});
    }
    std::vector<std::pair<std::pair<size_t, size_t>, z3::expr>> pairs;
    for (size_t i = 0; i < xs.size(); ++i)
      for (size_t j = 0; j < xs.size(); ++j) {
        const Encoder::Enc& b = xs[i].earlier;
        const Encoder::Enc& a = xs[j].later;
        z3::expr f = b.when && a.when && happens_before(c, *xs[i].access, b, *xs[j].access, a) &&
                     b.idx[static_cast<size_t>(dim)] - a.idx[static_cast<size_t>(dim)] >=
                         c.int_val(static_cast<int64_t>(size));
        pairs.emplace_back(std::make_pair(i, j), f);
      }
    if (pairs.empty()) return Answer::proof();
    z3::expr any = c.bool_val(false);
    for (const auto& p : pairs) any = any || p.second;
    std::optional<z3::model> model;
    if (auto answer = decide(enc, facts && any, model)) return *answer;
    const std::string reason = "an access of " + buf.name() + " touches an index of dimension " +
                               std::to_string(dim) + " " + std::to_string(size) +
                               " or more below one an earlier access touched, whose slot it shares";
    const z3::model& m = *model;
    for (const auto& [ij, f] : pairs) {
      if (!m.eval(f, true).is_true()) continue;
      const Encoded& b = xs[ij.first];
      const Encoded& a = xs[ij.second];
      std::string cex = describe_access(*b.access, b.earlier, m) + ", then " +
                        describe_access(*a.access, a.later, m);
      std::string vals = context_values(enc, m);
      if (!vals.empty()) cex += "; with " + vals;
      return Answer::refutation(reason, cex, a.access->srcinfo);
    }
    return Answer::refutation(reason, "(no model)");
  });
}

}  // namespace exocpp::checker
