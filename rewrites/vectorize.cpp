// ============================================================================================
// vectorize: Halide's vectorize, a loop strip-mined by the vector width and each statement of
// the strip turned into instructions of a hardware library, written only with primitives.
// ============================================================================================
//
// See rewrites/composites.h for the rewrite rule. Instruction selection is top-down: a strip
// `for xi in seq(0, w): s` is first offered whole to every instruction (replace unifies it with
// the instruction's body); when none takes it, the operands of s's right-hand side that are not
// yet registers are bound into registers of their own (bind_expr, expand_dim, lift_alloc,
// fission, set_memory), each of those strips is selected the same way, and s is offered again.
// A strip that no instruction takes and that has nothing left to bind is refused, naming it.
#include <algorithm>
#include <functional>
#include <optional>

#include "core/cursor_inspection.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/uses.h"
#include "rewrites/buffers.h"
#include "rewrites/composites.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/memories.h"
#include "rewrites/replace.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

// The expressions of statement `s`'s right-hand side equal to `e`.
std::vector<CursorLike> occurrences(const Cursor& s, const Expr& e) {
  std::vector<CursorLike> out;
  std::vector<Cursor> todo = {s.child(s.num_children() - 1)};
  while (!todo.empty()) {
    Cursor c = todo.back();
    todo.pop_back();
    if (expr_equal(c.expr(), e)) {
      out.push_back(c);
      continue;
    }
    for (int k = 0; k < c.num_children(); ++k) todo.push_back(c.child(k));
  }
  return out;
}

// Where the values a broadcast reads are bound: before the outermost statement holding `c` (a
// strip loop: never inside it, even when the strip itself is parallel) below the innermost
// parallel loop around it (the top-level statement when there is none).
// Inside a parallel loop the binding is a local of each iteration: one bound outside would be
// shared with the threads by reference, and the C compiler would load it again after every store
// that might alias it.
Cursor binding_point(const Cursor& c) {
  Cursor at = c;
  while (at.is_stmt() && !at.loc().block.empty()) {
    const Cursor up = at.parent();
    if (const ForNode* f = up.stmt().as<ForNode>(); f && is_parallel(f->mode)) break;
    at = up;
  }
  return at;
}

// Every occurrence of `e` in statement `s` (of a strip) bound once, before the loop nest
// (binding_point), into a one-element DRAM_STACK buffer `name` that a broadcast reads. Throws
// bind_expr's refusal when it cannot be bound there.
Proc bind_for_broadcast(const Proc& p, const Cursor& s, const Expr& e, const std::string& name) {
  Proc q = bind_expr(p, occurrences(s, e), name, binding_point(s.parent()));
  q = expand_dim(q, q.find(name + ": _"), "1", "0");
  return set_memory(q, q.find(name + ": _"), "DRAM_STACK");
}

class Vectorizer {
 public:
  Vectorizer(int width, std::string memory, const std::vector<Proc>& instructions)
      : width_(width), memory_(std::move(memory)), instructions_(instructions) {}

  // Lowers the strip whose only statement is `s`: `for xi in seq(0, w): s`.
  Proc lower(Proc p, const Cursor& s_in) {
    Cursor s = p.forward(s_in);
    if (Proc q; try_instructions(p, s.parent(), q)) return q;
    if (!s.stmt().as<AssignNode>() && !s.stmt().as<ReduceNode>())
      rw::fail(reason::kReplaceNoUnify, s,
               "no instruction in the list computes '" + first_line(s) +
                   "', and only an assignment or a reduction can be split into instructions");
    const Sym xi = s.parent().stmt().as<ForNode>()->iter;
    // A reduction of a product into a register (`acc += a * b`) is first offered to an
    // accumulate instruction (a multiply-add): its factors bound into registers. A reduction of
    // a product into memory along the lanes is first staged in a register, which then takes the
    // same path. When no instruction takes that form, the product is bound whole (below).
    if (std::optional<Proc> q = try_accumulate(p, s, xi)) return *q;
    // The operands to put in registers: the whole right-hand side of a store to memory or of a
    // reduction; the operands of an operation whose result goes to a register.
    const std::vector<std::vector<int>> operands = register_operands(p, s.stmt(), xi);
    if (operands.empty())
      rw::fail(reason::kReplaceNoUnify, s,
               "no instruction in the list computes '" + first_line(s) +
                   "' (an instruction that does not fit: its body must unify with this strip)");
    p = bind_operands(p, s, xi, operands);
    Cursor again = p.forward(s);
    if (Proc q; try_instructions(p, again.parent(), q)) return q;
    if (std::optional<Proc> q = stage_reduction(p, again, xi)) return *q;
    rw::fail(reason::kReplaceNoUnify, again,
             "no instruction in the list computes '" + first_line(again) +
                 "' (an instruction that does not fit: its body must unify with this strip)");
  }

