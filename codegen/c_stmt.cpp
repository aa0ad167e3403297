// C emission of one proc: its signature (the ABI), statements, allocations through memories,
// calls to other procs and the expansion of instruction templates.
#include <algorithm>
#include <optional>

#include "codegen/c_prelude.h"
#include "codegen/c_proc.h"
#include "codegen/c_types.h"
#include "core/cursor.h"
#include "core/interpreter.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/typecheck.h"
#include "core/uses.h"
#include "core/window_alias.h"

namespace exocpp::codegen {
namespace {

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t nl = s.find('\n', start);
    if (nl == std::string::npos) nl = s.size();
    out.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  while (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

// Fills `{name}` holes of an instruction template; other braces are left alone.
std::string fill_template(const std::string& tmpl,
                          const std::map<std::string, std::string>& holes) {
  std::string out;
  for (size_t i = 0; i < tmpl.size();) {
    if (tmpl[i] == '{') {
      size_t close = tmpl.find('}', i);
      if (close != std::string::npos) {
        auto it = holes.find(tmpl.substr(i + 1, close - i - 1));
        if (it != holes.end()) {
          out += it->second;
          i = close + 1;
          continue;
        }
      }
    }
    out += tmpl[i++];
  }
  return out;
}

// Calls `f` on each comparison of the conjunction `e` (`a and b and ...`).
template <typename F>
void for_each_conjunct(const Expr& e, const F& f) {
  const BinOpNode* b = e.as<BinOpNode>();
  if (!b) return;
  if (b->op == BinOpKind::And) {
    for_each_conjunct(b->lhs, f);
    for_each_conjunct(b->rhs, f);
    return;
  }
  f(b);
}

// Adds to `out` the control variables that the comparison `b`, asserted, keeps non-negative:
// `x >= c`, `x > c - 1`, `c <= x`, `c - 1 < x` with c >= 0.
void nonneg_by_assert(const BinOpNode* b, std::set<uint64_t>& out) {
  auto bound = [&](const Expr& var, const Expr& lim, int64_t least) {
    const ReadNode* r = var.as<ReadNode>();
    const ConstNode* c = lim.as<ConstNode>();
    if (r && r->idx.empty() && c && c->int_val() >= least) out.insert(r->name.id());
  };
  switch (b->op) {
    case BinOpKind::Ge:
      bound(b->lhs, b->rhs, 0);
      return;
    case BinOpKind::Gt:
      bound(b->lhs, b->rhs, -1);
      return;
    case BinOpKind::Le:
      bound(b->rhs, b->lhs, 0);
      return;
    case BinOpKind::Lt:
      bound(b->rhs, b->lhs, -1);
      return;
    default:
      return;
  }
}

}  // namespace

// Whether C text `text` contains identifier `id` as a whole token.
bool mentions_token(const std::string& text, const std::string& id) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t pos = text.find(id); pos != std::string::npos; pos = text.find(id, pos + 1)) {
    bool left = pos == 0 || !ident(text[pos - 1]);
    bool right = pos + id.size() >= text.size() || !ident(text[pos + id.size()]);
    if (left && right) return true;
  }
  return false;
}

void Globals::add(const std::string& g) {
  if (g.empty() || std::find(items.begin(), items.end(), g) != items.end()) return;
  items.push_back(g);
}

// Adds to `out` (buffer id -> dimension -> stride) the stride the comparison `b`, asserted,
// fixes to a constant: `stride(x, d) == c` or `c == stride(x, d)`.
void strides_by_assert(const BinOpNode* b, std::map<uint64_t, std::map<int, int64_t>>& out) {
  if (b->op != BinOpKind::Eq) return;
  for (const auto& [lhs, rhs] : {std::pair{b->lhs, b->rhs}, std::pair{b->rhs, b->lhs}}) {
    const StrideExprNode* s = lhs.as<StrideExprNode>();
    const ConstNode* c = rhs.as<ConstNode>();
    if (s && c) out[s->name.id()][s->dim] = c->int_val();
  }
}

