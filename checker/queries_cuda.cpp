// The race rule of CUDA kernels (queries.h, kernel_is_race_free; docs/gpu.md).
//
// Blocks: every cuda_blocks loop of the kernel's grid must be parallelizable, which the loop
// query decides (each block's shared and register buffers are allocated in its iteration, so
// they are private to it).
//
// Threads: one conflict search over the effects of the block's code, both sides the same code.
// A pair of accesses counts when they touch one location, one writes (reductions too: two
// threads adding into one place race), they are made by different threads, and no barrier
// stands between them on some path of the block-level control flow. The thread of an access is
// its lane loops' iterators weighted by the loops' units (core/cuda.h); which lane loop holds
// it places it in the control flow graph of the block level, whose nodes are lane loops,
// barriers and joins (seq loop heads).
#include <map>
#include <set>

#include "checker/conflict.h"
#include "checker/queries.h"
#include "core/cuda.h"

namespace exocpp::checker {
namespace {

// The block-level control flow between lane loops and barriers, and which lane loops one can
// reach from another without passing a barrier.
class BarrierFlow {
 public:
  explicit BarrierFlow(const Block& body) {
    int start = node(Kind::Join, nullptr);
    build(body, {start});
    for (const auto& [loop, n] : lane_node_) {
      reach_from(loop, n, false, reach_);
      reach_from(loop, n, true, reach_async_);
    }
  }
  // Whether some run of the block reaches lane loop `b` after lane loop `a` with no barrier
  // between (`async`: no barrier that waits for asynchronous copies). A lane loop with itself:
  // whether it reaches itself again.
  bool reaches(const ForNode* a, const ForNode* b, bool async) const {
    return (async ? reach_async_ : reach_).count({a, b}) > 0;
  }
  bool connected(const ForNode* a, const ForNode* b) const {
    return reaches(a, b, false) || reaches(b, a, false);
  }
  // Whether some run reaches lane loop `b` after lane loop `a` with no barrier between along a
  // path that passes the head of block-level seq loop `loop`: one that may go
  // on to a later iteration of it. When reaches() holds and this does not, every such path
  // stays in one iteration of `loop`, and so of every loop around it.
  bool reaches_through(const ForNode* a, const ForNode* b, bool async, const ForNode* loop) const {
    auto head = head_.find(loop);
    if (head == head_.end()) return true;  // not a loop of this block: assume the worst
    const int h = head->second;
    return reach_nodes(lane_node_.at(a), async)[static_cast<size_t>(h)] &&
           reach_nodes(h, async)[static_cast<size_t>(lane_node_.at(b))];
  }

 private:
  // A Barrier orders plain accesses; an AsyncBarrier also waits for asynchronous copies.
  enum class Kind { Join, Lane, Barrier, AsyncBarrier };
  std::vector<Kind> kind_;
  std::vector<const ForNode*> loop_;
  std::vector<std::vector<int>> succ_;
  std::map<const ForNode*, int> lane_node_;
  std::map<const ForNode*, int> head_;  // a block-level seq loop's head
  std::set<std::pair<const ForNode*, const ForNode*>> reach_, reach_async_;

