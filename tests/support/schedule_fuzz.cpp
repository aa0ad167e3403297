// The random-schedule differential generator: random scheduling steps on the random modules of
// schedule_fuzz_modules.cpp, every accepted step compared in the interpreter, final procs
// compiled and compared in C.
#include "support/schedule_fuzz.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>

#include "checker/frontend_checks.h"
#include "core/arg_limits.h"
#include "core/ir_visit.h"
#include "driver/c_jit.h"
#include "support/schedule_fuzz_random.h"

namespace exocpp::fuzz {
namespace {

// ---- random targets --------------------------------------------------------------------------

struct Targets {
  std::vector<Cursor> stmts, blocks, exprs, loops, allocs, windows, calls, config_writes;
  // Assignments to allocated buffers, and loop nests around one (what inline_assign and
  // compute_inline apply to: aimed at most of the time, the random pick rarely meets them);
  // loops whose body is one if (rfactor_argmax's form, also aimed at).
  std::vector<Cursor> local_assigns, local_producers, if_loops;
  explicit Targets(const Proc& p) {
    collect(p.body_cursor());
    for (const Cursor& s : stmts) collect_exprs(s);
    std::set<Sym> locals;
    for (const Cursor& a : allocs) locals.insert(a.stmt().as<AllocNode>()->name);
    auto to_local = [&](const Stmt& s) {
      const AssignNode* a = s.as<AssignNode>();
      return a && locals.count(a->name) > 0;
    };
    for (const Cursor& s : stmts)
      if (to_local(s.stmt())) local_assigns.push_back(s);
    for (const Cursor& l : loops) {
      Stmt inner = l.stmt();
      while (const ForNode* f = inner.as<ForNode>()) {
        if (f->body.size() != 1) break;
        inner = f->body[0];
      }
      if (to_local(inner)) local_producers.push_back(l);
      const ForNode* f = l.stmt().as<ForNode>();
      if (f->body.size() == 1 && f->body[0].is<IfNode>()) if_loops.push_back(l);
    }
  }
  void collect(const Cursor& block) {
    if (block.kind() != CursorKind::Block) return;  // an empty body is a gap
    blocks.push_back(block);
    for (int i = 0; i < block.size(); ++i) {
      Cursor s = block[i];
      stmts.push_back(s);
      switch (s.stmt().kind()) {
        case StmtKind::For:
          loops.push_back(s);
          break;
        case StmtKind::Alloc:
          allocs.push_back(s);
          break;
        case StmtKind::WindowStmt:
          windows.push_back(s);
          break;
        case StmtKind::Call:
          calls.push_back(s);
          break;
        case StmtKind::WriteConfig:
          config_writes.push_back(s);
          break;
        default:
          break;
      }
      StmtKind k = s.stmt().kind();
      if (k == StmtKind::For || k == StmtKind::If) collect(s.body());
      if (k == StmtKind::If && s.orelse().is_valid()) collect(s.orelse());
    }
  }
  void collect_exprs(const Cursor& c) {
    for (int i = 0; i < c.num_children(); ++i) {
      Cursor e = c.child(i);
      exprs.push_back(e);
      collect_exprs(e);
    }
  }
};

// Refused steps throw this (no target of the needed kind): counted as a refusal.
[[noreturn]] void no_target(const std::string& op) {
  throw SchedulingError(op, reason::kTargetNoMatch, {}, "fuzz: no target");
}

const Cursor& any(const std::vector<Cursor>& v, Rng& r, const std::string& op) {
  if (v.empty()) no_target(op);
  return choose(v, r);
}

struct Ctx {
  Module m;
  Config cfg;
  std::string sfx;
  Rng rng;
  int fresh = 0;
  std::string name(const std::string& prefix) { return prefix + "z" + std::to_string(fresh++); }
};

// A block of one or two statements starting at `s`.
Cursor one_or_two(const Cursor& s, Rng& r) {
  Cursor b = s.as_block();
  if (s.next().is_valid() && chance(r, 60)) b = b.expand(0, 1);
  return b;
}

// An index expression for a new bound or cut point, in the loop's scope.
std::string bound_expr(Ctx& c) {
  std::vector<std::string> v = {"0", "1", "2", "N", "N - 1", "K", "N + 1", "N - 8"};
  if (c.cfg) {
    v.push_back(c.cfg->name + ".k");
    v.push_back(c.cfg->name + ".n");
  }
  return choose(v, c.rng);
}

// The name of a 1-D main buffer read or written somewhere in `block`, with one index text.
bool buffer_access(const Cursor& block, Rng& r, std::string& buf, std::string& idx) {
  std::vector<std::pair<std::string, std::string>> found;
  std::function<void(const Cursor&)> walk = [&](const Cursor& c) {
    if (c.is_expr()) {
      if (const ReadNode* n = c.expr().as<ReadNode>(); n && n->idx.size() == 1)
        found.push_back({n->name.name(), to_string(n->idx[0])});
    } else if (c.is_stmt()) {
      if (const AssignNode* n = c.stmt().as<AssignNode>(); n && n->idx.size() == 1)
        found.push_back({n->name.name(), to_string(n->idx[0])});
      if (const ReduceNode* n = c.stmt().as<ReduceNode>(); n && n->idx.size() == 1)
        found.push_back({n->name.name(), to_string(n->idx[0])});
      StmtKind k = c.stmt().kind();
      if (k == StmtKind::For || k == StmtKind::If) walk(c.body());
    } else if (c.is_block()) {
      for (int i = 0; i < c.size(); ++i) walk(c[i]);
      return;
    }
    for (int i = 0; i < c.num_children(); ++i) walk(c.child(i));
  };
  walk(block);
  if (found.empty()) return false;
  std::tie(buf, idx) = choose(found, r);
  return true;
}

// A dimension of the allocation at `a` (0 for a scalar, which the operations then refuse).
int any_dim(const Cursor& a, Ctx& c) {
  const int rank = a.stmt().as<AllocNode>()->type.rank();
  return rank > 1 ? pick(c.rng, 0, rank - 1) : 0;
}

using StepFn = std::function<Proc(const Proc&, Ctx&)>;

std::vector<std::pair<std::string, StepFn>> all_steps() {
  std::vector<std::pair<std::string, StepFn>> s;
  auto add = [&](std::string n, StepFn f) { s.emplace_back(std::move(n), std::move(f)); };
  add("insert_pass", [](const Proc& p, Ctx& c) {
    return insert_pass(p, any(Targets(p).stmts, c.rng, "insert_pass").after());
  });
  add("delete_pass", [](const Proc& p, Ctx&) { return delete_pass(p); });
  add("reorder_stmts", [](const Proc& p, Ctx& c) {
    Cursor s = any(Targets(p).stmts, c.rng, "reorder_stmts");
    if (!s.next().is_valid()) no_target("reorder_stmts");
    return reorder_stmts(p, s.as_block().expand(0, 1));
  });
  add("parallelize_loop", [](const Proc& p, Ctx& c) {
    return parallelize_loop(p, any(Targets(p).loops, c.rng, "parallelize_loop"));
  });
  add("commute_expr", [](const Proc& p, Ctx& c) {
    return commute_expr(p, {any(Targets(p).exprs, c.rng, "commute_expr")});
  });
  add("left_reassociate_expr", [](const Proc& p, Ctx& c) {
    return left_reassociate_expr(p, any(Targets(p).exprs, c.rng, "left_reassociate_expr"));
  });
  add("rewrite_expr", [](const Proc& p, Ctx& c) {
    return rewrite_expr(p, any(Targets(p).exprs, c.rng, "rewrite_expr"), bound_expr(c));
  });
  add("merge_writes", [](const Proc& p, Ctx& c) {
    Cursor s = any(Targets(p).stmts, c.rng, "merge_writes");
    if (!s.next().is_valid()) no_target("merge_writes");
    return merge_writes(p, s.as_block().expand(0, 1));
  });
  add("split_write", [](const Proc& p, Ctx& c) {
    return split_write(p, any(Targets(p).stmts, c.rng, "split_write"));
  });
  add("fold_into_reduce", [](const Proc& p, Ctx& c) {
    return fold_into_reduce(p, any(Targets(p).stmts, c.rng, "fold_into_reduce"));
  });
  add("inline_assign", [](const Proc& p, Ctx& c) {
    Targets t(p);
    const bool aim = !t.local_assigns.empty() && chance(c.rng, 70);
    return inline_assign(p, any(aim ? t.local_assigns : t.stmts, c.rng, "inline_assign"));
  });
  add("compute_inline", [](const Proc& p, Ctx& c) {
    Targets t(p);
    const bool aim = !t.local_producers.empty() && chance(c.rng, 70);
    return compute_inline(p, any(aim ? t.local_producers : t.loops, c.rng, "compute_inline"));
  });
  add("lift_reduce_constant", [](const Proc& p, Ctx& c) {
    return lift_reduce_constant(
        p, one_or_two(any(Targets(p).stmts, c.rng, "lift_reduce_constant"), c.rng));
  });
  add("rfactor", [](const Proc& p, Ctx& c) {
    return rfactor(p, any(Targets(p).loops, c.rng, "rfactor"), pick(c.rng, 1, 4),
                   {.outer = c.name("o"), .lane = c.name("l")});
  });
  add("rfactor_argmax", [](const Proc& p, Ctx& c) {
    const int lanes = pick(c.rng, 1, 4);
    const int merge = chance(c.rng, 50) ? 0 : pick(c.rng, 1, lanes);  // may not divide: refused
    Targets t(p);
    const bool aim = !t.if_loops.empty() && chance(c.rng, 80);
    return rfactor_argmax(p, any(aim ? t.if_loops : t.loops, c.rng, "rfactor_argmax"), lanes,
                          {.outer = c.name("o"),
                           .lane = c.name("l"),
                           .merge_width = merge,
                           .merge_outer = c.name("g")});
  });
  add("eliminate_dead_code", [](const Proc& p, Ctx& c) {
    return eliminate_dead_code(p, any(Targets(p).stmts, c.rng, "eliminate_dead_code"));
  });
  add("simplify", [](const Proc& p, Ctx&) { return simplify(p); });
  add("divide_loop", [](const Proc& p, Ctx& c) {
    static const Tail tails[] = {Tail::Guard, Tail::Cut, Tail::CutAndGuard};
    int q = pick(c.rng, 1, 4);
    return divide_loop(p, any(Targets(p).loops, c.rng, "divide_loop"), q,
                       {c.name("o"), c.name("n")},
                       {.tail = tails[pick(c.rng, 0, 2)], .perfect = chance(c.rng, 20)});
  });
  add("reorder_loops", [](const Proc& p, Ctx& c) {
    return reorder_loops(p, any(Targets(p).loops, c.rng, "reorder_loops"));
  });
  add("fission", [](const Proc& p, Ctx& c) {
    return fission(p, any(Targets(p).stmts, c.rng, "fission").after(),
                   {.n_lifts = pick(c.rng, 1, 2)});
  });
  add("autofission", [](const Proc& p, Ctx& c) {
    return autofission(p, any(Targets(p).stmts, c.rng, "autofission").after(),
                       {.n_lifts = pick(c.rng, 1, 2)});
  });
  add("fuse", [](const Proc& p, Ctx& c) {
    Cursor s = any(Targets(p).stmts, c.rng, "fuse");
    if (!s.next().is_valid()) no_target("fuse");
    return fuse(p, s, s.next());
  });
  add("join_loops", [](const Proc& p, Ctx& c) {
    Cursor s = any(Targets(p).loops, c.rng, "join_loops");
    if (!s.next().is_valid()) no_target("join_loops");
    return join_loops(p, s, s.next());
  });
  add("remove_loop", [](const Proc& p, Ctx& c) {
    return remove_loop(p, any(Targets(p).loops, c.rng, "remove_loop"));
  });
  add("unroll_loop", [](const Proc& p, Ctx& c) {
    return unroll_loop(p, any(Targets(p).loops, c.rng, "unroll_loop"));
  });
  add("lift_scope", [](const Proc& p, Ctx& c) {
    return lift_scope(p, any(Targets(p).stmts, c.rng, "lift_scope"));
  });
  add("cut_loop", [](const Proc& p, Ctx& c) {
    return cut_loop(p, any(Targets(p).loops, c.rng, "cut_loop"), bound_expr(c));
  });
  add("rotate_loop", [](const Proc& p, Ctx& c) {
    return rotate_loop(p, any(Targets(p).loops, c.rng, "rotate_loop"), pick(c.rng, 1, 2));
  });
  add("shift_loop", [](const Proc& p, Ctx& c) {
    return shift_loop(p, any(Targets(p).loops, c.rng, "shift_loop"), bound_expr(c));
  });
  add("bound_and_guard", [](const Proc& p, Ctx& c) {
    return bound_and_guard(p, any(Targets(p).loops, c.rng, "bound_and_guard"),
                           chance(c.rng, 50) ? "N + 8" : "8");
  });
  add("mult_loops", [](const Proc& p, Ctx& c) {
    return mult_loops(p, any(Targets(p).loops, c.rng, "mult_loops"), c.name("m"));
  });
  add("divide_with_recompute", [](const Proc& p, Ctx& c) {
    return divide_with_recompute(p, any(Targets(p).loops, c.rng, "divide_with_recompute"), "N / 2",
                                 2, {c.name("o"), c.name("n")});
  });
  add("add_loop", [](const Proc& p, Ctx& c) {
    return add_loop(p, one_or_two(any(Targets(p).stmts, c.rng, "add_loop"), c.rng), c.name("a"),
                    chance(c.rng, 50) ? "2" : bound_expr(c), {.guard = chance(c.rng, 50)});
  });
  add("specialize", [](const Proc& p, Ctx& c) {
    std::vector<std::string> conds = {"N < 4", "K == 0", "N == 1", "K < N"};
    if (c.cfg) conds.push_back(c.cfg->name + ".k == 1");
    return specialize(p, one_or_two(any(Targets(p).stmts, c.rng, "specialize"), c.rng),
                      {choose(conds, c.rng)});
  });
  add("tile2d", [](const Proc& p, Ctx& c) {
    return tile2d(p, any(Targets(p).loops, c.rng, "tile2d"), {2, 3},
                  {c.name("a"), c.name("b"), c.name("c"), c.name("d")},
                  {.perfect = chance(c.rng, 20)});
  });
  add("lift_alloc", [](const Proc& p, Ctx& c) {
    return lift_alloc(p, any(Targets(p).allocs, c.rng, "lift_alloc"),
                      {.n_lifts = pick(c.rng, 1, 2)});
  });
  add("sink_alloc", [](const Proc& p, Ctx& c) {
    return sink_alloc(p, any(Targets(p).allocs, c.rng, "sink_alloc"));
  });
  add("autolift_alloc", [](const Proc& p, Ctx& c) {
    return autolift_alloc(p, any(Targets(p).allocs, c.rng, "autolift_alloc"),
                          {.n_lifts = pick(c.rng, 1, 2)});
  });
  add("delete_buffer", [](const Proc& p, Ctx& c) {
    return delete_buffer(p, any(Targets(p).allocs, c.rng, "delete_buffer"));
  });
  add("expand_dim", [](const Proc& p, Ctx& c) {
    Cursor a = any(Targets(p).allocs, c.rng, "expand_dim");
    std::string idx = "0";
    for (Cursor up = a; !up.loc().block.empty();) {
      up = up.parent();
      if (up.stmt().kind() == StmtKind::For && chance(c.rng, 60)) {
        idx = up.name();
        break;
      }
    }
    return expand_dim(p, a, chance(c.rng, 50) ? "N + 8" : "4", idx);
  });
  add("divide_dim", [](const Proc& p, Ctx& c) {
    Cursor a = any(Targets(p).allocs, c.rng, "divide_dim");
    return divide_dim(p, a, any_dim(a, c), 2);
  });
  add("unroll_buffer", [](const Proc& p, Ctx& c) {
    Cursor a = any(Targets(p).allocs, c.rng, "unroll_buffer");
    return unroll_buffer(p, a, any_dim(a, c));
  });
  add("resize_dim", [](const Proc& p, Ctx& c) {
    Cursor a = any(Targets(p).allocs, c.rng, "resize_dim");
    return resize_dim(p, a, any_dim(a, c), chance(c.rng, 50) ? "3" : "8",
                      chance(c.rng, 50) ? "0" : "1");
  });
  add("rearrange_dim", [](const Proc& p, Ctx& c) {
    Cursor a = any(Targets(p).allocs, c.rng, "rearrange_dim");
    if (a.stmt().as<AllocNode>()->type.rank() != 2) no_target("rearrange_dim");
    return rearrange_dim(p, a, {1, 0});
  });
  add("mult_dim", [](const Proc& p, Ctx& c) {
    Cursor a = any(Targets(p).allocs, c.rng, "mult_dim");
    if (a.stmt().as<AllocNode>()->type.rank() != 2) no_target("mult_dim");
    const bool rows_outer = chance(c.rng, 50);
    return mult_dim(p, a, rows_outer ? 0 : 1, rows_outer ? 1 : 0);
  });
  add("resize_dim.fold", [](const Proc& p, Ctx& c) {
    static const std::vector<std::string> sizes = {"1", "2", "3", "4", "8"};
    ResizeDimOptions fold;
    fold.fold = true;
    return resize_dim(p, any(Targets(p).allocs, c.rng, "resize_dim"), 0, choose(sizes, c.rng), "0",
                      fold);
  });
  add("set_memory", [](const Proc& p, Ctx& c) {
    static const std::vector<std::string> mems = {"DRAM", "DRAM_STATIC", "DRAM_STACK"};
    return set_memory(p, any(Targets(p).allocs, c.rng, "set_memory"), choose(mems, c.rng));
  });
  add("reuse_buffer", [](const Proc& p, Ctx& c) {
    Targets t(p);
    if (t.allocs.size() < 2) no_target("reuse_buffer");
    return reuse_buffer(p, choose(t.allocs, c.rng), choose(t.allocs, c.rng));
  });
  add("stage_mem", [](const Proc& p, Ctx& c) {
    Cursor b = one_or_two(any(Targets(p).stmts, c.rng, "stage_mem"), c.rng);
    std::string buf, idx;
    if (!buffer_access(b, c.rng, buf, idx)) no_target("stage_mem");
    std::string w;
    switch (pick(c.rng, 0, 2)) {
      case 0:
        w = buf + "[" + idx + ":" + idx + " + 1]";
        break;
      case 1:
        w = buf + "[" + idx + ":" + idx + " + 2]";
        break;
      default:
        w = buf + "[0:N + 8]";
        break;
    }
    return stage_mem(p, b, w, c.name("st"), {.accum = chance(c.rng, 30)});
  });
  add("bind_expr", [](const Proc& p, Ctx& c) {
    return bind_expr(p, any(Targets(p).exprs, c.rng, "bind_expr"), c.name("b"));
  });
  add("bind_expr.shared", [](const Proc& p, Ctx& c) {
    // Every occurrence that prints the same, or that is a constant of the same value as a
    // number (0.0 and -0.0: bind_expr must tell them apart), bound to one temporary.
    Targets t(p);
    Cursor e = any(t.exprs, c.rng, "bind_expr");
    const ConstNode* k = e.expr().as<ConstNode>();
    const std::string text = to_string(e.expr());
    std::vector<CursorLike> same;  // (in program order)
    for (const Cursor& x : t.exprs) {
      const ConstNode* xk = x.expr().as<ConstNode>();
      if (x == e || to_string(x.expr()) == text ||
          (k && xk && k->type.base == xk->type.base && k->val == xk->val))
        same.push_back(x);
    }
    return bind_expr(p, same, c.name("b"));
  });
  add("bind_expr_before", [](const Proc& p, Ctx& c) {
    // Hoisted before the top-level statement holding it, or an earlier one.
    Cursor e = any(Targets(p).exprs, c.rng, "bind_expr_before");
    Cursor top = get_top_level_stmt(e);
    while (top.prev().is_valid() && chance(c.rng, 30)) top = top.prev();
    return bind_expr(p, std::vector<CursorLike>{e}, c.name("h"), top);
  });
  add("inline_window", [](const Proc& p, Ctx& c) {
    return inline_window(p, any(Targets(p).windows, c.rng, "inline_window"));
  });
  add("inline_proc", [](const Proc& p, Ctx& c) {
    return inline_proc(p, any(Targets(p).calls, c.rng, "inline_proc"));
  });
  add("call_eqv", [](const Proc& p, Ctx& c) {
    // An equivalent (same history) version of the callee: the callee after a random step.
    Cursor call = any(Targets(p).calls, c.rng, "call_eqv");
    Proc callee(call.stmt().as<CallNode>()->proc);
    Proc eqv = rename(callee, c.name(callee.name() + "_"));
    Targets t(eqv);
    try {
      switch (pick(c.rng, 0, 3)) {
        case 0:
          if (!t.config_writes.empty()) eqv = delete_config(eqv, choose(t.config_writes, c.rng));
          break;
        case 1:
          if (!t.loops.empty())
            eqv = divide_loop(eqv, choose(t.loops, c.rng), 2, {c.name("o"), c.name("n")},
                              {.tail = Tail::Cut});
          break;
        case 2:
          eqv = simplify(eqv);
          break;
        default:
          break;
      }
    } catch (const SchedulingError&) {
    }
    return call_eqv(p, call, eqv);
  });
  add("extract_subproc", [](const Proc& p, Ctx& c) {
    return extract_subproc(p, one_or_two(any(Targets(p).stmts, c.rng, "extract_subproc"), c.rng),
                           c.name("sub" + c.sfx + "_"))
        .proc;
  });
  add("delete_config", [](const Proc& p, Ctx& c) {
    return delete_config(p, any(Targets(p).config_writes, c.rng, "delete_config"));
  });
  add("write_config", [](const Proc& p, Ctx& c) {
    if (!c.cfg) no_target("write_config");
    Cursor gap = any(Targets(p).stmts, c.rng, "write_config").after();
    switch (pick(c.rng, 0, 2)) {
      case 0:
        return write_config(p, gap, c.cfg, "k",
                            choose(std::vector<std::string>{"0", "1", "3", "K"}, c.rng));
      case 1:
        return write_config(p, gap, c.cfg, "n", chance(c.rng, 50) ? "1" : "2");
      default:
        // (0.0 and -0.0: "the field already holds it" must tell them apart)
        return write_config(p, gap, c.cfg, "v",
                            choose(std::vector<std::string>{"1.0", "2.0", "0.0", "-0.0"}, c.rng));
    }
  });
  add("bind_config", [](const Proc& p, Ctx& c) {
    if (!c.cfg) no_target("bind_config");
    Cursor e = any(Targets(p).exprs, c.rng, "bind_config");
    std::string field = is_float(e.expr().type().base) ? "v" : chance(c.rng, 50) ? "k" : "n";
    return bind_config(p, e, c.cfg, field);
  });
  add("set_window", [](const Proc& p, Ctx& c) {
    return set_window(p, choose(std::vector<std::string>{"A", "B"}, c.rng), true);
  });
  add("compute_and_store_at", [](const Proc& p, Ctx& c) {
    // A producer loop and a later loop (any depth) or the block of one.
    Targets t(p);
    Cursor prod = any(t.loops, c.rng, "compute_and_store_at");
    std::vector<Cursor> later;
    for (const Cursor& l : t.loops)
      if (get_top_level_stmt(l).loc().lo > get_top_level_stmt(prod).loc().lo) later.push_back(l);
    Cursor at = any(later, c.rng, "compute_and_store_at");
    return compute_and_store_at(p, prod,
                                {chance(c.rng, 30) ? CursorLike(at.as_block()) : CursorLike(at)});
  });
  add("sliding_window", [](const Proc& p, Ctx& c) {
    Cursor s = any(Targets(p).loops, c.rng, "sliding_window");
    if (!s.next().is_valid()) no_target("sliding_window");
    return sliding_window(p, s, s.next(), {.fold = chance(c.rng, 70)});
  });
  add("store_at", [](const Proc& p, Ctx& c) {
    // An allocation and the statement right after it (store_at refuses anything but a loop).
    Cursor a = any(Targets(p).allocs, c.rng, "store_at");
    if (!a.next().is_valid()) no_target("store_at");
    return store_at(p, a, a.next());
  });
  add("lift_if", [](const Proc& p, Ctx& c) {
    std::vector<Cursor> ifs;
    for (const Cursor& s : Targets(p).stmts)
      if (s.stmt().as<IfNode>()) ifs.push_back(s);
    return lift_if(p, any(ifs, c.rng, "lift_if"), pick(c.rng, 1, 2));
  });
  add("stage_window", [](const Proc& p, Ctx& c) {
    // A window passed to a call (the generator's calls take windows of the proc's buffers).
    std::vector<Cursor> windows;
    for (const Cursor& s : Targets(p).stmts)
      if (s.stmt().as<CallNode>())
        for (const Cursor& a : s.args())
          if (a.expr().is<WindowExprNode>()) windows.push_back(a);
    return stage_window(p, any(windows, c.rng, "stage_window"), "staged_w");
  });
  add("compute_at", [](const Proc& p, Ctx& c) {
    Cursor s = any(Targets(p).stmts, c.rng, "compute_at");
    if (!s.next().is_valid()) no_target("compute_at");
    return compute_at(p, s, s.next());
  });
  return s;
}

// The procs and configs `p` uses, so that its printed text parses back.
void callees(const Proc& p, ParseOptions& po) {
  struct V : IRVisitor {
    ParseOptions* po;
    std::set<const ProcNode*> seen;
    void add(const Config& c) {
      if (std::find(po->configs.begin(), po->configs.end(), c) == po->configs.end())
        po->configs.push_back(c);
    }
    void visit_Call(const CallNode* n, const Stmt& s) override {
      if (seen.insert(n->proc.get()).second) {
        visit_proc(*n->proc);
        po->procs.push_back(Proc(n->proc));
      }
      IRVisitor::visit_Call(n, s);
    }
    void visit_WriteConfig(const WriteConfigNode* n, const Stmt& s) override {
      add(n->config);
      IRVisitor::visit_WriteConfig(n, s);
    }
    void visit_ReadConfig(const ReadConfigNode* n, const Expr& e) override {
      add(n->config);
      IRVisitor::visit_ReadConfig(n, e);
    }
  } v;
  v.po = &po;
  v.visit_proc(*p.get());
}

std::string round_trip(const Proc& p) {
  ParseOptions po;
  callees(p, po);
  std::string printed = to_string(p);
  try {
    Module m = parse_module(printed, po);
    std::string again = to_string(m.procs.back());
    if (again != printed)
      return "print/parse round trip differs:\n" + printed + "--- reparsed:\n" + again;
  } catch (const Error& e) {
    return std::string("the printed proc does not parse back: ") + e.what() + "\n" + printed;
  }
  return "";
}

}  // namespace

Options ci_options() {
  // Everything the soak program generates: no feature or operation is excluded.
  Options o;
  return o;
}

std::vector<std::string> operation_names() {
  std::vector<std::string> out;
  for (const auto& [n, f] : all_steps()) out.push_back(n);
  return out;
}

SeedResult run_seed(uint64_t seed, const Options& opts) {
  static const auto steps = all_steps();
  std::vector<const std::pair<std::string, StepFn>*> enabled;
  for (const auto& s : steps)
    if (!opts.excluded_ops.count(s.first)) enabled.push_back(&s);
  SeedResult r;
  r.source = generate_source(seed, opts.features);
  Ctx c{{}, nullptr, "_" + std::to_string(seed), Rng(seed ^ 0x5DEECE66Dull)};
  try {
    c.m = parse_module(r.source);
  } catch (const Error& e) {
    r.failures.push_back(
        {seed, std::string("the generated module does not parse: ") + e.what() + "\n" + r.source});
    return r;
  }
  if (!c.m.configs.empty()) c.cfg = c.m.configs.front();
  Proc cur = c.m.procs.back();
  const Proc original = cur;
  auto fail = [&](const std::string& what) {
    std::string trace;
    for (const std::string& t : r.trace) trace += " " + t;
    r.failures.push_back(
        {seed, what + "\n  steps before:" + trace + "\n  generated module:\n" + r.source});
  };
  const bool wild = has_wild_literals(r.source);
  for (int k = 0; k < opts.steps && !enabled.empty(); ++k) {
    const auto& [name, step] = *choose(enabled, c.rng);
    if (wild && regroups_as_reals(name)) {  // see has_wild_literals
      ++r.refused;
      continue;
    }
    Proc next;
    try {
      next = step(cur, c);
    } catch (const SchedulingError&) {
      ++r.refused;
      continue;
    } catch (const std::exception& e) {
      fail(name + " threw a non-scheduling error: " + e.what() + "\nproc:\n" + to_string(cur));
      break;
    }
    ++r.accepted;
    std::string d;
    try {
      d = validate_step(name, cur, next, seed * 64 + static_cast<uint64_t>(k));
    } catch (const std::exception& e) {
      d = std::string("the comparison threw: ") + e.what();
    }
    ++r.compared;
    if (d.empty()) d = round_trip(next);
    if (!d.empty()) {
      fail("accepted step " + name + ": " + d);
      break;
    }
    r.trace.push_back(name);
    cur = next;
  }
  bool config_ops = false;
  for (const std::string& t : r.trace)
    config_ops |= t == "delete_config" || t == "write_config" || t == "bind_config";
  if (r.failures.empty() && r.accepted > 1 && !config_ops) {
    const bool regrouped = std::any_of(r.trace.begin(), r.trace.end(),
                                       [](const std::string& t) { return regroups_as_reals(t); });
    std::string d = validate_step(regrouped ? kRegroupedSchedule : "the whole schedule", original,
                                  cur, seed * 64 + 63);
    if (!d.empty()) fail(d);
  }
  r.final_proc = cur;
  return r;
}

namespace {

// "" when both argument lists hold the same data bit for bit (NaN equal to NaN, +0 not -0).
std::string bitwise_diff(const Proc& p, const std::vector<ArgValue>& a,
                         const std::vector<ArgValue>& b) {
  for (size_t i = 0; i < a.size(); ++i) {
    const Buffer* x = std::get_if<Buffer>(&a[i]);
    const Buffer* y = std::get_if<Buffer>(&b[i]);
    if (!x || !y || x->num_elements() != y->num_elements()) continue;
    for (int64_t k = 0; k < x->num_elements(); ++k) {
      const double u = x->flat(k), v = y->flat(k);
      if ((std::isnan(u) && std::isnan(v)) || (u == v && std::signbit(u) == std::signbit(v)))
        continue;
      std::string idx;
      for (int64_t d : x->unflatten(k)) idx += (idx.empty() ? "" : ", ") + std::to_string(d);
      char buf[96];
      std::snprintf(buf, sizeof buf, "] is %.17g in the interpreter and %.17g in C", u, v);
      return p.args()[i].name.name() + "[" + idx + buf;
    }
  }
  return "";
}

// Float data for the comparison with C where nothing is regrouped (the same proc runs both
// ways): ±0, ±inf, NaN, the largest finite value, subnormals, and non-integer values.
void fill_special_floats(std::vector<ArgValue>& args, Rng& r) {
  for (ArgValue& v : args) {
    Buffer* b = std::get_if<Buffer>(&v);
    if (!b || !is_float(b->kind())) continue;
    const ScalarKind k = b->kind() == ScalarKind::R ? ScalarKind::F32 : b->kind();
    const double big = k == ScalarKind::F16   ? 65504.0
                       : k == ScalarKind::F64 ? 1.7976931348623157e308
                                              : 3.4028234663852886e38;
    const double tiny = k == ScalarKind::F16   ? 5.9604644775390625e-8
                        : k == ScalarKind::F64 ? 4.9406564584124654e-324
                                               : 1.401298464324817e-45;
    const double choices[] = {0.0,  -0.0, INFINITY, -INFINITY, NAN,   big,
                              -big, tiny, -tiny,    0.1,       -2.75, 1.0 / 3.0};
    for (int64_t i = 0; i < b->num_elements(); ++i)
      b->set_flat(
          i, round_to_kind(k, chance(r, 50)
                                  ? choices[pick(r, 0, static_cast<int>(std::size(choices)) - 1)]
                                  : pick(r, -4000, 4000) / 999.0));
  }
}

// Whether `exocpp check` leaves a bounds or call rule of `p` or of a proc it calls undecided (an
// index or condition reading a config field whose value the checker does not know): emission then
// leaves it to the caller, as it leaves the asserts (docs/codegen.md), so C for it is no failure
// here.
bool undecided_by_checker(const Proc& p) {
  // (the proc and every proc it calls: emission checks each callee as a proc of its own)
  struct Callees : IRVisitor {
    std::vector<Proc> found;
    std::set<const ProcNode*> seen;
    void visit_Call(const CallNode* n, const Stmt& s) override {
      if (!n->proc->instr && seen.insert(n->proc.get()).second) {
        found.push_back(Proc(n->proc));
        visit(n->proc->body);
      }
      IRVisitor::visit_Call(n, s);
    }
  } callees;
  callees.visit(p.body());
  std::vector<Proc> all = {p};
  all.insert(all.end(), callees.found.begin(), callees.found.end());
  for (const Proc& q : all) {
    try {
      checker::check_proc(q);
    } catch (const Error& e) {
      if (std::string(e.what()).find("cannot prove") != std::string::npos) return true;
    }
  }
  return false;
}

bool has_par_loop(const Proc& p) {
  struct V : IRVisitor {
    bool par = false;
    void visit_For(const ForNode* n, const Stmt& s) override {
      par = par || n->mode != LoopMode::Seq;
      IRVisitor::visit_For(n, s);
    }
  } v;
  v.visit(p.body());
  return v.par;
}

// compile_and_compare for procs whose C emits, built by one compiler (`compiler` names it in
// the failures).
std::vector<Failure> compile_and_compare_with(const std::vector<std::pair<uint64_t, Proc>>& ok,
                                              const CompileOptions& opts,
                                              const std::string& compiler) {
  std::vector<Failure> failures;
  std::vector<Proc> ps;
  for (const auto& sp : ok) ps.push_back(sp.second);
  std::unique_ptr<CompiledLibrary> lib;
  try {
    lib = std::make_unique<CompiledLibrary>(ps, "soak_batch", opts);
  } catch (const std::exception& e) {
    // Find which proc's C does not compile.
    for (const auto& sp : ok) {
      try {
        CompiledLibrary one({sp.second}, "soak_one", opts);
      } catch (const std::exception& e1) {
        failures.push_back({sp.first, "the emitted C does not compile (" + compiler +
                                          "): " + e1.what() + "\n" + to_string(sp.second)});
      }
    }
    if (failures.empty())
      failures.push_back(
          {ok.front().first, "the batch does not compile (" + compiler + "): " + e.what()});
    return failures;
  }
  for (const auto& [seed, p] : ok) {
    const bool par = has_par_loop(p);
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<ArgValue> args;
      RandomArgsOptions ro;
      ro.max_size = trial == 0 ? 1 : trial == 1 ? 3 : trial == 2 ? 9 : 2;
      ro.max_tries = 60;
      ro.real_as = ScalarKind::F32;
      try {
        args = random_args(p, {}, seed * 4 + static_cast<uint64_t>(trial), ro);
      } catch (const Error&) {
        continue;
      }
      if (trial == 1) {  // integer data near its limits (index arguments: their range's ends)
        Rng r(seed + 7);
        const auto limits = integer_arg_limits(p, args);
        for (size_t a = 0; a < args.size(); ++a)
          if (Buffer* b = std::get_if<Buffer>(&args[a]); b && limits[a]) {
            const auto [lo, hi] = *limits[a];
            for (int64_t i = 0; i < b->num_elements(); ++i)
              b->set_flat(i, static_cast<double>(std::clamp<int64_t>(
                                 chance(r, 50) ? hi - pick(r, 0, 2) : lo + pick(r, 0, 2), lo, hi)));
          }
      }
      if (trial == 3) {  // float data at its corners
        Rng r(seed + 11);
        fill_special_floats(args, r);
      }
      std::vector<ArgValue> copy = deep_copy(args);
      std::vector<ArgValue> reversed = deep_copy(args);
      InterpOptions io;
      io.real_as = ScalarKind::F32;
      io.max_steps = 1000000;
      try {
        interpret(p, args, io);
      } catch (const Error& e) {
        // Emitted C has no checks: a proc that can leave its buffers or break a callee's asserts
        // must have been refused before any C was written.
        const std::string why = e.what();
        if ((why.find("out-of-bounds") != std::string::npos ||
             why.find("assert") != std::string::npos) &&
            !undecided_by_checker(p)) {
          failures.push_back({seed, "C was emitted for a proc that fails in the interpreter: " +
                                        why + "\n" + to_string(p)});
          break;
        }
        continue;  // not defined on these inputs
      }
      if (par) {
        // A par loop is emitted as `#pragma omp parallel for`: its iterations must not depend on
        // the order they run in.
        io.reverse_par = true;
        try {
          interpret(p, reversed, io);
        } catch (const Error&) {
          reversed = args;
        }
        std::string d = bitwise_diff(p, args, reversed);
        if (!d.empty()) {
          failures.push_back({seed,
                              "C emits a par loop whose iterations conflict (in reverse "
                              "order " +
                                  d + ")\n" + to_string(p)});
          break;
        }
      }
      try {
        lib->call(p.name(), copy);
      } catch (const std::exception& e) {
        failures.push_back({seed, "the code compiled by " + compiler +
                                      " failed where the interpreter runs: " + e.what() + "\n" +
                                      to_string(p)});
        break;
      }
      // NaN in both runs is agreement: generated float values can overflow to inf and meet
      // inf - inf. (Unwritten memory the C reads holds garbage, not NaN, and is still caught.)
      std::string d = bitwise_diff(p, args, copy);
      if (!d.empty()) {
        std::string ctl;
        for (size_t i = 0; i < args.size(); ++i)
          if (!std::holds_alternative<Buffer>(args[i]))
            ctl += " " + p.args()[i].name.name() + " = " + to_string(args[i]);
        failures.push_back(
            {seed, "emitted C compiled by " + compiler + " differs from the interpreter (" +
                       std::string(trial == 1   ? "integer data near its limits, "
                                   : trial == 3 ? "float data at its corners, "
                                                : "") +
                       "inputs seed " + std::to_string(seed * 4 + static_cast<uint64_t>(trial)) +
                       ":" + ctl + "): " + d + "\n" + to_string(p)});
        break;
      }
    }
  }
  return failures;
}

}  // namespace