ProcEmitter::ProcEmitter(const Proc& p, const std::string& lib_name, const WrittenParams& written,
                         Globals& globals, const std::set<std::string>& reserved)
    : proc_(p), lib_(lib_name), written_(written), g_(globals), used_names_(reserved) {
  // Symbols the body names, and those it reads (everything but the target of a store).
  Uses uses = uses_of(p.body());
  for (const Sym& s : uses.read) mentioned_.insert(s.id()), read_syms_.insert(s.id());
  for (const Sym& s : uses.written) mentioned_.insert(s.id());
  for (const Sym& s : uses.reduced) read_syms_.insert(s.id());
  for (const FnArg& a : p.args()) declare(a.name);
  auto w = written_.find(p.get());
  std::set<uint64_t> asserted_nonneg;
  std::map<uint64_t, std::map<int, int64_t>> asserted_strides;
  for (const Expr& pred : p.preds())
    for_each_conjunct(pred, [&](const BinOpNode* b) {
      nonneg_by_assert(b, asserted_nonneg);
      strides_by_assert(b, asserted_strides);
    });
  for (const FnArg& a : p.args()) {
    BufInfo b;
    b.cname = names_.at(a.name.id());
    b.elem = a.type.base;
    if (a.type.is_control()) {
      // Sizes, and an index or int the asserts keep non-negative, are divided with plain C
      // `/` and `%` (Exo's golden test_mul_mod_*_parens).
      if (a.type.base == ScalarKind::Size || asserted_nonneg.count(a.name.id()))
        nonneg_.insert(a.name.id());
      arg_info_.push_back(b);
      continue;
    }
    b.mem = a.mem.empty() ? "DRAM" : a.mem;
    b.memory = find_memory(b.mem);
    if (!b.memory)
      throw CodegenError(a.srcinfo, "argument '" + a.name.name() + "' of proc '" + p.name() +
                                        "' is in memory " + b.mem + ", which is not registered");
    b.is_const = w == written_.end() || w->second.count(a.name.id()) == 0;
    if (a.type.is_scalar()) {
      b.kind = BufInfo::Kind::ScalarArg;
    } else {
      b.kind = a.type.window ? BufInfo::Kind::Window : BufInfo::Kind::Tensor;
      if (a.type.window) b.asserted_strides = asserted_strides[a.name.id()];
      for (const Expr& e : a.type.shape) b.shape.push_back(expr(e).text);
    }
    bufs_[a.name.id()] = b;
    arg_info_.push_back(b);
  }
}

namespace {
// Whether evaluating `e` reads a config field.
bool reads_config(const Expr& e) {
  if (!e.defined()) return false;
  if (e.is<ReadConfigNode>()) return true;
  for (const Expr& c : expr_children(e))
    if (reads_config(c)) return true;
  return false;
}
}  // namespace

std::string ProcEmitter::declare(const Sym& s) {
  std::string base = s.name();
  if (!is_c_identifier(base)) base = "v";
  // A name reserved by its prefix (`_x`, `EOF`, `exo_x`) stays reserved with a suffix.
  if (!c_name_clash(base).empty() && !c_name_clash(base + "_1").empty()) base = "v_" + base;
  std::string n = base;
  for (int k = 1; used_names_.count(n) || !c_name_clash(n).empty(); ++k)
    n = base + "_" + std::to_string(k);
  used_names_.insert(n);
  names_[s.id()] = n;
  return n;
}

const std::string& ProcEmitter::name_of(const Sym& s, const SrcInfo& where) const {
  auto it = names_.find(s.id());
  if (it == names_.end())
    throw CodegenError(
        where, "'" + s.name() + "' is not defined at this point of proc '" + proc_.name() + "'");
  return it->second;
}