  int node(Kind k, const ForNode* loop) {
    kind_.push_back(k);
    loop_.push_back(loop);
    succ_.emplace_back();
    return static_cast<int>(kind_.size()) - 1;
  }
  void link(const std::vector<int>& from, int to) {
    for (int f : from) succ_[static_cast<size_t>(f)].push_back(to);
  }
  // Adds the nodes of `b`, entered from `preds`; returns the nodes it leaves from.
  std::vector<int> build(const Block& b, std::vector<int> preds) {
    for (const Stmt& s : b) {
      if (const ForNode* f = s.as<ForNode>()) {
        if (is_cuda_lane(f->mode)) {
          int n = node(Kind::Lane, f);
          lane_node_[f] = n;
          link(preds, n);
          preds = {n};
        } else {
          int head = node(Kind::Join, nullptr);
          head_[f] = head;
          link(preds, head);
          link(build(f->body, {head}), head);
          preds = {head};
        }
      } else if (const IfNode* i = s.as<IfNode>()) {
        std::vector<int> a = build(i->body, preds), e = build(i->orelse, preds);
        a.insert(a.end(), e.begin(), e.end());
        preds = a;
      } else if (is_cuda_barrier(s)) {
        const std::string& sync = s.as<CallNode>()->proc->instr->sync;
        if (sync != "cuda_block" && sync != "cuda_block_async")
          continue;  // a warp barrier orders no block
        int n = node(sync == "cuda_block" ? Kind::Barrier : Kind::AsyncBarrier, nullptr);
        link(preds, n);
        preds = {n};
      }
    }
    return preds;
  }
  // The nodes some path from node `n` (not counting `n` itself unless it returns to it)
  // reaches without passing a barrier (`async`: one that waits for asynchronous copies).
  std::vector<bool> reach_nodes(int n, bool async) const {
    std::vector<bool> seen(kind_.size(), false);
    std::vector<int> todo = succ_[static_cast<size_t>(n)];
    while (!todo.empty()) {
      int v = todo.back();
      todo.pop_back();
      auto vi = static_cast<size_t>(v);
      if (seen[vi] || kind_[vi] == Kind::AsyncBarrier) continue;
      if (kind_[vi] == Kind::Barrier && !async) continue;
      seen[vi] = true;
      for (int w : succ_[vi]) todo.push_back(w);
    }
    return seen;
  }
  void reach_from(const ForNode* from, int n, bool async,
                  std::set<std::pair<const ForNode*, const ForNode*>>& reach) const {
    const std::vector<bool> seen = reach_nodes(n, async);
    for (size_t v = 0; v < seen.size(); ++v)
      if (seen[v] && kind_[v] == Kind::Lane) reach.insert({from, loop_[v]});
  }
};

// The lane loops and allocations of a block's code.
struct Geometry {
  struct LaneLoop {
    const ForNode* loop;
    int64_t lo, unit;
  };
  std::map<const ForNode*, LaneLoop> lanes;
  std::set<Sym> block_level;  // allocated outside lane loops: one per block
  int64_t threads = 1;

  explicit Geometry(const Block& body) : threads(cuda_footprint(body)) { walk(body, false); }

  void walk(const Block& b, bool in_lane) {
    for (const Stmt& s : b) {
      if (const ForNode* f = s.as<ForNode>()) {
        bool lane = is_cuda_lane(f->mode);
        if (lane) {
          // Lane loop bounds are integer constants (the type checker says so).
          lanes[f] = LaneLoop{f, cuda_lane_lo(*f).value_or(0), cuda_lane_unit(*f)};
        }
        walk(f->body, in_lane || lane);
      } else if (const IfNode* i = s.as<IfNode>()) {
        walk(i->body, in_lane);
        walk(i->orelse, in_lane);
      } else if (const AllocNode* a = s.as<AllocNode>()) {
        if (!in_lane) block_level.insert(a->name);
      }
    }
  }