std::vector<Failure> compile_and_compare(const std::vector<std::pair<uint64_t, Proc>>& procs,
                                         int* compiled) {
  std::vector<Failure> failures;
  std::vector<std::pair<uint64_t, Proc>> ok;
  for (const auto& sp : procs) {
    try {
      compile_procs_to_c({sp.second}, "soak_check");
      ok.push_back(sp);
    } catch (const CodegenError&) {
      // a located refusal is fine
    } catch (const std::exception& e) {
      failures.push_back({sp.first, std::string("emitting C threw a non-codegen error: ") +
                                        e.what() + "\n" + to_string(sp.second)});
    }
  }
  if (ok.empty()) return failures;
  // The batch is built by every compiler CompiledLibrary may use here: clang in process when the
  // JIT is built in, and the system compiler (gcc on Debian) always, so that both compilers'
  // handling of the emitted C's integer corners stays covered.
  std::vector<CompileOptions> compilers;
  const char* forced = std::getenv("EXOCPP_C_COMPILER");
  if (driver::c_jit_available() && !(forced && std::string(forced) == "system"))
    compilers.push_back({});
  compilers.push_back({.in_process = false});
  if (compiled) *compiled += static_cast<int>(ok.size());
  for (const CompileOptions& opts : compilers) {
    const std::string compiler = opts.in_process ? "clang in process" : "the system compiler";
    std::vector<Failure> found = compile_and_compare_with(ok, opts, compiler);
    failures.insert(failures.end(), found.begin(), found.end());
    if (!found.empty()) break;
  }
  return failures;
}

}  // namespace exocpp::fuzz