std::string ProcEmitter::signature(bool is_static) const {
  const char* ret = has_index_args(*proc_.get()) ? "int " : "void ";
  std::string s = std::string(is_static ? "static " : "") + ret + proc_.name() + "(void *ctxt";
  for (size_t i = 0; i < proc_.args().size(); ++i) {
    const FnArg& a = proc_.args()[i];
    const BufInfo& b = arg_info_[i];
    s += ", ";
    if (a.type.is_control())
      s += c_type(a.type.base) + " " + b.cname;
    else if (b.kind == BufInfo::Kind::Window)
      s += window_struct_name(b.rank(), b.elem, b.is_const) + " " + b.cname;
    else
      s += std::string(b.is_const ? "const " : "") + c_type(b.elem) + " *" + b.cname;
  }
  return s + ")";
}

std::string ProcEmitter::definition(bool is_static) {
  for (const BufInfo& b : arg_info_)
    if (b.kind == BufInfo::Kind::Window && b.memory)
      g_.windows.insert({b.rank(), b.elem == ScalarKind::R ? ScalarKind::F32 : b.elem, b.is_const});
  for (const BufInfo& b : arg_info_)
    if (b.memory) g_.add(b.memory->global());
  out_.clear();
  block(proc_.body());
  std::string pre;
  for (const Expr& e : proc_.preds()) pre += "    // assert " + to_string(e) + "\n";
  if (uses_ctx_)
    pre += "    struct " + lib_ + "_Context *ctx = (struct " + lib_ + "_Context *)ctxt;\n";
  else if (!ctxt_used_)
    pre += "    (void)ctxt;\n";
  const std::string checks = index_arg_checks();
  for (const FnArg& a : proc_.args())
    if (!mentions_token(out_ + checks, names_.at(a.name.id())))
      pre += "    (void)" + names_.at(a.name.id()) + ";\n";
  if (checks.empty()) return signature(is_static) + " {\n" + pre + out_ + "}\n";
  return signature(is_static) + " {\n" + pre + checks + out_ + "    return 0;\n}\n";
}

// Every value of every index argument in its declared range before anything runs, or the
// function returns the argument's position (1-based) and writes nothing (docs/language.md).
std::string ProcEmitter::index_arg_checks() {
  std::string out;
  for (size_t i = 0; i < proc_.args().size(); ++i) {
    const FnArg& a = proc_.args()[i];
    if (!a.range) continue;
    const std::string name = arg_info_[i].cname, pos = std::to_string(i + 1);
    const std::string lo = "(int_fast64_t)(" + expr(a.range->lo).text + ")";
    const std::string hi = "(int_fast64_t)(" + expr(a.range->hi).text + ")";
    if (a.type.is_scalar()) {
      out += "    if (!(*" + name + " >= " + lo + " && *" + name + " < " + hi + ")) return " + pos +
             ";\n";
      continue;
    }
    std::string count = "(int_fast64_t)1";
    for (const Expr& d : a.type.shape) count += " * (int_fast64_t)(" + expr(d).text + ")";
    // The smallest and the largest value, then one comparison each: a min/max reduction the C
    // compiler vectorizes, where a loop that returns early would stay scalar.
    const std::string t = c_type(a.type.base);
    out += "    if (" + count + " > 0) {\n";
    out += "        " + t + " exo_min = " + name + "[0], exo_max = " + name + "[0];\n";
    // A proc whose loops run on threads checks on them too (the check would be the serial part).
    if (has_par_)
      out +=
          "#ifdef _OPENMP\n        #pragma omp parallel for reduction(min : exo_min) "
          "reduction(max : exo_max)\n#endif\n";
    out += "        for (int_fast64_t exo_k = 1; exo_k < " + count + "; exo_k++) {\n";
    out += "            exo_min = " + name + "[exo_k] < exo_min ? " + name + "[exo_k] : exo_min;\n";
    out += "            exo_max = " + name + "[exo_k] > exo_max ? " + name + "[exo_k] : exo_max;\n";
    out += "        }\n";
    out += "        if (!(exo_min >= " + lo + " && exo_max < " + hi + ")) return " + pos + ";\n";
    out += "    }\n";
  }
  return out;
}

void ProcEmitter::line(const std::string& text) {
  out_ += std::string(static_cast<size_t>(indent_) * 4, ' ') + text + "\n";
}

