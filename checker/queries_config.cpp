// Config-value queries (checker/queries_config.h): a walk along the proc's control flow that
// finds the last write of a config field before a point, or the first read or definite write
// after it. Syntactic and conservative; index equalities are decided by always_true (Z3).
#include "checker/queries_config.h"

#include <set>
#include <unordered_map>

#include "checker/conflict.h"
#include "checker/context.h"
#include "checker/effects.h"
#include "checker/encode.h"
#include "checker/queries.h"
#include "core/cursor.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/uses.h"

namespace exocpp::checker {
namespace {

// A config field by name, as the interpreter keys config state.
struct Field {
  std::string cfg, field;
  // What each callee does to the field, found once per query: walking a callee again at each
  // call would cost the number of paths through a call chain (exponential in its depth).
  mutable std::unordered_map<const ProcNode*, bool> callee_may_write{};
  mutable std::unordered_map<const ProcNode*, int> callee_first_event{};
  bool matches(const ConfigNode* c, const std::string& f) const {
    return c && c->name == cfg && f == field;
  }
  std::string str() const { return cfg + "." + field; }
};

bool expr_reads(const Expr& e, const Field& f) {
  if (!e.defined()) return false;
  if (const ReadConfigNode* rc = e.as<ReadConfigNode>())
    if (f.matches(rc->config.get(), rc->field)) return true;
  for (const Expr& c : expr_children(e))
    if (expr_reads(c, f)) return true;
  return false;
}

// Reads of the field by the expressions of `s` itself (not its nested statement lists).
bool header_reads(const Stmt& s, const Field& f) {
  for (const Expr& e : expr_children(s))
    if (expr_reads(e, f)) return true;
  if (const AllocNode* a = s.as<AllocNode>())
    for (const Expr& e : a->type.shape)
      if (expr_reads(e, f)) return true;
  return false;
}

bool stmt_may_write(const Stmt& s, const Field& f);
bool block_may_write(const Block& b, const Field& f) {
  for (const Stmt& s : b)
    if (stmt_may_write(s, f)) return true;
  return false;
}
bool stmt_may_write(const Stmt& s, const Field& f) {
  if (const WriteConfigNode* w = s.as<WriteConfigNode>())
    return f.matches(w->config.get(), w->field);
  if (const IfNode* i = s.as<IfNode>())
    return block_may_write(i->body, f) || block_may_write(i->orelse, f);
  if (const ForNode* l = s.as<ForNode>()) return block_may_write(l->body, f);
  if (const CallNode* c = s.as<CallNode>()) {
    auto it = f.callee_may_write.find(c->proc.get());
    if (it != f.callee_may_write.end()) return it->second;
    bool w = block_may_write(c->proc->body, f);
    f.callee_may_write.emplace(c->proc.get(), w);
    return w;
  }
  return false;
}

// What happens first to the field in a piece of code: nothing, a possible read, or a write
// that definitely replaces the value (before any read).
struct Event {
  enum Kind { None, Read, Kill };
  Kind kind = None;
  SrcInfo where;
};

Event first_event(const Block& b, const Field& f, const SrcInfo* call_site);
Event first_event(const Stmt& s, const Field& f, const SrcInfo* call_site) {
  const SrcInfo& here = call_site ? *call_site : s.srcinfo();
  if (header_reads(s, f)) return {Event::Read, here};
  if (const WriteConfigNode* w = s.as<WriteConfigNode>())
    return f.matches(w->config.get(), w->field) ? Event{Event::Kill, here} : Event{};
  if (const IfNode* i = s.as<IfNode>()) {
    Event b = first_event(i->body, f, call_site), o = first_event(i->orelse, f, call_site);
    if (b.kind == Event::Read) return b;
    if (o.kind == Event::Read) return o;
    if (b.kind == Event::Kill && o.kind == Event::Kill) return {Event::Kill, here};
    return {};
  }
  if (const ForNode* l = s.as<ForNode>()) {
    // The loop may run no iteration, so a write in its body does not definitely replace.
    Event b = first_event(l->body, f, call_site);
    return b.kind == Event::Read ? b : Event{};
  }
  if (const CallNode* c = s.as<CallNode>()) {
    for (const Expr& pred : c->proc->preds)
      if (expr_reads(pred, f)) return {Event::Read, here};
    // Inside a callee every event is reported at the outermost call, so its kind is all
    // that depends on the callee.
    auto it = f.callee_first_event.find(c->proc.get());
    if (it == f.callee_first_event.end())
      it = f.callee_first_event.emplace(c->proc.get(), first_event(c->proc->body, f, &here).kind)
               .first;
    Event::Kind k = static_cast<Event::Kind>(it->second);
    return k == Event::None ? Event{} : Event{k, here};
  }
  return {};
}
Event first_event(const Block& b, const Field& f, const SrcInfo* call_site) {
  for (const Stmt& s : b) {
    Event e = first_event(s, f, call_site);
    if (e.kind != Event::None) return e;
  }
  return {};
}

// Statements [lo, hi) of the list at `path`: code that runs between two points.
struct Segment {
  BlockPath path;
  int lo = 0, hi = 0;
};

// The buffers (roots) and config fields the right-hand side `rhs` of a write at (path, index)
// reads.
struct Inputs {
  std::set<Sym> buffers;
  std::set<std::pair<std::string, std::string>> fields;
};
Inputs inputs_of(const Proc& proc, const BlockPath& path, int index, const Expr& rhs) {
  struct V : IRVisitor {
    Context ctx;
    Inputs in;
    explicit V(Context c) : ctx(std::move(c)) {}
    void visit_Read(const ReadNode* n, const Expr& e) override {
      if (n->type.is_data()) in.buffers.insert(resolve(ctx, n->name, n->idx).buffer);
      IRVisitor::visit_Read(n, e);
    }
    void visit_ReadConfig(const ReadConfigNode* n, const Expr& e) override {
      in.fields.insert({n->config->name, n->field});
      IRVisitor::visit_ReadConfig(n, e);
    }
  } v(Context::at(proc, path, index));
  v.visit(rhs);
  return v.in;
}

// Unknown when code of `between` writes what `rhs` (written at wpath/windex) reads.
std::optional<Answer> inputs_changed(const Proc& proc, const BlockPath& wpath, int windex,
                                     const Expr& rhs, const std::vector<Segment>& between) {
  Inputs in = inputs_of(proc, wpath, windex, rhs);
  if (in.buffers.empty() && in.fields.empty()) return std::nullopt;
  for (const Segment& seg : between) {
    if (seg.lo >= seg.hi) continue;
    const Block& list = block_at(proc.body(), seg.path);
    Block code(list.begin() + seg.lo, list.begin() + seg.hi);
    Effects eff = effects_of(Context::at(proc, seg.path, seg.lo), code);
    for (const Access& a : eff.accesses) {
      if (a.kind == AccessKind::Read) continue;
      bool hit = a.is_config() ? in.fields.count({a.config->name, a.field}) > 0
                               : in.buffers.count(a.buffer) > 0;
      if (hit)
        return Answer::unknown_because("the code" + at_line(a.srcinfo) + " changes what '" +
                                           to_string(rhs) + "' reads after it is written",
                                       a.srcinfo);
    }
  }
  return std::nullopt;
}

}  // namespace

bool may_write_config(const Block& code, const Config& cfg, const std::string& field) {
  return block_may_write(code, Field{cfg->name, field});
}

namespace {

// The last write of a field before a gap whose value still holds there (nothing in between
// may write the field or change what its right-hand side reads), or why none is known.
struct LastWrite {
  const WriteConfigNode* write = nullptr;
  Stmt stmt;
  Answer why;          // when `write` is null
  bool entry = false;  // no write precedes: the field holds the value the proc was entered with
};
LastWrite last_write(const Proc& proc, const BlockPath& path, int index, const Field& f) {
  std::vector<Segment> between;
  BlockPath cur = path;
  int k = index;
  while (true) {
    const Block& blk = block_at(proc.body(), cur);
    for (int j = k - 1; j >= 0; --j) {
      const Stmt& s = blk[static_cast<size_t>(j)];
      const WriteConfigNode* w = s.as<WriteConfigNode>();
      if (!w || !f.matches(w->config.get(), w->field)) {
        if (stmt_may_write(s, f))
          return {
              nullptr,
              {},
              Answer::unknown_because(
                  "the statement" + at_line(s.srcinfo()) + " may write " + f.str(), s.srcinfo())};
        continue;
      }
      between.push_back({cur, j + 1, k});
      if (auto changed = inputs_changed(proc, cur, j, w->rhs, between))
        return {nullptr, {}, *changed};
      return {w, s, {}};
    }
    if (cur.empty())
      return {nullptr,
              {},
              Answer::unknown_because("no write of " + f.str() + " precedes this point in proc '" +
                                      proc.name() + "', so its value comes from the caller"),
              true};
    between.push_back({cur, 0, k});
    PathStep step = cur.back();
    cur.pop_back();
    const Stmt& parent = block_at(proc.body(), cur)[static_cast<size_t>(step.index)];
    if (const ForNode* loop = parent.as<ForNode>()) {
      if (block_may_write(loop->body, f))
        return {nullptr,
                {},
                Answer::unknown_because("the loop" + at_line(parent.srcinfo()) + " writes " +
                                            f.str() + ", so its value differs between iterations",
                                        parent.srcinfo())};
      // Every earlier iteration runs between a write before the loop and the point.
      BlockPath body = cur;
      body.push_back({step.index, BlockField::Body});
      between.push_back({body, 0, static_cast<int>(loop->body.size())});
    }
    k = step.index;
  }
}

}  // namespace

Answer config_holds(const Proc& proc, const BlockPath& path, int index, const Config& cfg,
                    const std::string& field, const Expr& value) {
  return guarded([&]() -> Answer {
    const Field f{cfg->name, field};
    LastWrite lw = last_write(proc, path, index, f);
    if (!lw.write) return lw.why;
    const WriteConfigNode* w = lw.write;
    const Stmt& s = lw.stmt;
    if (expr_equal(w->rhs, value)) return Answer::proof();
    std::string said =
        f.str() + " holds " + to_string(w->rhs) + " (written" + at_line(s.srcinfo()) + ")";
    const Type &ta = w->rhs.type(), &tb = value.type();
    if (ta.is_scalar() && tb.is_scalar() && is_indexable(ta.base) && is_indexable(tb.base)) {
      Answer eq = always_true(Context::at(proc, path, index),
                              BinOpNode::make(BinOpKind::Eq, w->rhs, value));
      if (eq.proved()) return eq;
      if (eq.refuted())
        return Answer::refutation(said + ", which is not always equal to " + to_string(value),
                                  eq.counterexample, s.srcinfo());
      return Answer::unknown_because(
          said + "; equality with " + to_string(value) + " is undecided: " + eq.reason,
          s.srcinfo());
    }
    return Answer::refutation(said + ", not " + to_string(value), "", s.srcinfo());
  });
}

Expr with_config_values(const Proc& proc, const BlockPath& path, int index, const Expr& e,
                        bool entry_values) {
  struct Sub : IRMutator {
    const Proc* proc;
    const BlockPath* path;
    int index;
    bool entry_values;
    Expr mutate_ReadConfig(const ReadConfigNode* n, const Expr& e) override {
      LastWrite lw = last_write(*proc, *path, index, Field{n->config->name, n->field});
      if (lw.write) return lw.write->rhs;
      return lw.entry && entry_values ? config_entry_value(*n) : e;
    }
  } sub;
  sub.proc = &proc;
  sub.path = &path;
  sub.index = index;
  sub.entry_values = entry_values;
  return sub.mutate(e);
}

Answer config_unread_after(const Proc& proc, const BlockPath& path, int index, const Config& cfg,
                           const std::string& field, bool* escapes) {
  const Field f{cfg->name, field};
  if (escapes) *escapes = false;
  BlockPath cur = path;
  int k = index;
  while (true) {
    const Block& blk = block_at(proc.body(), cur);
    Block rest(blk.begin() + k, blk.end());
    Event ev = first_event(rest, f, nullptr);
    if (ev.kind == Event::Read)
      return Answer::refutation(
          f.str() + " is read later",
          f.str() + " is read" + at_line(ev.where) + " before any write replaces it", ev.where);
    if (ev.kind == Event::Kill) return Answer::proof();
    if (cur.empty()) {
      if (escapes) *escapes = true;
      return Answer::proof();
    }
    PathStep step = cur.back();
    cur.pop_back();
    const Stmt& parent = block_at(proc.body(), cur)[static_cast<size_t>(step.index)];
    if (const ForNode* loop = parent.as<ForNode>()) {
      Event again = first_event(loop->body, f, nullptr);
      if (again.kind == Event::Read)
        return Answer::refutation(f.str() + " is read later",
                                  "a later iteration of the loop" + at_line(parent.srcinfo()) +
                                      " reads " + f.str() + at_line(again.where),
                                  again.where);
    }
    k = step.index + 1;
  }
}

namespace {

// The iterators of the loops inside `b`.
void inner_iters(const Block& b, std::vector<Sym>& out) {
  for (const Stmt& s : b) {
    if (const ForNode* l = s.as<ForNode>()) {
      out.push_back(l->iter);
      inner_iters(l->body, out);
    } else if (const IfNode* i = s.as<IfNode>()) {
      inner_iters(i->body, out);
      inner_iters(i->orelse, out);
    }
  }
}

// Does every execution of `b` (in `ctx`, outside the loop being split) write the field? A
// top-level write does; so does a top-level loop whose body does and whose bounds provably
// give it an iteration (bounds that mention an iterator of the split loop are not tried).
bool definitely_writes(const Context& ctx, const Block& b, const Field& f, const Sym& outer) {
  for (const Stmt& s : b) {
    if (const WriteConfigNode* w = s.as<WriteConfigNode>())
      if (f.matches(w->config.get(), w->field)) return true;
    if (const ForNode* l = s.as<ForNode>()) {
      if (mentions(l->lo, outer) || mentions(l->hi, outer)) continue;
      if (!definitely_writes(ctx, l->body, f, outer)) continue;
      if (always_true(ctx, BinOpNode::make(BinOpKind::Lt, l->lo, l->hi)).proved()) return true;
    }
  }
  return false;
}

// Every write of the field in `b` writes the same value as `first` (set to the first write
// found); false when a write differs or a callee may write the field.
bool writes_one_value(const Block& b, const Field& f, Stmt& first) {
  for (const Stmt& s : b) {
    if (const WriteConfigNode* w = s.as<WriteConfigNode>()) {
      if (!f.matches(w->config.get(), w->field)) continue;
      if (!first.defined()) first = s;
      if (!expr_equal(first.as<WriteConfigNode>()->rhs, w->rhs)) return false;
    } else if (const ForNode* l = s.as<ForNode>()) {
      if (!writes_one_value(l->body, f, first)) return false;
    } else if (const IfNode* i = s.as<IfNode>()) {
      if (!writes_one_value(i->body, f, first) || !writes_one_value(i->orelse, f, first))
        return false;
    } else if (s.is<CallNode>()) {
      if (stmt_may_write(s, f)) return false;
    }
  }
  return true;
}

// Does the value of config write `write` (valid in `ctx`) read a buffer or config field that
// `eff` writes or reduces into, or a name that `defs` defines?
bool reads_changed(const Context& ctx, const Stmt& write, const Effects& defs,
                   const std::vector<const Effects*>& eff) {
  const Expr& value = write.as<WriteConfigNode>()->rhs;
  struct Names : IRVisitor {
    std::vector<Sym> names;
    void visit_Read(const ReadNode* n, const Expr& e) override {
      names.push_back(n->name);
      IRVisitor::visit_Read(n, e);
    }
    void visit_WindowExpr(const WindowExprNode* n, const Expr& e) override {
      names.push_back(n->name);
      IRVisitor::visit_WindowExpr(n, e);
    }
  } names;
  names.visit(value);
  for (const Sym& s : names.names)
    if (defs.defines(s)) return true;
  Effects in = effects_of(ctx, write);
  for (const Access& r : in.accesses) {
    if (r.kind != AccessKind::Read) continue;
    for (const Effects* e : eff)
      for (const Access& a : e->accesses)
        if (a.kind != AccessKind::Read && a.same_location_as(r)) return true;
  }
  return false;
}

}  // namespace

std::vector<std::pair<Config, std::string>> config_fields_settled_before(
    const Context& ctx, const ForNode& loop, const Block& before, const Block& after,
    const Effects& eff_before, const Effects& eff_after) {
  std::vector<std::pair<Config, std::string>> out;
  std::vector<Sym> iters{loop.iter};
  inner_iters(before, iters);
  for (const Access& a : eff_before.accesses) {
    if (!a.is_config() || a.kind != AccessKind::Write) continue;
    bool seen = false;
    for (const auto& [c, fld] : out) seen = seen || (c == a.config && fld == a.field);
    if (seen) continue;
    const Field f{a.config->name, a.field};
    if (block_may_write(after, f)) continue;
    Stmt write;
    if (!writes_one_value(before, f, write) || !write.defined()) continue;
    bool varies = false;
    for (const Sym& it : iters) varies = varies || mentions(write.as<WriteConfigNode>()->rhs, it);
    if (varies || reads_changed(ctx, write, eff_before, {&eff_before, &eff_after})) continue;
    if (!definitely_writes(ctx, before, f, loop.iter)) continue;
    out.push_back({a.config, a.field});
  }
  return out;
}

}  // namespace exocpp::checker
