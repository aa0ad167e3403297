// can_lift_alloc: may an allocation inside a loop body move in front of the loop? Asks whether
// a value written into the buffer by one iteration can be read by a later one.
#include "checker/conflict.h"
#include "checker/queries.h"
#include "core/uses.h"

namespace exocpp::checker {

namespace {

// An unconditional write nest `for v1..: for vk..: t[idx] = ...` at top-level statement `top`
// of the loop body: every later read in the same iteration of a location it covers sees it.
struct Kill {
  int top;
  std::vector<LoopRange> loops;
  std::vector<Expr> idx;
};

void collect_kills(const Stmt& s, const Sym& buf, std::vector<LoopRange>& loops, int top,
                   std::vector<Kill>& out) {
  if (const AssignNode* a = s.as<AssignNode>()) {
    if (a->name == buf) out.push_back(Kill{top, loops, a->idx});
  } else if (const ForNode* f = s.as<ForNode>()) {
    loops.push_back(LoopRange{f->iter, f->lo, f->hi, f});
    for (const Stmt& b : f->body) collect_kills(b, buf, loops, top, out);
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
      collect_kills(loop->body[k], alloc->name, loops, static_cast<int>(k), kills);
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
    spec.second_extra = [&kills](Encoder& e, const Access& y, const Encoder::Enc& ey) {
      z3::expr f = e.ctx().bool_val(true);
      for (const Kill& k : kills)
        if (k.top < y.top) f = f && !covers(e, k, ey.idx);
      return f;
    };
    spec.reason = "a value of " + t.name() + " written by one iteration of loop " +
                  loop->iter.name() + " may be read by a later one";
    return find_conflict(enc, ctx, spec);
  });
}

}  // namespace exocpp::checker