namespace {

// For each statement of `b` that allocates a buffer, the index of the last statement of `b`
// that uses it: directly, or through a window statement of `b` onto it (or onto such a window).
// The names a window statement's bounds read do not count: its C struct is computed there.
std::map<size_t, size_t> last_uses(const Block& b) {
  WindowAliases windows;            // the window statements of b before statement k
  std::map<uint64_t, size_t> last;  // buffer -> last statement using it
  for (size_t k = 0; k < b.size(); ++k) {
    Uses uses = uses_of(b[k]);
    for (const std::set<Sym>* names : {&uses.read, &uses.written})
      for (const Sym& s : *names)
        for (const Sym& n : windows.chain(s)) last[n.id()] = k;
    if (const WindowStmtNode* w = b[k].as<WindowStmtNode>())
      if (const WindowExprNode* rhs = w->rhs.as<WindowExprNode>()) windows.bind(w->name, *rhs);
  }
  std::map<size_t, size_t> out;
  for (size_t k = 0; k < b.size(); ++k)
    if (const AllocNode* a = b[k].as<AllocNode>()) {
      auto it = last.find(a->name.id());
      out[k] = it == last.end() || it->second < k ? k : it->second;
    }
  return out;
}

}  // namespace

void ProcEmitter::block(const Block& b) {
  // Names declared in this block are free again after it (sibling loops may both use `i`).
  std::set<std::string> outer_names = used_names_;
  // A buffer is freed right after the last statement of its block that uses it, as Exo's
  // MemoryAnalysis places frees, and the memory's free() is asked there: a memory with few
  // registers (Exo's MOCK test memory) sees each buffer's real lifetime, so a sibling allocated
  // after another one's last use may reuse its register. Several buffers dying at one statement
  // are freed in reverse allocation order.
  std::map<size_t, size_t> last = last_uses(b);
  std::map<size_t, std::vector<PendingFree>> frees;  // statement index -> buffers freed after it
  for (size_t k = 0; k < b.size(); ++k) {
    if (const AllocNode* a = b[k].as<AllocNode>()) {
      std::optional<PendingFree> f = alloc(a, b[k]);
      if (f) frees[last.at(k)].push_back(std::move(*f));
    } else {
      stmt(b[k]);
    }
    auto it = frees.find(k);
    if (it == frees.end()) continue;
    for (auto f = it->second.rbegin(); f != it->second.rend(); ++f)
      for (const std::string& l :
           split_lines(f->memory->free(f->cname, f->ctype, f->shape, f->where)))
        line(l);
  }
  used_names_ = std::move(outer_names);
}