  // Offers the strip whole to each instruction in turn; true (and the result in `out`) when one
  // takes it.
  bool try_instructions(const Proc& p, const Cursor& strip, Proc& out) {
    for (const Proc& ins : instructions_) {
      try {
        out = replace(p, strip, ins);
        return true;
      } catch (const SchedulingError& e) {
        // This instruction does not fit (NotProved); try the next. A condition the checker
        // could not decide, or a bad argument, is not a "no": it propagates.
        if (e.code() != ErrorCode::NotProved) throw;
      }
    }
    return false;
  }

 private:
  // The operands of `s` at `operands` (paths of child indices) each bound into a register of
  // its own, filled by a strip that is lowered in turn; a literal operand is bound once before
  // the loop nest into a one-element buffer, which a broadcast instruction then reads like any
  // other scalar.
  Proc bind_operands(Proc p, const Cursor& s, const Sym& xi,
                     const std::vector<std::vector<int>>& operands) {
    for (const std::vector<int>& k : operands)
      if (const Expr c = expr_at(p.forward(s).stmt(), k); c.as<ConstNode>())
        p = hoist_literal(p, p.forward(s), c);
    // Bind from the last operand to the first so the earlier ones' steps stay valid.
    for (auto k = operands.rbegin(); k != operands.rend(); ++k) {
      Cursor operand = p.forward(s);
      for (int step : *k) operand = operand.child(step);
      if (is_lane_read(p, operand.expr(), xi)) continue;  // an equal operand's register took it
      const std::string name = rw::unused_name(p, "v" + std::to_string(counter_++));
      // Every occurrence of the operand in the statement shares one register.
      p = bind_expr(p, occurrences(p.forward(s), operand.expr()), name);
      Cursor alloc = p.find(name + ": _");
      p = expand_dim(p, alloc, std::to_string(width_), xi.name());
      p = lift_alloc(p, p.find(name + ": _"));
      p = set_memory(p, p.find(name + ": _"), memory_);
      Cursor bound = p.find(name + " = _");
      p = fission(p, bound.after());
      p = lower(p, p.forward(bound));
    }
    return p;
  }

  // `acc += a * b` as an accumulate instruction: into a register, the factors bound into
  // registers and the strip offered again; into memory along the lanes, staged in a register
  // first (stage_reduction, which lowers the staged reduction through here). nullopt when `s`
  // is not such a reduction or no instruction takes it (nothing is kept of the attempt).
  std::optional<Proc> try_accumulate(const Proc& p, const Cursor& s, const Sym& xi) {
    const ReduceNode* r = s.stmt().as<ReduceNode>();
    const BinOpNode* product = r ? r->rhs.as<BinOpNode>() : nullptr;
    if (!product || product->op != BinOpKind::Mul) return std::nullopt;
    try {
      if (rw::mem_of(p, r->name) != memory_) return stage_reduction(p, s, xi);
      std::vector<std::vector<int>> factors;
      const int rhs = static_cast<int>(r->idx.size());
      for (int k : {0, 1})
        if (!is_lane_read(p, k == 0 ? product->lhs : product->rhs, xi)) factors.push_back({rhs, k});
      Proc q = bind_operands(p, s, xi, factors);
      if (Proc out; try_instructions(q, q.forward(s).parent(), out)) return out;
    } catch (const SchedulingError& e) {
      // A step of the attempt did not hold (NotProved): the product is bound whole instead. A
      // condition the checker could not decide is not a "no": it propagates.
      if (e.code() != ErrorCode::NotProved) throw;
    }
    return std::nullopt;
  }

