// Queries about facts and coverage: expressions always true / divisible / in range, windows
// covering a block's accesses, config fields left unread, and allocations that may be lifted.
#include "checker/conflict.h"
#include "checker/queries.h"

namespace exocpp::checker {

namespace {

// Proved when `fact` holds under the facts of ctx; refuted with the values breaking it.
Answer prove(Encoder& enc, const Context& ctx, const z3::expr& fact, const std::string& what) {
  z3::expr facts = enc.facts(ctx);
  std::optional<z3::model> m;
  if (auto a = decide(enc, facts && !fact, m)) return *a;
  std::string vals = context_values(enc, *m);
  return Answer::refutation(what + " does not always hold",
                            vals.empty() ? "(for any values)" : vals);
}

}  // namespace

Answer always_true(const Context& ctx, const Expr& cond) {
  return guarded([&]() -> Answer {
    Encoder enc(ctx);
    Answer a = prove(enc, ctx, enc.cond(cond), "`" + expr_text(cond) + "`");
    if (a.refuted()) a.loc = cond.srcinfo();
    return a;
  });
}

Answer always_divisible(const Context& ctx, const Expr& e, int64_t divisor) {
  if (divisor <= 0)
    return Answer::unknown_because("divisibility by a non-positive number " +
                                   std::to_string(divisor));
  return guarded([&]() -> Answer {
    Encoder enc(ctx);
    z3::expr v = enc.num(e);
    z3::expr q = enc.ctx().int_const("divisible!quotient");
    // e is divisible iff some integer q has e == divisor * q; refuted when e % divisor != 0.
    z3::expr r = enc.ctx().int_const("divisible!remainder");
    z3::expr defs =
        v == enc.ctx().int_val(divisor) * q + r && r >= 0 && r < enc.ctx().int_val(divisor);
    z3::expr facts = enc.facts(ctx);
    std::optional<z3::model> m;
    if (auto a = decide(enc, facts && defs && r != 0, m)) return *a;
    std::string cex = "`" + expr_text(e) + "` = " + model_value(*m, v);
    std::string vals = context_values(enc, *m);
    if (!vals.empty()) cex += " with " + vals;
    return Answer::refutation(
        "`" + expr_text(e) + "` is not always divisible by " + std::to_string(divisor), cex,
        e.srcinfo());
  });
}

Answer always_in_range(const Context& ctx, const Expr& e, const Expr& lo, const Expr& hi) {
  return guarded([&]() -> Answer {
    Encoder enc(ctx);
    z3::expr v = enc.num(e), l = enc.num(lo), h = enc.num(hi);
    z3::expr facts = enc.facts(ctx);
    std::optional<z3::model> m;
    if (auto a = decide(enc, facts && !(l <= v && v < h), m)) return *a;
    std::string cex = "`" + expr_text(e) + "` = " + model_value(*m, v) + ", outside [" +
                      model_value(*m, l) + ", " + model_value(*m, h) + ")";
    std::string vals = context_values(enc, *m);
    if (!vals.empty()) cex += " with " + vals;
    return Answer::refutation(
        "`" + expr_text(e) + "` is not always in [" + expr_text(lo) + ", " + expr_text(hi) + ")",
        cex, e.srcinfo());
  });
}

Answer window_covers(const Context& ctx, const Expr& window, const Block& code) {
  const WindowExprNode* w = window.as<WindowExprNode>();
  EXOCPP_ASSERT(w != nullptr, "window_covers: not a window expression");
  return guarded([&]() -> Answer {
    RootWindow rw = resolve_window(ctx, *w);
    Effects eff = effects_of(ctx, code);
    Encoder enc(ctx);
    z3::expr facts = enc.facts(ctx);
    std::vector<z3::expr> lo, hi;
    std::vector<bool> point;
    for (const WAccess& d : rw.dims) {
      point.push_back(!d.is_interval);
      lo.push_back(enc.num(d.lo));
      hi.push_back(d.is_interval ? enc.num(d.hi) : enc.num(d.lo) + 1);
    }
    // Elements accessed, and the first and last elements of every window formed (the whole
    // window is renumbered, not only what is accessed through it).
    std::vector<const Access*> all;
    for (const Access& a : eff.accesses) all.push_back(&a);
    for (const Access& a : eff.window_corners) all.push_back(&a);
    const size_t n_accesses = eff.accesses.size();
    std::vector<std::pair<size_t, Encoder::Enc>> outside;
    z3::expr any = enc.ctx().bool_val(false);
    for (size_t k = 0; k < all.size(); ++k) {
      const Access& a = *all[k];
      if (a.is_config() || a.buffer != rw.buffer) continue;
      Encoder::Enc e = enc.access(a, "c" + std::to_string(k));
      z3::expr inside = enc.ctx().bool_val(true);
      for (size_t d = 0; d < e.idx.size() && d < lo.size(); ++d)
        inside = inside && lo[d] <= e.idx[d] && e.idx[d] < hi[d];
      if (e.idx.size() != lo.size())
        inside = enc.ctx().bool_val(false);  // rank mismatch: never covered
      any = any || (e.when && !inside);
      outside.emplace_back(k, e);
    }
    if (outside.empty()) return Answer::proof();
    std::optional<z3::model> m;
    if (auto ans = decide(enc, facts && any, m)) return *ans;
    for (const auto& [k, e] : outside) {
      z3::expr inside = enc.ctx().bool_val(e.idx.size() == lo.size());
      for (size_t d = 0; d < e.idx.size() && d < lo.size(); ++d)
        inside = inside && lo[d] <= e.idx[d] && e.idx[d] < hi[d];
      if (!m->eval(e.when && !inside, true).is_true()) continue;
      const Access& a = *all[k];
      std::vector<std::string> idx, win;
      for (const z3::expr& i : e.idx) idx.push_back(model_value(*m, i));
      for (size_t d = 0; d < lo.size(); ++d)
        win.push_back(point[d] ? model_value(*m, lo[d])
                               : model_value(*m, lo[d]) + ":" + model_value(*m, hi[d]));
      std::string cex = location_text(a, idx);
      std::string inner;
      for (size_t t = 0; t < e.iters.size(); ++t)
        inner += (t ? ", " : "") + a.loops[t].iter.name() + " = " + model_value(*m, e.iters[t]);
      std::string what =
          k < n_accesses ? std::string(to_string(a.kind)) : "forms a window reaching";
      cex = "the block " + what + " " + cex + (inner.empty() ? "" : " (" + inner + ")") +
            at_line(a.srcinfo) + ", outside " + rw.buffer.name() + "[";
      for (size_t d = 0; d < win.size(); ++d) cex += (d ? ", " : "") + win[d];
      cex += "]";
      std::string vals = context_values(enc, *m);
      if (!vals.empty()) cex += "; with " + vals;
      return Answer::refutation("the window `" + expr_text(window) +
                                    "` does not cover every access of " + rw.buffer.name() +
                                    " in the block",
                                cex, a.srcinfo);
    }
    return Answer::refutation("the window does not cover the block", "(no model)");
  });
}

Answer window_disjoint(const Context& ctx, const Expr& window, const Block& code) {
  const WindowExprNode* w = window.as<WindowExprNode>();
  EXOCPP_ASSERT(w != nullptr, "window_disjoint: not a window expression");
  return guarded([&]() -> Answer {
    RootWindow rw = resolve_window(ctx, *w);
    Effects eff = effects_of(ctx, code);
    Encoder enc(ctx);
    z3::expr facts = enc.facts(ctx);
    // A window the code forms is disjoint only if all of it is, which its two corners do not
    // tell: code forming a window of the buffer is not analysed here.
    for (const Access& a : eff.window_corners)
      if (!a.is_config() && a.buffer == rw.buffer)
        return Answer::unknown_because(
            "windows of " + rw.buffer.name() + " the code forms are not analysed", a.srcinfo);
    for (size_t k = 0; k < eff.accesses.size(); ++k) {
      const Access& a = eff.accesses[k];
      if (a.is_config() || a.buffer != rw.buffer) continue;
      Encoder::Enc e = enc.access(a, "d" + std::to_string(k));
      if (e.idx.size() != rw.dims.size()) continue;  // rank mismatch: never inside
      z3::expr inside = e.when;
      for (size_t d = 0; d < e.idx.size(); ++d) {
        const WAccess& wd = rw.dims[d];
        z3::expr lo = enc.num(wd.lo);
        z3::expr hi = wd.is_interval ? enc.num(wd.hi) : lo + 1;
        inside = inside && lo <= e.idx[d] && e.idx[d] < hi;
      }
      std::optional<z3::model> m;
      if (auto ans = decide(enc, facts && inside, m)) {
        if (ans->proved()) continue;
        return *ans;
      }
      std::vector<std::string> idx;
      for (const z3::expr& i : e.idx) idx.push_back(model_value(*m, i));
      std::string cex = "the code " + std::string(to_string(a.kind)) + " " + location_text(a, idx) +
                        at_line(a.srcinfo) + ", inside `" + expr_text(window) + "`";
      std::string vals = context_values(enc, *m);
      if (!vals.empty()) cex += "; with " + vals;
      return Answer::refutation("the code touches the window `" + expr_text(window) + "`", cex,
                                a.srcinfo);
    }
    return Answer::proof();
  });
}

Answer config_not_read(const Context& ctx, const Block& code, const Config& cfg,
                       const std::string& field) {
  return guarded([&]() -> Answer {
    Effects eff = effects_of(ctx, code);
    Encoder enc(ctx);
    z3::expr facts = enc.facts(ctx);
    std::vector<std::pair<const Access*, z3::expr>> reads;
    z3::expr any = enc.ctx().bool_val(false);
    for (size_t k = 0; k < eff.accesses.size(); ++k) {
      const Access& a = eff.accesses[k];
      if (!a.is_config() || a.config != cfg || a.field != field || a.kind != AccessKind::Read)
        continue;
      z3::expr w = enc.access(a, "r" + std::to_string(k)).when;
      reads.emplace_back(&a, w);
      any = any || w;
    }
    if (reads.empty()) return Answer::proof();
    std::optional<z3::model> m;
    if (auto ans = decide(enc, facts && any, m)) return *ans;
    for (const auto& [a, w] : reads) {
      if (!m->eval(w, true).is_true()) continue;
      std::string cex = std::string(a->through_call ? "a call" : "the code") + " reads " +
                        cfg->name + "." + field + at_line(a->srcinfo);
      std::string vals = context_values(enc, *m);
      if (!vals.empty()) cex += "; with " + vals;
      return Answer::refutation(cfg->name + "." + field + " is read", cex, a->srcinfo);
    }
    return Answer::refutation(cfg->name + "." + field + " is read", "(no model)");
  });
}

}  // namespace exocpp::checker