void ProcEmitter::stmt(const Stmt& s) {
  switch (s.kind()) {
    case StmtKind::Assign:
    case StmtKind::Reduce: {
      const bool red = s.kind() == StmtKind::Reduce;
      const Sym& name = red ? s.as<ReduceNode>()->name : s.as<AssignNode>()->name;
      const std::vector<Expr>& idx = red ? s.as<ReduceNode>()->idx : s.as<AssignNode>()->idx;
      const Expr& rhs = red ? s.as<ReduceNode>()->rhs : s.as<AssignNode>()->rhs;
      ScalarKind k = red ? s.as<ReduceNode>()->type : s.as<AssignNode>()->type;
      std::string lhs = access(name, idx, s.srcinfo(), true);
      data_ctx_ = k == ScalarKind::R ? ScalarKind::F32 : k;
      line(store(lhs, red, k, rhs) + ";");
      return;
    }
    case StmtKind::WriteConfig: {
      const WriteConfigNode* n = s.as<WriteConfigNode>();
      const ConfigField* f = n->config->field(n->field);
      if (!f)
        throw CodegenError(s.srcinfo(),
                           "config " + n->config->name + " has no field '" + n->field + "'");
      data_ctx_ = is_data(f->type) && f->type != ScalarKind::R ? f->type : ScalarKind::F32;
      std::string lhs = "ctx->" + n->config->name + "." + n->field;
      line((is_data(f->type) ? store(lhs, false, f->type, n->rhs)
                             : lhs + " = " + expr(n->rhs).text) +
           ";");
      uses_ctx_ = true;
      return;
    }
    case StmtKind::Pass:
      line("// pass");
      return;
    case StmtKind::If: {
      const IfNode* n = s.as<IfNode>();
      line("if (" + expr(n->cond).text + ") {");
      ++indent_;
      block(n->body);
      --indent_;
      if (!n->orelse.empty()) {
        line("} else {");
        ++indent_;
        block(n->orelse);
        --indent_;
      }
      line("}");
      return;
    }
    case StmtKind::For: {
      const ForNode* n = s.as<ForNode>();
      if (is_cuda(n->mode) && !g_.cuda)
        throw CodegenError(s.srcinfo(), "loop '" + n->iter.name() + "' is a " + to_string(n->mode) +
                                            " loop: a proc with CUDA kernels is emitted as CUDA "
                                            "(emit_cuda), not as C");
      if (n->mode == LoopMode::CudaBlocks && !in_kernel_) return kernel(n, s);
      if (is_cuda_lane(n->mode)) return lane_loop(n, s);
      std::string lo = expr(n->lo).text, hi = expr(n->hi).text;
      std::set<std::string> outer_names = used_names_;  // the iterator's name ends with the loop
      // The interpreter evaluates a loop's bounds once, before the first iteration; C's `for`
      // tests its condition before every one. A bound that reads a config field, which the body
      // may write, is evaluated once into a local first, as the interpreter does.
      bool bound_once = reads_config(n->hi);
      if (bound_once) {
        std::string end = declare(Sym(n->iter.name() + "_end"));
        line("{");
        ++indent_;
        line("int_fast32_t " + end + " = " + hi + ";");
        hi = end;
      }
      std::string i = declare(n->iter);
      if (nonneg(n->lo)) nonneg_.insert(n->iter.id());
      if (n->mode == LoopMode::Par) {
        if (std::optional<SharedAlloc> sh = shared_alloc_in(n->body))
          throw CodegenError(
              sh->at.srcinfo(),
              "the par loop over '" + n->iter.name() + "' (" + s.srcinfo().to_string() +
                  ") allocates " + sh->what +
                  " in static storage, one array shared by all its threads: a "
                  "data race; allocate it in DRAM or DRAM_STACK, or make the loop seq");
        g_.omp = true;
        has_par_ = true;
        out_ += "#ifdef _OPENMP\n" + std::string(static_cast<size_t>(indent_) * 4, ' ') +
                "#pragma omp parallel for\n#endif\n";
      }
      line("for (int_fast32_t " + i + " = " + lo + "; " + i + " < " + hi + "; " + i + "++) {");
      ++indent_;
      block(n->body);
      --indent_;
      line("}");
      if (bound_once) {
        --indent_;
        line("}");
      }
      used_names_ = std::move(outer_names);
      return;
    }
    case StmtKind::Alloc:
      // Allocations are statements of a block (block() frees them); a lone one lives on.
      alloc(s.as<AllocNode>(), s);
      return;
    case StmtKind::Call:
      if (s.as<CallNode>()->proc->instr)
        instr_call(s.as<CallNode>(), s);
      else
        call(s.as<CallNode>(), s);
      return;
    case StmtKind::WindowStmt:
      window_stmt(s.as<WindowStmtNode>(), s);
      return;
  }
}

