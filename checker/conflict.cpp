// The conflict search shared by the dependence queries: encode both sides' accesses, ask Z3
// for a pair that touches one location, and put the model into words.
#include "checker/conflict.h"

namespace exocpp::checker {

bool conflicting(const Access& x, const Access& y, bool reduces_commute) {
  if (!x.same_location_as(y)) return false;
  if (x.kind == AccessKind::Read && y.kind == AccessKind::Read) return false;
  if (x.kind == AccessKind::Reduce && y.kind == AccessKind::Reduce)
    return !reduces_commute || x.truncating || y.truncating;
  // Storing one constant twice gives the same state in either order: run one after the other,
  // the pair commutes (reads between them are pairs of their own). Run at once (a parallel
  // loop, where reductions do not commute either) it is still a data race in C.
  if (reduces_commute && x.writes_same_constant_as(y)) return false;
  return true;
}

std::string at_line(const SrcInfo& s) {
  if (s.line <= 0) return "";
  return " at line " + std::to_string(s.line);
}

std::optional<Answer> decide(Encoder& enc, const z3::expr& f, std::optional<z3::model>& model) {
  SatResult r = check_sat(enc, f);
  if (r.result == z3::unsat) return Answer::proof();
  if (r.result == z3::unknown) return Answer::unknown_because(r.why_unknown);
  model = r.model;
  return std::nullopt;
}

namespace {

struct Encoded {
  const Access* access;
  Encoder::Enc enc;
};

std::vector<Encoded> encode_side(Encoder& enc, const Side& side, const ConflictSpec& spec,
                                 const Effects& other) {
  for (const auto& [s, v] : side.binds) enc.bind(s, v);
  std::vector<Encoded> out;
  const std::vector<Access>& acc = side.eff->accesses;
  for (size_t k = 0; k < acc.size(); ++k) {
    const Access& a = acc[k];
    if (spec.skip_private && !a.is_config() &&
        (side.eff->allocates(a.buffer) || other.allocates(a.buffer)))
      continue;
    out.push_back(Encoded{&a, enc.access(a, side.tag + std::to_string(k))});
  }
  for (const auto& [s, v] : side.binds) enc.unbind(s);
  return out;
}

std::string describe(const Side& side, const Encoded& e, const z3::model& m) {
  const Access& a = *e.access;
  std::vector<std::string> idx;
  for (const z3::expr& i : e.enc.idx) idx.push_back(model_value(m, i));
  std::string s = side.label(m) + " " + to_string(a.kind) + " " + location_text(a, idx);
  std::string inner;
  for (size_t k = 0; k < e.enc.iters.size(); ++k)
    inner += (k ? ", " : "") + a.loops[k].iter.name() + " = " + model_value(m, e.enc.iters[k]);
  if (!inner.empty()) s += " (" + inner + ")";
  return s + at_line(a.srcinfo);
}

}  // namespace

Answer find_conflict(Encoder& enc, const Context& ctx, const ConflictSpec& spec) {
  z3::context& c = enc.ctx();
  z3::expr facts = enc.facts(ctx);
  std::vector<Encoded> xs = encode_side(enc, spec.first, spec, *spec.second.eff);
  std::vector<Encoded> ys = encode_side(enc, spec.second, spec, *spec.first.eff);

  std::vector<std::pair<std::pair<size_t, size_t>, z3::expr>> pairs;
  for (size_t i = 0; i < xs.size(); ++i) {
    for (size_t j = 0; j < ys.size(); ++j) {
      const Access& x = *xs[i].access;
      const Access& y = *ys[j].access;
      bool rel = spec.relevant ? spec.relevant(x, y) : conflicting(x, y, spec.reduces_commute);
      if (!rel) continue;
      z3::expr f = xs[i].enc.when && ys[j].enc.when;
      size_t n = std::min(xs[i].enc.idx.size(), ys[j].enc.idx.size());
      for (size_t d = 0; d < n; ++d) f = f && xs[i].enc.idx[d] == ys[j].enc.idx[d];
      if (spec.second_extra) {
        for (const auto& [s, v] : spec.second.binds) enc.bind(s, v);
        f = f && spec.second_extra(enc, y, ys[j].enc);
        for (const auto& [s, v] : spec.second.binds) enc.unbind(s);
      }
      if (spec.pair_extra) f = f && spec.pair_extra(x, xs[i].enc, y, ys[j].enc);
      pairs.emplace_back(std::make_pair(i, j), f);
    }
  }
  if (pairs.empty()) return Answer::proof();
  z3::expr any = c.bool_val(false);
  for (const auto& p : pairs) any = any || p.second;
  z3::expr query = facts && any;
  if (spec.extra) query = query && *spec.extra;

  std::optional<z3::model> model;
  if (auto a = decide(enc, query, model)) return *a;
  const z3::model& m = *model;
  for (const auto& [ij, f] : pairs) {
    if (!m.eval(f, true).is_true()) continue;
    const Encoded& x = xs[ij.first];
    const Encoded& y = ys[ij.second];
    std::string cex = describe(spec.first, x, m) + ", then " + describe(spec.second, y, m);
    std::string vals = context_values(enc, m);
    if (!vals.empty()) cex += "; with " + vals;
    return Answer::refutation(spec.reason, cex, x.access->srcinfo);
  }
  return Answer::refutation(spec.reason, "(no model)");
}

}  // namespace exocpp::checker