  // The outermost lane loop around access `a`; nullptr at block level.
  const ForNode* lane_of(const Access& a) const {
    for (const LoopRange& l : a.loops)
      if (auto it = lanes.find(l.node); it != lanes.end()) return it->second.loop;
    return nullptr;
  }
};

}  // namespace

Answer kernel_is_race_free(const Context& ctx, const Stmt& kernel) {
  const ForNode* k = kernel.as<ForNode>();
  EXOCPP_ASSERT(k != nullptr && k->mode == LoopMode::CudaBlocks,
                "kernel_is_race_free: the statement is not a cuda_blocks loop");
  // 1. Blocks, one grid dimension at a time.
  Context c = ctx;
  Stmt grid = kernel;
  for (;;) {
    const ForNode* g = grid.as<ForNode>();
    Answer a = loop_is_parallelizable(c, grid);
    if (!a.proved()) {
      if (a.refuted())
        a.reason = "two blocks of kernel '" + k->iter.name() + "' (iterations of '" +
                   g->iter.name() + "') touch the same location and one writes it";
      return a;
    }
    Scope loop(Scope::Loop);
    loop.loop = g;
    c.push(loop);
    if (g->body.size() != 1) break;
    const ForNode* inner = g->body[0].as<ForNode>();
    if (inner == nullptr || inner->mode != LoopMode::CudaBlocks) break;
    grid = g->body[0];
  }
  const Block& body = grid.as<ForNode>()->body;

  // 2. Threads of one block.
  return guarded([&]() -> Answer {
    Geometry geo(body);
    BarrierFlow flow(body);
    Effects eff = effects_of(c, body);
    Encoder enc(c);
    z3::context& zc = enc.ctx();
    int fresh = 0;
    // The thread making access `a` (encoded as `e`), and what holds of it.
    auto thread_of = [&](const Access& a, const Encoder::Enc& e) -> std::pair<z3::expr, z3::expr> {
      z3::expr t = zc.int_val(0);
      const ForNode* innermost = nullptr;
      for (size_t i = 0; i < a.loops.size() && i < e.iters.size(); ++i) {
        auto it = geo.lanes.find(a.loops[i].node);
        if (it == geo.lanes.end()) continue;
        t = t + (e.iters[i] - zc.int_val(it->second.lo)) * zc.int_val(it->second.unit);
        innermost = it->second.loop;
      }
      // Directly in a warp (a warp-collective instruction): the warp is one actor, numbered
      // apart from every thread, so it races with each thread, its own included, but not with
      // itself (a warp runs its collective instructions in order).
      if (innermost != nullptr && innermost->mode == LoopMode::CudaWarps)
        return {t + zc.int_val(geo.threads), zc.bool_val(true)};
      if (innermost != nullptr) return {t, zc.bool_val(true)};
      // Block-level code runs on every thread: any of them.
      z3::expr v = zc.int_const(("thread!" + std::to_string(fresh++)).c_str());
      return {v, v >= 0 && v < zc.int_val(geo.threads)};
    };
    // Both accesses in the same iterations of the block-level seq loops around their lane loop.
    auto same_iterations = [&](const Access& x, const Encoder::Enc& ex, const Access& y,
                               const Encoder::Enc& ey) {
      z3::expr same = zc.bool_val(true);
      for (size_t i = 0; i < x.loops.size() && i < y.loops.size(); ++i) {
        if (x.loops[i].node != y.loops[i].node || geo.lanes.count(x.loops[i].node)) break;
        same = same && ex.iters[i] == ey.iters[i];
      }
      return same;
    };
    // The iterations of the block-level seq loops around both accesses x (in lane loop `from`)
    // and y (in `to`) in which y may follow x with no barrier between (`async`: none that
    // waits for copies), given that some barrier-free path leads from `from` to `to`. Take the
    // outermost of those loops whose head such a path passes: the path may go on to another
    // iteration of it (and so of every loop inside it), but stays in one iteration of every
    // loop around it. Without one, x and y are in the same iterations of them all.
    auto iterations_after = [&](const ForNode* from, const ForNode* to, bool async, const Access& x,
                                const Encoder::Enc& ex, const Access& y, const Encoder::Enc& ey) {
      z3::expr same = zc.bool_val(true);
      for (size_t i = 0; i < x.loops.size() && i < y.loops.size(); ++i) {
        if (x.loops[i].node != y.loops[i].node || geo.lanes.count(x.loops[i].node)) break;
        if (flow.reaches_through(from, to, async, x.loops[i].node)) break;
        same = same && ex.iters[i] == ey.iters[i];
      }
      return same;
    };
    // Whether lane loop `to` runs after lane loop `from` with no barrier between, for accesses
    // x in `from` and y in `to`: false when no path does so, else in the iterations
    // iterations_after says.
    auto runs_after = [&](const ForNode* from, const ForNode* to, bool async, const Access& x,
                          const Encoder::Enc& ex, const Access& y, const Encoder::Enc& ey) {
      if (!flow.reaches(from, to, async)) return zc.bool_val(false);
      return iterations_after(from, to, async, x, ex, y, ey);
    };
    // Two accesses of one lane loop: in one execution of it (the same iterations of the loops
    // around it), or in executions that a barrier-free path from the loop back to itself joins.
    auto same_execution_or_after = [&](const ForNode* lane, bool async, const Access& x,
                                       const Encoder::Enc& ex, const Access& y,
                                       const Encoder::Enc& ey) {
      return flow.reaches(lane, lane, async) ? iterations_after(lane, lane, async, x, ex, y, ey)
                                             : same_iterations(x, ex, y, ey);
    };
    ConflictSpec spec;
    spec.first = Side{&eff, "x", {}, [](const z3::model&) { return std::string("one thread"); }};
    spec.second =
        Side{&eff, "y", {}, [](const z3::model&) { return std::string("another thread"); }};
    spec.skip_private = false;  // the block's shared and register buffers are what we study
    spec.relevant = [&](const Access& x, const Access& y) {
      if (!conflicting(x, y, false)) return false;
      // Buffers allocated in a lane loop (or in a callee) are each thread's own.
      if (!x.is_config() && eff.allocates(x.buffer) && !geo.block_level.count(x.buffer))
        return false;
      if (x.async || y.async) return true;  // pair_extra decides, by direction
      const ForNode* lx = geo.lane_of(x);
      const ForNode* ly = geo.lane_of(y);
      if (lx == nullptr || ly == nullptr || lx == ly) return true;
      return flow.connected(lx, ly);
    };
    spec.pair_extra = [&](const Access& x, const Encoder::Enc& ex, const Access& y,
                          const Encoder::Enc& ey) {
      auto [tx, hx] = thread_of(x, ex);
      auto [ty, hy] = thread_of(y, ey);
      const ForNode* lx = geo.lane_of(x);
      const ForNode* ly = geo.lane_of(y);
      z3::expr f = hx && hy && tx != ty;
      if (x.async || y.async) {
        // `c` is an asynchronous copy's access, `o` the other. What `c` touches is in flight
        // from the copy to its thread's next barrier that waits for copies: an access after the
        // copy on a path without such a barrier races with it, the copying thread's own
        // included (but not the copy itself, the same access in the same iterations). An access
        // before the copy races as usual: another thread, no barrier between.
        const bool x_is_copy = x.async;
        const ForNode* lc = x_is_copy ? lx : ly;
        const ForNode* lo = x_is_copy ? ly : lx;
        const bool unknown = lc == nullptr || lo == nullptr;
        // Not the copy itself: another access, or the copy by another thread or iteration.
        z3::expr other = zc.bool_val(&x != &y);
        if (&x == &y) {
          other = tx != ty;
          for (size_t i = 0; i < ex.iters.size() && i < ey.iters.size(); ++i)
            other = other || ex.iters[i] != ey.iters[i];
        }
        const Access& c = x_is_copy ? x : y;
        const Access& o = x_is_copy ? y : x;
        const Encoder::Enc& ec = x_is_copy ? ex : ey;
        const Encoder::Enc& eo = x_is_copy ? ey : ex;
        z3::expr after = zc.bool_val(true), before = zc.bool_val(true);
        if (!unknown && lc == lo) {  // one execution of the loop, or one reaching the next
          after = same_execution_or_after(lc, true, x, ex, y, ey);
          before = same_execution_or_after(lc, false, x, ex, y, ey);
        } else if (!unknown) {
          after = runs_after(lc, lo, true, c, ec, o, eo);
          before = runs_after(lo, lc, false, o, eo, c, ec);
        }
        return hx && hy && ((after && other) || (before && tx != ty));
      }
      // Two accesses of one lane loop are in one execution of it or in two that no barrier
      // separates; of two lane loops, one runs after the other with no barrier between, in the
      // iterations runs_after says.
      if (lx != nullptr && lx == ly) f = f && same_execution_or_after(lx, false, x, ex, y, ey);
      if (lx != nullptr && ly != nullptr && lx != ly)
        f = f &&
            (runs_after(lx, ly, false, x, ex, y, ey) || runs_after(ly, lx, false, y, ey, x, ex));
      return f;
    };
    spec.reason = "two threads of one block of kernel '" + k->iter.name() +
                  "' touch the same location, one writes it, and no barrier separates them";
    return find_conflict(enc, c, spec);
  });
}

}  // namespace exocpp::checker