// The interpreter's stores round the value once to the target's precision; a reduction adds the
// old value exactly (in double) first. C's `x += e` would instead round the sum in the operands'
// type (f32 for an f32 value reduced into an i32 or f64 buffer) and convert out-of-range floats
// to integers with undefined behaviour, so reductions across precisions and into integers are
// spelled out, and every conversion to an integer precision goes through the prelude.
std::string ProcEmitter::store(const std::string& lhs, bool reduce, ScalarKind target,
                               const Expr& rhs) {
  auto norm = [](ScalarKind k) { return k == ScalarKind::R ? ScalarKind::F32 : k; };
  const ScalarKind to = norm(target);
  // A literal or literal-only value is computed in the target's precision (data_kind_in); an
  // integer literal (expression) stored to an integer stays a C int, which fits (type checker).
  ScalarKind from = norm(data_kind_in(rhs, to));
  if (!is_data(rhs.type().base) && !is_float(to)) from = rhs.type().base;
  // Integer arithmetic of any precision yields an int32_t in C (the interpreter's 32-bit value):
  // only reads and literals hold a value of their own type.
  if (is_data(from) && !is_float(from) && !rhs.is<ReadNode>() && !rhs.is<ConstNode>() &&
      !rhs.is<ReadConfigNode>())
    from = ScalarKind::I32;
  const std::string v = data(rhs).text;
  const bool int_to = !is_float(to), int_from = !is_float(from);
  if (to == ScalarKind::BF16) {
    // The value (a float for f32 and bf16, else a double or an int) rounded once to bf16; a
    // reduction adds in double first, as the interpreter does.
    const bool in_float = from == ScalarKind::F32 || from == ScalarKind::BF16;
    if (!reduce)
      return lhs + " = " +
             (in_float ? "exo_bf16_from_float(" + v + ")"
                       : "exo_bf16_from_double((double)(" + v + "))");
    return lhs + " = exo_bf16_from_double((double)exo_bf16_to_float(" + lhs + ") + (double)(" + v +
           "))";
  }
  if (!reduce) return lhs + " = " + (int_to ? int_conversion(v, from, to, g_.helpers) : v);
  if (int_to && int_from)  // int32 wrap-around, then the target's width
    return lhs + " = " +
           int_conversion(int_binop(BinOpKind::Add, lhs, v, g_.helpers), ScalarKind::I32, to,
                          g_.helpers);
  // Same float precision (or a literal, spelled in it): one rounding either way.
  if (from == to || (!is_data(from) && !int_to)) return lhs + " += " + v;
  std::string sum = "(double)" + lhs + " + (double)(" + v + ")";
  if (int_to) return lhs + " = " + int_conversion(sum, ScalarKind::F64, to, g_.helpers);
  return lhs + " = (" + c_type(to) + ")(" + sum + ")";
}

std::optional<ProcEmitter::PendingFree> ProcEmitter::alloc(const AllocNode* n, const Stmt& s) {
  const Memory* mem = find_memory(n->mem);
  if (!mem)
    throw CodegenError(s.srcinfo(), "allocation of '" + n->name.name() + "' in memory " + n->mem +
                                        ", which is not registered");
  if (std::string why = static_alloc_problem(*n); !why.empty())
    throw CodegenError(s.srcinfo(), why);
  BufInfo b;
  b.elem = n->type.base;
  b.mem = n->mem;
  b.memory = mem;
  for (const Expr& e : n->type.shape) b.shape.push_back(expr(e).text);
  if (auto d = distributed_dims_.find(n->name.id()); in_kernel_ && d != distributed_dims_.end()) {
    b.distributed = std::min(d->second, b.rank());
    b.shape.erase(b.shape.begin(), b.shape.begin() + b.distributed);
  }
  b.kind = b.shape.empty() ? BufInfo::Kind::ScalarLocal : BufInfo::Kind::Tensor;
  if (auto at = dynamic_shared_offsets_.find(n->name.id());
      in_kernel_ && at != dynamic_shared_offsets_.end()) {
    // An array the kernel's layout placed in its dynamic shared memory (cuda_kernel.cpp).
    b.kind = BufInfo::Kind::Tensor;
    b.cname = declare(n->name);
    g_.add(mem->global());
    line(c_type(b.elem) + " *" + b.cname + " = (" + c_type(b.elem) +
         " *)(exocpp_dynamic_shared + " + std::to_string(at->second) + ");");
    if (!read_syms_.count(n->name.id())) line("(void)" + b.cname + ";");
    bufs_[n->name.id()] = std::move(b);
    return std::nullopt;
  }
  if (!mentioned_.count(n->name.id())) {
    // The memory may refuse the shape; it sees the buffer freed at once, as it is dead at once.
    mem->alloc(n->name.name(), c_type(b.elem), b.shape, s.srcinfo());
    mem->free(n->name.name(), c_type(b.elem), b.shape, s.srcinfo());
    line("// " + n->name.name() + ": unused, not allocated");
    return std::nullopt;
  }
  b.cname = declare(n->name);
  g_.add(mem->global());
  for (const std::string& l :
       split_lines(mem->alloc(b.cname, c_type(b.elem), b.shape, s.srcinfo())))
    line(l);
  // Written but never read (compilers warn on set-but-unused variables).
  if (!read_syms_.count(n->name.id())) line("(void)" + b.cname + ";");
  PendingFree f{mem, b.cname, c_type(b.elem), b.shape, s.srcinfo()};
  bufs_[n->name.id()] = std::move(b);
  return f;
}

