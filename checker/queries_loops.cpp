// Dependence queries: statements commuting, loop iterations reordering or running in parallel,
// loop interchange, fission, fusion and idempotent loop bodies.
#include "checker/conflict.h"
#include "checker/queries.h"
#include "checker/queries_config.h"
#include "core/uses.h"

namespace exocpp::checker {

namespace {

const ForNode& as_loop(const Stmt& s, const char* query) {
  const ForNode* f = s.as<ForNode>();
  EXOCPP_ASSERT(f != nullptr, std::string(query) + ": the statement is not a loop");
  return *f;
}

// "iteration i = 3" for the variable `v` of loop iterator `iter`.
std::function<std::string(const z3::model&)> iteration_label(const Sym& iter, const z3::expr& v,
                                                             const std::string& suffix = "") {
  return [name = iter.name(), v, suffix](const z3::model& m) {
    return "iteration " + name + " = " + model_value(m, v) + suffix;
  };
}

std::function<std::string(const z3::model&)> fixed_label(std::string s) {
  return [s](const z3::model&) { return s; };
}

// A buffer or window one block defines that another uses; invalid Sym if none.
Sym defined_then_used(const Effects& def, const Effects& use) {
  for (const Sym& s : def.allocs)
    if (use.uses(s)) return s;
  for (const Sym& s : def.windows)
    if (use.uses(s)) return s;
  return Sym();
}

// The loop-carried search: two iterations i1 < i2 of `loop` whose bodies conflict.
Answer loop_carried(const Context& ctx, const ForNode& loop, bool reduces_commute,
                    const std::string& reason) {
  return guarded([&]() -> Answer {
    Encoder enc(ctx);
    Effects body = effects_of(ctx, loop.body);
    const std::string var = loop.iter.name() + "!" + std::to_string(loop.iter.id());
    // A bound the encoder cannot express (a config field, whose value it does not model) is any
    // integer: iterations that conflict for no range conflict for none of them.
    auto bound = [&](const Expr& e, const char* tag) {
      try {
        return enc.num(e);
      } catch (const Unsupported&) {
        return enc.ctx().int_const((var + "@" + tag).c_str());
      }
    };
    z3::expr lo = bound(loop.lo, "lo"), hi = bound(loop.hi, "hi");
    z3::expr i1 = enc.ctx().int_const((var + "@1").c_str());
    z3::expr i2 = enc.ctx().int_const((var + "@2").c_str());
    ConflictSpec spec;
    spec.first = Side{&body, "x", {{loop.iter, i1}}, iteration_label(loop.iter, i1)};
    spec.second = Side{&body, "y", {{loop.iter, i2}}, iteration_label(loop.iter, i2)};
    spec.extra = lo <= i1 && i1 < i2 && i2 < hi;
    spec.reduces_commute = reduces_commute;
    spec.reason = reason;
    return find_conflict(enc, ctx, spec);
  });
}

}  // namespace

Answer stmts_commute(const Context& ctx, const Block& a, const Block& b) {
  return guarded([&]() -> Answer {
    Effects ea = effects_of(ctx, a), eb = effects_of(ctx, b);
    if (Sym s = defined_then_used(ea, eb); s.valid())
      return Answer::refutation(
          "the second block uses `" + s.name() + "`, which the first block defines", "",
          b.empty() ? SrcInfo{} : b.front().srcinfo());
    Encoder enc(ctx);
    ConflictSpec spec;
    spec.first = Side{&ea, "a", {}, fixed_label("the first block")};
    spec.second = Side{&eb, "b", {}, fixed_label("the second block")};
    spec.reason = "the blocks touch the same location and one of them writes it";
    return find_conflict(enc, ctx, spec);
  });
}

Answer stmts_commute(const Context& ctx, const Stmt& a, const Stmt& b) {
  return stmts_commute(ctx, Block{a}, Block{b});
}

Answer loop_iterations_commute(const Context& ctx, const Stmt& loop) {
  const ForNode& f = as_loop(loop, "loop_iterations_commute");
  return loop_carried(ctx, f, true, "loop " + f.iter.name() + " carries a dependence");
}

Answer loop_is_parallelizable(const Context& ctx, const Stmt& loop) {
  const ForNode& f = as_loop(loop, "loop_is_parallelizable");
  return loop_carried(
      ctx, f, false,
      "two iterations of loop " + f.iter.name() + " touch the same location and one writes it");
}

Answer loops_can_interchange(const Context& ctx, const Stmt& outer_stmt) {
  const ForNode& outer = as_loop(outer_stmt, "loops_can_interchange");
  const ForNode* inner = outer.body.size() == 1 ? outer.body[0].as<ForNode>() : nullptr;
  if (!inner)
    return Answer::refutation("loop " + outer.iter.name() + " does not hold exactly one loop", "",
                              outer_stmt.srcinfo());
  if (mentions(inner->lo, outer.iter) || mentions(inner->hi, outer.iter))
    return Answer::refutation(
        "the bounds of loop " + inner->iter.name() + " depend on " + outer.iter.name(), "",
        outer.body[0].srcinfo());
  return guarded([&]() -> Answer {
    Encoder enc(ctx);
    Effects body = effects_of(ctx, inner->body);
    z3::context& c = enc.ctx();
    auto copy = [&](const Sym& s, const char* t) {
      return c.int_const((s.name() + "!" + std::to_string(s.id()) + "@" + t).c_str());
    };
    z3::expr i1 = copy(outer.iter, "1"), i2 = copy(outer.iter, "2");
    z3::expr j1 = copy(inner->iter, "1"), j2 = copy(inner->iter, "2");
    z3::expr ilo = enc.num(outer.lo), ihi = enc.num(outer.hi);
    z3::expr jlo = enc.num(inner->lo), jhi = enc.num(inner->hi);
    auto label = [&](const z3::expr& iv, const z3::expr& jv) {
      return [in = outer.iter.name(), jn = inner->iter.name(), iv, jv](const z3::model& m) {
        return "iteration (" + in + " = " + model_value(m, iv) + ", " + jn + " = " +
               model_value(m, jv) + ")";
      };
    };
    ConflictSpec spec;
    spec.first = Side{&body, "x", {{outer.iter, i1}, {inner->iter, j1}}, label(i1, j1)};
    spec.second = Side{&body, "y", {{outer.iter, i2}, {inner->iter, j2}}, label(i2, j2)};
    spec.extra = ilo <= i1 && i1 < i2 && i2 < ihi && jlo <= j2 && j2 < j1 && j1 < jhi;
    spec.reason = "interchanging loops " + outer.iter.name() + " and " + inner->iter.name() +
                  " reverses the order of two conflicting iterations";
    return find_conflict(enc, ctx, spec);
  });
}

Answer can_fission(const Context& ctx, const Stmt& loop_stmt, size_t gap) {
  const ForNode& loop = as_loop(loop_stmt, "can_fission");
  if (gap == 0 || gap >= loop.body.size())
    return Answer::refutation(
        "the gap must lie strictly inside the body of loop " + loop.iter.name(), "",
        loop_stmt.srcinfo());
  Block before(loop.body.begin(), loop.body.begin() + static_cast<long>(gap));
  Block after(loop.body.begin() + static_cast<long>(gap), loop.body.end());
  return guarded([&]() -> Answer {
    Effects ea = effects_of(ctx, before), eb = effects_of(ctx, after);
    if (Sym s = defined_then_used(ea, eb); s.valid())
      return Answer::refutation("`" + s.name() + "` is defined before the gap and used after it",
                                "", after.front().srcinfo());
    // A config field that every iteration sets to one loop-invariant value before the gap
    // reads the same on both sides of the split (Exo's fission check allows it too).
    for (const auto& [cfg, field] : config_fields_settled_before(ctx, loop, before, after, ea, eb))
      for (Effects* e : {&ea, &eb})
        std::erase_if(e->accesses, [&, &cfg = cfg, &field = field](const Access& a) {
          return a.is_config() && a.config == cfg && a.field == field;
        });
    Encoder enc(ctx);
    z3::expr lo = enc.num(loop.lo), hi = enc.num(loop.hi);
    z3::context& c = enc.ctx();
    std::string base = loop.iter.name() + "!" + std::to_string(loop.iter.id()) + "@";
    z3::expr i1 = c.int_const((base + "1").c_str()), i2 = c.int_const((base + "2").c_str());
    ConflictSpec spec;
    // Originally iteration i1's second part runs before iteration i2's first part; after
    // fission every first part runs before every second part.
    spec.first =
        Side{&eb, "b", {{loop.iter, i1}}, iteration_label(loop.iter, i1, " (after the gap)")};
    spec.second =
        Side{&ea, "a", {{loop.iter, i2}}, iteration_label(loop.iter, i2, " (before the gap)")};
    spec.extra = lo <= i1 && i1 < i2 && i2 < hi;
    spec.reason = "fission of loop " + loop.iter.name() + " reorders two conflicting statements";
    return find_conflict(enc, ctx, spec);
  });
}

Answer can_fuse(const Context& ctx, const Stmt& first_stmt, const Stmt& second_stmt) {
  const ForNode& l1 = as_loop(first_stmt, "can_fuse");
  const ForNode& l2 = as_loop(second_stmt, "can_fuse");
  Expr same = BinOpNode::make(BinOpKind::And, BinOpNode::make(BinOpKind::Eq, l1.lo, l2.lo),
                              BinOpNode::make(BinOpKind::Eq, l1.hi, l2.hi));
  Answer bounds = always_true(ctx, same);
  if (bounds.refuted())
    return Answer::refutation("the loops have different bounds", bounds.counterexample,
                              second_stmt.srcinfo());
  if (bounds.unknown()) return bounds;
  return guarded([&]() -> Answer {
    Effects ea = effects_of(ctx, l1.body), eb = effects_of(ctx, l2.body);
    Encoder enc(ctx);
    z3::expr lo = enc.num(l1.lo), hi = enc.num(l1.hi);
    z3::context& c = enc.ctx();
    std::string base = l1.iter.name() + "!" + std::to_string(l1.iter.id()) + "@";
    z3::expr early = c.int_const((base + "1").c_str()), late = c.int_const((base + "2").c_str());
    ConflictSpec spec;
    // Originally all of the first loop runs first; fused, the second loop's iteration `early`
    // runs before the first loop's iteration `late`.
    spec.first =
        Side{&ea, "a", {{l1.iter, late}}, iteration_label(l1.iter, late, " of the first loop")};
    spec.second =
        Side{&eb, "b", {{l2.iter, early}}, iteration_label(l2.iter, early, " of the second loop")};
    spec.extra = lo <= early && early < late && late < hi;
    spec.reason = "fusing the loops reorders two conflicting iterations";
    return find_conflict(enc, ctx, spec);
  });
}

namespace {

// Is running `body` twice the same as running it once? `what` names it in refutations. The
// caller has checked that it does not depend on the loop it comes from.
Answer block_idempotent(const Context& ctx, const Block& block, const std::string& what) {
  Effects body = effects_of(ctx, block);
  Encoder enc(ctx);
  z3::expr facts = enc.facts(ctx);
  // A feasible reduction into a location the body does not allocate adds twice.
  z3::expr any_reduce = enc.ctx().bool_val(false);
  std::vector<std::pair<const Access*, z3::expr>> reduces;
  for (size_t k = 0; k < body.accesses.size(); ++k) {
    const Access& a = body.accesses[k];
    if (a.kind != AccessKind::Reduce || (!a.is_config() && body.allocates(a.buffer))) continue;
    z3::expr w = enc.access(a, "r" + std::to_string(k)).when;
    reduces.emplace_back(&a, w);
    any_reduce = any_reduce || w;
  }
  if (!reduces.empty()) {
    std::optional<z3::model> m;
    if (auto ans = decide(enc, facts && any_reduce, m); !ans || !ans->proved()) {
      if (ans) return *ans;
      for (const auto& [a, w] : reduces)
        if (m->eval(w, true).is_true())
          return Answer::refutation(
              what + " reduces into " + location_text(*a, {}) + ", so running it twice adds twice",
              "the reduction" + at_line(a->srcinfo), a->srcinfo);
    }
  }
  ConflictSpec spec;
  spec.first = Side{&body, "x", {}, fixed_label(what)};
  spec.second = Side{&body, "y", {}, fixed_label(what)};
  spec.relevant = [](const Access& x, const Access& y) {
    return x.same_location_as(y) && x.kind == AccessKind::Read && y.kind != AccessKind::Read;
  };
  spec.reason = what + " both reads and writes one location, so a second run may see the " +
                "first run's writes";
  return find_conflict(enc, ctx, spec);
}

}  // namespace

Answer loop_body_idempotent(const Context& ctx, const Stmt& loop_stmt) {
  const ForNode& loop = as_loop(loop_stmt, "loop_body_idempotent");
  if (mentions(loop.body, loop.iter))
    return Answer::refutation(
        "the body of loop " + loop.iter.name() + " depends on " + loop.iter.name(), "",
        loop_stmt.srcinfo());
  return guarded([&]() { return block_idempotent(ctx, loop.body, "the body"); });
}

Answer fission_first_part_idempotent(const Context& ctx, const Stmt& loop_stmt, size_t gap) {
  const ForNode& loop = as_loop(loop_stmt, "fission_first_part_idempotent");
  if (gap == 0 || gap >= loop.body.size())
    return Answer::refutation(
        "the gap must lie strictly inside the body of loop " + loop.iter.name(), "",
        loop_stmt.srcinfo());
  Block before(loop.body.begin(), loop.body.begin() + static_cast<long>(gap));
  Block after(loop.body.begin() + static_cast<long>(gap), loop.body.end());
  if (mentions(before, loop.iter))
    return Answer::refutation("the statements before the gap depend on " + loop.iter.name(), "",
                              before.front().srcinfo());
  return guarded([&]() -> Answer {
    Effects ea = effects_of(ctx, before), eb = effects_of(ctx, after);
    if (Sym s = defined_then_used(ea, eb); s.valid())
      return Answer::refutation("`" + s.name() + "` is defined before the gap and used after it",
                                "", after.front().srcinfo());
    Answer twice = block_idempotent(ctx, before, "the part before the gap");
    if (!twice.proved()) return twice;
    // The later runs of the first part find what the first run left: no iteration of the
    // second part writes a location the first part reads or writes.
    Encoder enc(ctx);
    z3::expr lo = enc.num(loop.lo), hi = enc.num(loop.hi);
    std::string name = loop.iter.name() + "!" + std::to_string(loop.iter.id()) + "@2";
    z3::expr i2 = enc.ctx().int_const(name.c_str());
    ConflictSpec spec;
    spec.first = Side{&ea, "a", {}, fixed_label("the part before the gap")};
    spec.second =
        Side{&eb, "b", {{loop.iter, i2}}, iteration_label(loop.iter, i2, " (after the gap)")};
    spec.extra = lo <= i2 && i2 < hi;
    spec.relevant = [](const Access& x, const Access& y) {
      return x.same_location_as(y) && y.kind != AccessKind::Read;
    };
    spec.reason =
        "the part after the gap writes a location the part before it uses, so the "
        "part before the gap is not the same work in every iteration";
    return find_conflict(enc, ctx, spec);
  });
}

}  // namespace exocpp::checker