  // A reduction into memory one of whose indices walks the lanes, `Y[.., e + xi] += v[xi]` or
  // `A[e + xi, j] += v[xi]`, that no instruction takes whole (none adds into memory): the w
  // elements it touches are staged in a register around the strip (stage_mem: a load strip, the
  // reduction into the register, a store strip), and each of the three strips is lowered in turn.
  // nullopt when `s` is not of that form.
  std::optional<Proc> stage_reduction(Proc p, const Cursor& s, const Sym& xi) {
    const ReduceNode* r = s.stmt().as<ReduceNode>();
    if (!r || r->idx.empty() || rw::mem_of(p, r->name) == memory_) return std::nullopt;
    // One index walks the lanes: xi itself, or e + xi with e free of xi (the last one of a
    // row-major buffer, the first of a column-major window); the others are free of xi.
    // xi, or a sum (or difference) in which xi is one added term and no other term mentions it.
    std::function<bool(const Expr&)> walks_lanes = [&](const Expr& e) {
      if (const ReadNode* rd = e.as<ReadNode>()) return rd->name == xi && rd->idx.empty();
      const BinOpNode* b = e.as<BinOpNode>();
      if (b && b->op == BinOpKind::Sub) return walks_lanes(b->lhs) && !mentions(b->rhs, xi);
      if (!b || b->op != BinOpKind::Add) return false;
      return (walks_lanes(b->lhs) && !mentions(b->rhs, xi)) ||
             (walks_lanes(b->rhs) && !mentions(b->lhs, xi));
    };
    std::string win = r->name.name() + "[";
    bool lanes_found = false;
    for (size_t d = 0; d < r->idx.size(); ++d) {
      const Expr& ix = r->idx[d];
      win += d ? ", " : "";
      if (!mentions(ix, xi)) {
        win += to_string(ix);
        continue;
      }
      if (!walks_lanes(ix) || lanes_found) return std::nullopt;
      lanes_found = true;
      const std::string lo = to_string(rw::substitute(ix, {{xi, rw::int_const(0)}}));
      win += lo + ":" + lo + " + " + std::to_string(width_);
    }
    win += "]";
    const std::string name = rw::unused_name(p, "acc" + std::to_string(counter_++));
    const Cursor strip = s.parent();
    p = stage_mem(p, strip, win, name);
    p = set_memory(p, p.find(name + ": _"), memory_);
    const Cursor staged = p.forward(strip);
    const Cursor load = staged.prev(), store = staged.next();
    if (!load.is_valid() || !store.is_valid() || !load.stmt().as<ForNode>() ||
        !store.stmt().as<ForNode>())
      return std::nullopt;
    p = lower(p, load.body()[0]);
    p = lower(p, p.forward(store).body()[0]);
    return lower(p, p.forward(staged).body()[0]);
  }

  // Binds every occurrence of literal `c` in statement `s` to a one-element DRAM_STACK buffer
  // set before the loop nest holding `s` (binding_point; bind_expr's hoisting form). Refused,
  // naming the literal, when bind_expr refuses (a literal not exact in every precision, such as
  // 0.1).
  Proc hoist_literal(const Proc& p, const Cursor& s, const Expr& c) {
    const std::string name = rw::unused_name(p, "c" + std::to_string(counter_++));
    try {
      return bind_for_broadcast(p, s, c, name);
    } catch (const SchedulingError& e) {
      if (e.code() != ErrorCode::NotProved) throw;
      rw::fail(reason::kReplaceNoUnify, s,
               "the literal '" + to_string(c) + "' in '" + first_line(s) +
                   "' must become a register, and it cannot be bound to a buffer a broadcast "
                   "reads: " +
                   e.reason());
    }
  }

  // The operands of assignment or reduction `s` that must be registers before an instruction
  // can take it (child steps below the statement): the whole right-hand side of a store to
  // memory or of a reduction (`acc[xi] += v[xi]`, a reduce_add_wide); the data operands, not
  // yet register lanes, of an operation whose result is assigned to a register.
  std::vector<std::vector<int>> register_operands(const Proc& p, const Stmt& s,
                                                  const Sym& xi) const {
    std::vector<std::vector<int>> out;
    const AssignNode* a = s.as<AssignNode>();
    const ReduceNode* r = s.as<ReduceNode>();
    const Sym& name = a ? a->name : r->name;
    const std::vector<Expr>& idx = a ? a->idx : r->idx;
    const Expr& value = a ? a->rhs : r->rhs;
    const int rhs = static_cast<int>(idx.size());
    if (r || !is_lane(p, name, idx, xi)) {
      if (!is_lane_read(p, value, xi)) out.push_back({rhs});
    } else if (value.as<BinOpNode>() || value.as<USubNode>() || value.as<ExternNode>()) {
      const std::vector<Expr> kids = expr_children(value);
      for (size_t k = 0; k < kids.size(); ++k)
        if (kids[k].type().is_data() && !is_lane_read(p, kids[k], xi))
          out.push_back({rhs, static_cast<int>(k)});
    }
    return out;
  }

  // `buf[idx]` is one lane of a register: buf lives in the vector memory, indexed by xi last.
  bool is_lane(const Proc& p, const Sym& buf, const std::vector<Expr>& idx, const Sym& xi) const {
    if (rw::mem_of(p, buf) != memory_ || idx.empty()) return false;
    const ReadNode* r = idx.back().as<ReadNode>();
    return r && r->name == xi;
  }
  bool is_lane_read(const Proc& p, const Expr& e, const Sym& xi) const {
    const ReadNode* r = e.as<ReadNode>();
    return r && is_lane(p, r->name, r->idx, xi);
  }
  static std::string first_line(const Cursor& s) {
    std::string t = to_string(s.stmt());
    return t.substr(0, t.find('\n'));
  }

  int width_;
  std::string memory_;
  const std::vector<Proc>& instructions_;
  int counter_ = 0;
};

