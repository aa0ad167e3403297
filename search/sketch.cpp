// The template-free schedule space (search/sketch.h).
#include "search/sketch.h"

#include <algorithm>

#include "core/cursor.h"
#include "core/errors.h"
#include "core/pattern.h"
#include "core/printer.h"
#include "rewrites/composites.h"
#include "rewrites/loops.h"
#include "rewrites/stmts.h"

namespace exocpp::search {
namespace {

bool is_loop(const Cursor& c) { return c.is_valid() && c.stmt().as<ForNode>() != nullptr; }
std::string iter_of(const Cursor& c) { return c.stmt().as<ForNode>()->iter.name(); }

// The loops over `c`'s iterator, in the order the pattern resolver counts them for "i #n"
// (core/pattern.h), kept where `keep` says.
template <class Keep>
std::vector<Cursor> loops_like(const Proc& p, const Cursor& c, Keep keep) {
  std::vector<Cursor> out;
  for (const Cursor& l : find_all(p, "for " + iter_of(c) + " in _: _"))
    if (keep(l)) out.push_back(l);
  return out;
}

// " #n" for the (n+1)-th of `matches` being `c`, "" for the first.
std::string occurrence_suffix(const std::vector<Cursor>& matches, const Cursor& c) {
  size_t n = static_cast<size_t>(std::find(matches.begin(), matches.end(), c) - matches.begin());
  return n == 0 || n == matches.size() ? "" : " #" + std::to_string(n);
}

// The pattern text a schedule script would use for loop `c` of `p` ("i" or "i #2").
std::string loop_ref(const Proc& p, const Cursor& c) {
  return iter_of(c) + occurrence_suffix(loops_like(p, c, [](const Cursor&) { return true; }), c);
}

// The pattern text for the nest of loop `c` and its only child loop ("i j" or "i j #n": the
// (n+1)-th loop over i whose body is exactly one loop over j).
std::string nest_ref(const Proc& p, const Cursor& c) {
  const std::string inner = iter_of(c.body()[0]);
  auto nests = loops_like(p, c, [&](const Cursor& l) {
    return l.body().size() == 1 && is_loop(l.body()[0]) && iter_of(l.body()[0]) == inner;
  });
  return iter_of(c) + " " + inner + occurrence_suffix(nests, c);
}

// The loops nested perfectly from `top` down (each the only statement of the one above).
std::vector<Cursor> perfect_chain(const Cursor& top) {
  std::vector<Cursor> chain = {top};
  while (chain.back().body().size() == 1 && is_loop(chain.back().body()[0]))
    chain.push_back(chain.back().body()[0]);
  return chain;
}

// The constant trip count of loop `c`, if its bounds are constants.
std::optional<int64_t> constant_extent(const Cursor& c) {
  const ForNode* f = c.stmt().as<ForNode>();
  const ConstNode* lo = f->lo.as<ConstNode>();
  const ConstNode* hi = f->hi.as<ConstNode>();
  if (lo && hi && lo->is_int() && hi->is_int()) return hi->int_val() - lo->int_val();
  return std::nullopt;
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

// Schedules the nest at top-level statement `k` of `q`.
Proc schedule_nest(Proc q, int k, const SketchOptions& o, Choices& c) {
  const std::string n = "n" + std::to_string(k) + "_";
  Cursor top = q.body_cursor()[k];
  std::vector<Cursor> chain = perfect_chain(top);

  // 1. Tiling: each loop of the perfect nest divided or not. The tile loops <i>o stay where
  // their loop was; step 2 moves them out.
  std::vector<std::string> tile_loops;  // the <i>o loops of perfect (proved) divisions
  bool guarded = false;                 // a division needed a guard (the nest is not perfect)
  for (size_t d = 0; d < chain.size(); ++d) {
    Cursor loop = q.forward(chain[d]);
    std::optional<int64_t> ext = constant_extent(loop);
    std::vector<int64_t> offered = {0};
    for (int64_t t : o.tile_sizes)
      if (!ext || t < *ext) offered.push_back(t);
    const std::string it = iter_of(loop);
    int64_t t = c.pick_int(n + "tile_" + it, offered);
    if (t == 0) continue;
    const std::vector<std::string> names = {it + "o", it + "i"};
    const std::string ref = quoted(loop_ref(q, loop));
    const std::string args =
        ref + ", " + std::to_string(t) + ", {" + quoted(names[0]) + ", " + quoted(names[1]) + "}";
    bool perfect = !ext || *ext % t == 0;
    if (perfect) {
      try {
        Proc r = divide_loop(q, loop, t, names, {.perfect = true});
        c.note("p = divide_loop(p, " + args + ", {.perfect = true});");
        q = r;
        tile_loops.push_back(names[0]);
        continue;
      } catch (const SchedulingError&) {
        // Not provably divisible: a guarded division instead (below).
      }
    }
    // Not provably divisible: the partial tile cut off into a loop of its own after the tiles
    // (the tiles stay a perfect nest the later steps can reorder and vectorize), or kept
    // behind a guard inside them.
    if (c.pick(n + "tail_" + it, {"cut", "guard"}) == "cut") {
      q = divide_loop(q, loop, t, names, {.tail = Tail::Cut});
      c.note("p = divide_loop(p, " + args + ", {.tail = Tail::Cut});");
      tile_loops.push_back(names[0]);
      continue;
    }
    q = divide_loop(q, loop, t, names, {.tail = Tail::Guard});
    c.note("p = divide_loop(p, " + args + ");");
    guarded = true;
  }

  // 2. Tile loops first: within the perfect nest now at the top, each tile loop is moved up
  // past the point loops above it, in order (adjacent swaps, each proved by reorder_loops).
  size_t placed = 0;
  for (const std::string& name : tile_loops) {
    for (;;) {
      std::vector<Cursor> nest = perfect_chain(q.body_cursor()[k]);
      size_t at = 0;
      while (at < nest.size() && iter_of(nest[at]) != name) ++at;
      if (at == nest.size() || at <= placed) break;  // not in the perfect nest, or in place
      Cursor outer = nest[at - 1];
      const std::string ref = quoted(nest_ref(q, outer));
      q = reorder_loops(q, outer);
      c.note("p = reorder_loops(p, " + ref + ");");
    }
    ++placed;
  }

  // 3. The order of the innermost (up to three) point loops of the perfect nest: a
  // permutation, reached by adjacent swaps that reorder_loops proves. Not offered once a guard
  // stands in the nest (its loops are no longer all point loops of one perfect nest).
  std::vector<Cursor> nest = perfect_chain(q.body_cursor()[k]);
  const size_t m = guarded ? 0 : std::min<size_t>(3, nest.size() - std::min(placed, nest.size()));
  if (m >= 2) {
    const size_t base = nest.size() - m;
    std::vector<std::string> names;
    for (size_t i = base; i < nest.size(); ++i) names.push_back(iter_of(nest[i]));
    std::vector<int> perm = c.order(n + "order", static_cast<int>(m));
    for (size_t pos = 0; pos < m; ++pos) {
      const std::string& want = names[static_cast<size_t>(perm[pos])];
      for (;;) {
        nest = perfect_chain(q.body_cursor()[k]);
        size_t at = base;
        while (at < nest.size() && iter_of(nest[at]) != want) ++at;
        if (at == nest.size() || at <= base + pos) break;
        c.note("p = reorder_loops(p, " + quoted(nest_ref(q, nest[at - 1])) + ");");
        q = reorder_loops(q, nest[at - 1]);
      }
    }
    nest = perfect_chain(q.body_cursor()[k]);
  }

  // 4. The innermost loop of the nest: unrolled, or vectorized.
  Cursor inner = nest.back();
  std::optional<int64_t> ext = constant_extent(inner);
  bool unrolled = false;
  if (ext && *ext <= o.max_unroll && c.flip(n + "unroll")) {
    c.note("p = unroll_loop(p, " + quoted(loop_ref(q, inner)) + ");");
    q = unroll_loop(q, inner);
    unrolled = true;
  }
  if (!unrolled && !o.instructions.empty() && c.flip(n + "vector")) {
    // A register's lanes of the precision the innermost statement writes, or a width drawn.
    int64_t w = 0;
    if (o.vector_bits > 0) {
      const Cursor last = inner.body()[inner.body().size() - 1];
      ScalarKind t = ScalarKind::F32;
      if (const AssignNode* a = last.stmt().as<AssignNode>()) t = a->type;
      if (const ReduceNode* r = last.stmt().as<ReduceNode>()) t = r->type;
      w = o.vector_bits / (8 * static_cast<int64_t>(scalar_bytes(t)));
    } else {
      w = c.pick_int(n + "width", o.vector_widths);
    }
    c.note("p = vectorize(p, " + quoted(loop_ref(q, inner)) + ", " + std::to_string(w) + ", " +
           quoted(o.vector_memory) + ", instructions);");
    q = vectorize(q, inner, static_cast<int>(w), o.vector_memory, o.instructions);
  }

  // 5. The outermost loop in parallel. Vectorizing may have bound constants before the nest,
  // so the nest's loop is found again from the top.
  if (o.parallel && c.flip(n + "par")) {
    Cursor outer;
    for (int i = k; i < q.body_cursor().size() && !outer.is_valid(); ++i)
      if (is_loop(q.body_cursor()[i])) outer = q.body_cursor()[i];
    if (outer.is_valid()) {
      c.note("p = set_loop_mode(p, " + quoted(loop_ref(q, outer)) + ", \"par\");");
      q = set_loop_mode(q, outer, "par");
    }
  }
  return q;
}

// The buffer the nest at `top` computes: the one the last statement of its innermost body
// assigns (earlier statements may compute locals, as `sx = ..; bx[y, x] = sx / 3`); "" when that
// statement is not an assignment.
std::string produced_buffer(const Cursor& top) {
  const Cursor last = perfect_chain(top).back();
  const AssignNode* a = last.body()[last.body().size() - 1].stmt().as<AssignNode>();
  return a ? a->name.name() : "";
}

// Multi-stage procs (Halide's producer placement): for each buffer allocated at the top of the
// proc whose producer is a perfect nest followed by another top-level nest (its consumer), the
// decision <buffer>_at: "root" (left where it is), "inline" (compute_inline: the consumer
// computes each value it reads), or one of the consumer's outer loops (up to two):
// compute_and_store_at there, each iteration computing the region it reads into a buffer of its
// own. Producers are placed in program order.
Proc place_producers(Proc q, const SketchOptions& o, Choices& c) {
  if (!o.place_producers) return q;
  std::vector<std::string> buffers;
  for (int i = 0; i < q.body_cursor().size(); ++i)
    if (const AllocNode* a = q.body_cursor()[i].stmt().as<AllocNode>())
      buffers.push_back(a->name.name());
  for (const std::string& f : buffers) {
    const Cursor body = q.body_cursor();
    int k = 0;
    while (k < body.size() && !(is_loop(body[k]) && produced_buffer(body[k]) == f)) ++k;
    int consumer = k + 1;
    while (consumer < body.size() && !is_loop(body[consumer])) ++consumer;
    if (k >= body.size() || consumer >= body.size()) continue;
    std::vector<std::string> options = {"root", "inline"};
    const std::vector<Cursor> chain = perfect_chain(body[consumer]);
    for (size_t d = 0; d < chain.size() && d < 2; ++d) options.push_back(iter_of(chain[d]));
    const std::string at = c.pick(f + "_at", options);
    if (at == "root") continue;
    const std::string producer = quoted(loop_ref(q, body[k]));
    if (at == "inline") {
      c.note("p = compute_inline(p, " + producer + ");");
      q = compute_inline(q, body[k]);
      continue;
    }
    const Cursor where = chain[static_cast<size_t>(
        std::find(options.begin() + 2, options.end(), at) - (options.begin() + 2))];
    c.note("p = compute_and_store_at(p, " + producer + ", {" + quoted(loop_ref(q, where)) + "});");
    q = compute_and_store_at(q, body[k], {where});
  }
  return q;
}

}  // namespace

Space sketch_space(const SketchOptions& opts) {
  return [opts](const Proc& p, Choices& c) {
    Proc q = place_producers(p, opts, c);
    // Last nest first: scheduling a nest adds statements at or after it (tails) or just before
    // it (vectorize's bound constants), never before an earlier nest.
    std::vector<int> nests;
    for (int i = 0; i < q.body_cursor().size(); ++i)
      if (is_loop(q.body_cursor()[i])) nests.push_back(i);
    for (size_t j = nests.size(); j-- > 0;) q = schedule_nest(q, nests[j], opts, c);
    return q;
  };
}

TuneResult auto_schedule(const Proc& p, const SketchOptions& sketch, const TuneOptions& opts) {
  return tune(p, sketch_space(sketch), opts);
}

}  // namespace exocpp::search