std::string ProcEmitter::call_arg(const FnArg& param, const Expr& arg, bool param_written,
                                  const SrcInfo& where) {
  if (param.type.window) {
    if (const ReadNode* r = arg.as<ReadNode>(); r && r->idx.empty()) {
      BufInfo& b = buf(r->name, where);
      if (b.kind == BufInfo::Kind::Window && b.is_const == !param_written) return b.cname;
    }
    return window_struct(window_parts(arg), !param_written, where);
  }
  if (param.type.is_tensor_or_window()) {
    if (const ReadNode* r = arg.as<ReadNode>(); r && r->idx.empty()) {
      BufInfo& b = buf(r->name, where);
      if (b.kind == BufInfo::Kind::Tensor) return b.cname;
    }
    WindowParts w = window_parts(arg);
    if (!w.buf->memory->addressable())
      throw CodegenError(where, "'" + w.buf->cname + "' lives in memory " + w.buf->mem +
                                    ", which cannot be addressed by pointer");
    return "&" + w.origin;
  }
  // A scalar data parameter: passed by pointer.
  if (const ReadNode* r = arg.as<ReadNode>()) {
    BufInfo& b = buf(r->name, where);
    if (r->idx.empty() && b.kind == BufInfo::Kind::ScalarArg) return b.cname;
    if (!b.memory->addressable())
      throw CodegenError(where, "'" + r->name.name() + "' lives in memory " + b.mem +
                                    ", which cannot be addressed by pointer");
    return "&" + access(r->name, r->idx, where, false);
  }
  throw CodegenError(
      where,
      "argument '" + param.name.name() +
          "' is a data scalar passed by reference: give a buffer element, not an expression");
}

void ProcEmitter::call(const CallNode* n, const Stmt& s) {
  const ProcNode& callee = *n->proc;
  if (n->args.size() != callee.args.size())
    throw CodegenError(s.srcinfo(),
                       "call to '" + callee.name + "' with " + std::to_string(n->args.size()) +
                           " arguments, but it takes " + std::to_string(callee.args.size()));
  auto w = written_.find(n->proc.get());
  std::string text = callee.name + "(ctxt";
  for (size_t i = 0; i < n->args.size(); ++i) {
    const FnArg& param = callee.args[i];
    text += ", ";
    if (param.type.is_control()) {
      text += expr(n->args[i]).text;
      continue;
    }
    bool pw = w != written_.end() && w->second.count(param.name.id());
    // A window given for a tensor parameter (a plain pointer) was proved dense before emission
    // (driver/lower.cpp): a pointer to its first element stands for it.
    text += call_arg(param, n->args[i], pw, s.srcinfo());
  }
  ctxt_used_ = true;
  // A callee with index arguments returns whether their values were in range; the checker
  // proved at this call that they are (the caller's range lies in the callee's), so the
  // answer is known and dropped (no return can leave an OpenMP region anyway).
  line(has_index_args(callee) ? "(void)" + text + ");" : text + ");");
}