// Buffer elements at constant indices that the strip's statements read (a filter's weights)
// are bound once before the loop nest holding the loop (binding_point; bind_expr with `before`,
// which proves nothing in between writes them), in one-element DRAM_STACK buffers: the
// broadcast of such an element then reads a local the C compiler keeps in a register, rather
// than memory that the strip's stores might alias. An element bind_expr will not hoist stays.
Proc hoist_invariant_elements(Proc q, const Cursor& strip) {
  std::vector<Cursor> stmts;
  const Cursor body = q.forward(strip).body();
  for (int k = 0; k < body.size(); ++k)
    if (body[k].stmt().as<AssignNode>() || body[k].stmt().as<ReduceNode>())
      stmts.push_back(body[k]);
  int counter = 0;
  for (const Cursor& st : stmts) {
    std::vector<Expr> elements;  // reads of one element at constant indices, each once
    const Stmt& node = q.forward(st).stmt();
    const std::vector<Expr> kids = expr_children(node);
    for_each_expr(kids.back(), [&](const Expr& e) {
      const ReadNode* n = e.as<ReadNode>();
      if (!n) return;
      bool constant = !n->idx.empty();
      for (const Expr& i : n->idx) constant = constant && i.as<ConstNode>();
      if (constant && std::none_of(elements.begin(), elements.end(),
                                   [&](const Expr& f) { return expr_equal(f, e); }))
        elements.push_back(e);
    });
    for (const Expr& e : elements) {
      const Cursor here = q.forward(st);
      const std::string name = rw::unused_name(q, "c" + std::to_string(counter++));
      try {
        q = bind_for_broadcast(q, here, e, name);
      } catch (const SchedulingError& err) {
        // written in between, or not visible there (NotProved): bound in the strip instead
        if (err.code() != ErrorCode::NotProved) throw;
      }
    }
  }
  return q;
}

}  // namespace

Proc vectorize(const Proc& p, const CursorLike& loop, int width, const std::string& memory,
               const std::vector<Proc>& instructions, const VectorizeOptions& opts) {
  return rw::run_op("vectorize", [&]() -> Proc {
    Cursor l = rw::resolve_loop(p, loop);
    if (width < 1) rw::fail(reason::kArgRange, l, "the width must be positive");
    if (instructions.empty()) rw::fail(reason::kArgInvalid, l, "expected at least one instruction");
    const std::string iter = l.stmt().as<ForNode>()->iter.name();
    const std::string outer = rw::unused_name(p, iter + "o"),
                      inner = rw::unused_name(p, iter + "i");
    DivideLoopOptions d;
    // A constant trip count that the width divides leaves no tail to cut.
    const Expr hi = l.stmt().as<ForNode>()->hi;
    const ConstNode* n = hi.as<ConstNode>();
    d.perfect = opts.perfect || (n && n->is_int() && n->int_val() % width == 0);
    d.tail = opts.tail;
    Proc q = divide_loop(p, l, width, {outer, inner}, d);
    Cursor strip = q.forward(l).body()[0];
    // A parallel loop's strips run in parallel (the outer loop keeps the mode); the lanes of a
    // strip run in order, as one vector does (any order of a par loop's iterations is allowed).
    if (is_parallel(strip.stmt().as<ForNode>()->mode)) q = set_loop_mode(q, strip, "seq");
    const ForNode* fs = q.forward(strip).stmt().as<ForNode>();
    // Locals of the body become registers of `width` lanes, allocated outside the strip.
    std::vector<Sym> locals;
    for (const Stmt& st : fs->body)
      if (const AllocNode* al = st.as<AllocNode>()) locals.push_back(al->name);
    for (const Sym& t : locals) {
      Cursor body = q.forward(strip).body(), al;
      for (int k = 0; k < body.size(); ++k)
        if (const AllocNode* an = body[k].stmt().as<AllocNode>(); an && an->name == t) al = body[k];
      q = expand_dim(q, al, std::to_string(width), inner);
      q = lift_alloc(q, q.forward(al));
      q = set_memory(q, q.forward(al), memory);
    }
    q = hoist_invariant_elements(q, strip);
    Vectorizer v(width, memory, instructions);
    // A strip of several statements that one instruction computes whole (a lane body with
    // data-dependent branches, such as nrm2's) becomes that instruction as it is.
    if (q.forward(strip).body().size() > 1)
      if (Proc whole; v.try_instructions(q, q.forward(strip), whole)) return whole;
    // Otherwise one strip per statement.
    std::vector<Cursor> stmts;
    Cursor body = q.forward(strip).body();
    for (int k = 0; k < body.size(); ++k) stmts.push_back(body[k]);
    for (size_t k = 0; k + 1 < stmts.size(); ++k) q = fission(q, q.forward(stmts[k]).after());
    for (const Cursor& s : stmts) q = v.lower(q, s);
    return q;
  });
}

}  // namespace exocpp