namespace {

// An instruction's template addresses its buffer parameters as memory `param.mem` does, so an
// argument in another memory is passed only where the two address elements alike: both plain
// pointers that plain code reads, in one place on the device (DRAM_STACK for DRAM,
// CUDA_SHARED_DYN for CUDA_SHARED). A register array handed to a shared-memory copy, or a
// fragment of one kind to another's instruction, is refused here instead of miscompiling.
void require_instr_memory(const ProcNode& ins, const FnArg& param, const BufInfo& arg,
                          const SrcInfo& where) {
  if (arg.mem == param.mem) return;
  const Memory* pm = find_memory(param.mem);
  const Memory* am = arg.memory;
  const bool alike = pm != nullptr && am != nullptr && pm->addressable() && am->addressable() &&
                     pm->can_read() && am->can_read() && pm->device_scope() == am->device_scope();
  if (!alike)
    throw CodegenError(where, "instruction '" + ins.name + "' takes parameter '" +
                                  param.name.name() + "' in memory " + param.mem +
                                  ", but the argument lives in " + arg.mem +
                                  ", which it would address differently");
}

}  // namespace

void ProcEmitter::instr_call(const CallNode* n, const Stmt& s) {
  const ProcNode& ins = *n->proc;
  if (n->args.size() != ins.args.size())
    throw CodegenError(s.srcinfo(),
                       "call to '" + ins.name + "' with " + std::to_string(n->args.size()) +
                           " arguments, but it takes " + std::to_string(ins.args.size()));
  const std::string& tmpl = ins.instr->c_instr;
  std::map<std::string, std::string> holes;
  for (size_t i = 0; i < n->args.size(); ++i) {
    const FnArg& param = ins.args[i];
    const std::string& pn = param.name.name();
    const Expr& arg = n->args[i];
    if (param.type.is_control()) {
      holes[pn] = expr(arg).text;
      continue;
    }
    const ReadNode* r = arg.as<ReadNode>();
    bool whole = r && r->idx.empty() && bufs_.count(r->name.id()) &&
                 bufs_.at(r->name.id()).kind != BufInfo::Kind::ScalarArg &&
                 bufs_.at(r->name.id()).kind != BufInfo::Kind::ScalarLocal;
    if (arg.is<WindowExprNode>() || whole) {
      WindowParts w = window_parts(arg);
      require_instr_memory(ins, param, *w.buf, s.srcinfo());
      holes[pn + "_data"] = w.origin;
      holes[pn + "_base"] = w.base;
      holes[pn + "_offset"] = w.offset;
      for (size_t k = 0; k < w.strides.size(); ++k)
        holes[pn + "_stride" + std::to_string(k)] = w.strides[k];
      if (tmpl.find("{" + pn + "}") != std::string::npos) {
        auto pw = written_.find(n->proc.get());
        bool written = pw != written_.end() && pw->second.count(param.name.id());
        holes[pn] = window_struct(w, !written, s.srcinfo());
      }
    } else if (r) {
      std::string a = access(r->name, r->idx, s.srcinfo(), false);
      holes[pn] = holes[pn + "_data"] = a;
    } else {
      // A data value: computed as the interpreter passes it, in the parameter's precision
      // where it is a literal or literal-only.
      data_ctx_ = param.type.base == ScalarKind::R ? ScalarKind::F32 : param.type.base;
      holes[pn] = holes[pn + "_data"] = data(arg).text;
    }
  }
  g_.add(ins.instr->c_global);
  for (const std::string& l : split_lines(fill_template(tmpl, holes))) line(l);
}

void ProcEmitter::window_stmt(const WindowStmtNode* n, const Stmt& s) {
  if (!mentioned_.count(n->name.id()))
    return;  // an unused view emits nothing (a written one is used)
  WindowParts w = window_parts(n->rhs);
  BufInfo b;
  b.kind = BufInfo::Kind::Window;
  b.elem = w.buf->elem;
  b.mem = w.buf->mem;
  b.memory = w.buf->memory;
  b.is_const = w.buf->is_const;
  b.shape.assign(static_cast<size_t>(w.rank), "");
  std::string init = window_struct(w, b.is_const, s.srcinfo());
  b.cname = declare(n->name);
  line(window_struct_name(w.rank, b.elem, b.is_const) + " " + b.cname + " = " + init + ";");
  bufs_[n->name.id()] = std::move(b);
}

}  // namespace exocpp::codegen
