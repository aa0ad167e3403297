// Assembly of a C library: the call graph of the procs (Boost.Graph, callees first), which
// arguments each writes, the header (window structs, the config context, prototypes) and the
// source (globals, helpers, one function per proc, optional packed wrappers).
#include "codegen/c_module.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/topological_sort.hpp>
#include <map>
#include <set>

#include "codegen/c_prelude.h"
#include "codegen/c_proc.h"
#include "codegen/c_types.h"
#include "core/ir_visit.h"
#include "core/printer.h"

namespace exocpp::codegen {
namespace {

// Calls (in body order) and configs a body touches.
class CallFinder : public IRVisitor {
 public:
  std::vector<std::shared_ptr<const ProcNode>> callees;
  std::vector<Config> configs;

 protected:
  void visit_Call(const CallNode* n, const Stmt& s) override {
    callees.push_back(n->proc);
    IRVisitor::visit_Call(n, s);
  }
  void visit_WriteConfig(const WriteConfigNode* n, const Stmt& s) override {
    configs.push_back(n->config);
    IRVisitor::visit_WriteConfig(n, s);
  }
  void visit_ReadConfig(const ReadConfigNode* n, const Expr& e) override {
    configs.push_back(n->config);
    IRVisitor::visit_ReadConfig(n, e);
  }
};

bool same_fields(const ConfigNode& a, const ConfigNode& b) {
  if (a.fields.size() != b.fields.size()) return false;
  for (size_t i = 0; i < a.fields.size(); ++i)
    if (a.fields[i].name != b.fields[i].name || a.fields[i].type != b.fields[i].type) return false;
  return true;
}

// The config's name and its fields' names: C names of the context struct's members.
std::vector<std::string> config_names(const ConfigNode& c) {
  std::vector<std::string> out = {c.name};
  for (const ConfigField& f : c.fields) out.push_back(f.name);
  return out;
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

const char* kFloorDiv =
    "// Floor division, as exocpp defines `/` on indices (-7 / 2 == -4).\n"
    "static inline int_fast32_t exo_floor_div(int_fast32_t a, int_fast32_t b) {\n"
    "    int_fast32_t q = a / b;\n"
    "    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;\n"
    "}\n";
const char* kFloorMod =
    "// The remainder with the divisor's sign, as exocpp defines `%` on indices (-7 % 2 == 1).\n"
    "static inline int_fast32_t exo_floor_mod(int_fast32_t a, int_fast32_t b) {\n"
    "    int_fast32_t r = a % b;\n"
    "    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;\n"
    "}\n";

// After the headers (whose inline functions keep their own options), before any code of ours.
// gcc honours neither the STDC pragma nor `-std=c99` when -ffp-contract=fast is given; its
// optimize pragma does. clang honours its pragma except under -ffp-contract=fast, which by its
// documentation fuses "disregarding pragmas". gcc 12's basic-block (SLP) vectorizer miscompiles
// a double narrowed to float and widened back: two adjacent `float t = d; x += t;` compute
// `x += d`, at -O2 and -O3 (its loop vectorizer is not affected), so gcc gets no SLP.
const char* kFloatExactness =
    "// Each float operation rounds on its own, as exocpp's interpreter computes: no fused\n"
    "// multiply-add contraction of `a * b + c`, and no basic-block vectorization by gcc, whose\n"
    "// SLP vectorizer drops the rounding of a double narrowed to float and widened back.\n"
    "#if defined(__clang__)\n#pragma clang fp contract(off)\n"
    "#elif defined(__GNUC__)\n"
    "#pragma GCC optimize(\"fp-contract=off\", \"no-tree-slp-vectorize\")\n"
    "#else\n#pragma STDC FP_CONTRACT OFF\n#endif\n\n";

// The helpers, callable from kernels too: every `static inline` function becomes
// `static inline __host__ __device__`.
std::string device_helpers(std::string text) {
  const std::string from = "static inline ", to = "static inline __host__ __device__ ";
  for (size_t pos = text.find(from); pos != std::string::npos;
       pos = text.find(from, pos + to.size()))
    text.replace(pos, from.size(), to);
  return text;
}

std::string packed_wrapper(const Proc& p, const std::vector<BufInfo>& infos) {
  std::vector<std::string> args = {"args[0]"};
  for (size_t i = 0; i < p.args().size(); ++i) {
    const FnArg& a = p.args()[i];
    const BufInfo& b = infos[i];
    std::string slot = "args[" + std::to_string(i + 1) + "]";
    if (a.type.is_control()) {
      if (a.type.base == ScalarKind::Bool)
        args.push_back("*(const int64_t *)" + slot + " != 0");
      else
        args.push_back("(int_fast32_t)*(const int64_t *)" + slot);
    } else if (b.kind == BufInfo::Kind::Window) {
      std::string w = "((const struct exocpp_packed_win *)" + slot + ")";
      std::string s = "(" + window_struct_name(b.rank(), b.elem, b.is_const) + "){ (" +
                      (b.is_const ? "const " : "") + c_type(b.elem) + " *)" + w + "->data, { ";
      for (int d = 0; d < b.rank(); ++d)
        s += (d ? ", " : "") + std::string("(int_fast32_t)") + w + "->strides[" +
             std::to_string(d) + "]";
      args.push_back(s + " } }");
    } else {
      args.push_back("(" + c_type(b.elem) + " *)" + slot);
    }
  }
  // Returns what the proc returns (which index argument was out of range), 0 for a void proc.
  const std::string call = p.name() + "(" + join(args, ",\n        ") + ")";
  if (has_index_args(*p.get()))
    return "int " + p.name() + "__packed(void **args) {\n    return " + call + ";\n}\n";
  return "int " + p.name() + "__packed(void **args) {\n    " + call + ";\n    return 0;\n}\n";
}

// Whether two proc objects are one definition: the same text, calling procs that are one
// definition in turn (schedules that build a kernel twice, once per caller, make such pairs;
// C needs the function once).
bool same_definition(const std::shared_ptr<const ProcNode>& a,
                     const std::shared_ptr<const ProcNode>& b) {
  if (a == b) return true;
  if (to_string(Proc(a)) != to_string(Proc(b))) return false;
  CallFinder fa, fb;
  fa.visit(a->body);
  fb.visit(b->body);
  if (fa.callees.size() != fb.callees.size()) return false;
  for (size_t i = 0; i < fa.callees.size(); ++i)
    if (!same_definition(fa.callees[i], fb.callees[i])) return false;
  return true;
}

}  // namespace

std::vector<Proc> call_graph_order(const std::vector<Proc>& procs) {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  std::vector<std::shared_ptr<const ProcNode>> nodes;
  std::map<const ProcNode*, size_t> index;
  std::map<std::string, const ProcNode*> by_name;
  std::vector<std::pair<size_t, size_t>> edges;
  // Discover procs depth-first from the given ones, in call order: vertex numbers (and so the
  // topological order) depend only on the input.
  std::vector<std::shared_ptr<const ProcNode>> work;
  auto add = [&](const std::shared_ptr<const ProcNode>& n) -> size_t {
    auto it = index.find(n.get());
    if (it != index.end()) return it->second;
    auto named = by_name.find(n->name);
    if (named != by_name.end() && same_definition(nodes[index.at(named->second)], n)) {
      index[n.get()] = index.at(named->second);
      return index.at(n.get());
    }
    if (named != by_name.end())
      throw CodegenError(n->srcinfo, "two different procs are named '" + n->name +
                                         "' (defined at " + named->second->srcinfo.to_string() +
                                         " and at " + n->srcinfo.to_string() +
                                         "); rename one (rename()) before emitting them together");
    by_name[n->name] = n.get();
    index[n.get()] = nodes.size();
    nodes.push_back(n);
    work.push_back(n);
    return nodes.size() - 1;
  };
  for (const Proc& p : procs) {
    if (!p.defined()) throw CodegenError({}, "cannot emit an undefined proc");
    add(p.ptr());
    while (!work.empty()) {
      std::shared_ptr<const ProcNode> n = work.back();
      work.pop_back();
      CallFinder f;
      f.visit(n->body);
      size_t from = index.at(n.get());
      for (const auto& c : f.callees) edges.push_back({from, add(c)});
    }
  }
  Graph g(nodes.size());
  for (auto [a, b] : edges) boost::add_edge(a, b, g);
  std::vector<size_t> order;
  try {
    boost::topological_sort(g, std::back_inserter(order));  // callees first
  } catch (const boost::not_a_dag&) {
    throw CodegenError(
        nodes[0]->srcinfo,
        "the procs call each other recursively; C emission needs an acyclic call graph");
  }
  std::vector<Proc> out;
  for (size_t v : order) out.push_back(Proc(nodes[v]));
  return out;
}

CSource emit_library(const std::vector<Proc>& procs, const std::string& lib_name,
                     const LibraryOptions& opts) {
  if (!is_c_identifier(lib_name))
    throw CodegenError(
        {}, "library name '" + lib_name + "' is not a C identifier; use letters, digits and '_'");
  if (std::string why = c_name_clash(lib_name); !why.empty())
    throw CodegenError({}, "library name '" + lib_name + "' cannot be used in C: it is " + why +
                               "; choose another");
  std::vector<Proc> order = call_graph_order(procs);
  std::set<const ProcNode*> is_public;
  for (const Proc& p : procs) is_public.insert(p.get());

  // Written arguments, callees first; configs in first-use order.
  WrittenParams written;
  std::vector<Config> configs;
  std::set<std::string> reserved = {lib_name, lib_name + "_Context"};
  std::map<std::string, const ProcNode*> emitted_by_name;
  for (const Proc& p : order) {
    emitted_by_name[p.name()] = p.get();
    CallFinder f;
    f.visit(p.body());
    for (const Expr& e : p.preds()) f.visit(e);
    // A callee that is a second copy of an emitted definition (call_graph_order merged them)
    // writes the arguments at the same positions as the copy that is emitted.
    for (const std::shared_ptr<const ProcNode>& c : f.callees) {
      if (written.count(c.get())) continue;
      const ProcNode& emitted = *emitted_by_name.at(c->name);
      std::set<uint64_t>& ids = written[c.get()];
      for (size_t i = 0; i < c->args.size() && i < emitted.args.size(); ++i)
        if (written.at(&emitted).count(emitted.args[i].name.id())) ids.insert(c->args[i].name.id());
    }
    written[p.get()] = written_args(*p.get(), written);
    for (const Config& c : f.configs) {
      bool seen = false;
      for (const Config& k : configs) {
        if (k->name != c->name) continue;
        seen = true;
        // The interpreter keys config state by name: one definition parsed twice is one state,
        // two different definitions under one name are refused, never merged.
        if (k != c && !same_fields(*k, *c))
          throw CodegenError(c->srcinfo, "two different configs are named '" + c->name +
                                             "' (defined at " + k->srcinfo.to_string() +
                                             " and at " + c->srcinfo.to_string() +
                                             "); rename one before emitting them together");
      }
      if (seen) continue;
      for (const std::string& n : config_names(*c))
        if (std::string why = c_name_clash(n); !is_c_identifier(n) || !why.empty())
          throw CodegenError(c->srcinfo, "config " + c->name + ": the name '" + n +
                                             "' cannot be used in C" +
                                             (why.empty() ? "" : ": it is " + why) + "; rename it");
      configs.push_back(c);
    }
    if (p.is_instr()) continue;
    if (!is_c_identifier(p.name()))
      throw CodegenError(p->srcinfo,
                         "proc name '" + p.name() + "' cannot be a C function name; rename it");
    if (std::string why = c_name_clash(p.name()); !why.empty())
      throw CodegenError(
          p->srcinfo,
          "proc name '" + p.name() + "' cannot be a C function name: it is " + why + "; rename it");
    reserved.insert(p.name());
  }

  if (opts.cuda && opts.packed_wrappers)
    throw CodegenError({}, "packed wrappers are made for C libraries only");
  Globals g;
  g.cuda = opts.cuda;
  std::vector<std::string> defs, protos, wrappers;
  for (const Proc& p : order) {
    if (p.is_instr()) continue;
    // The entry check reads every value of an index argument, which on the GPU path lives in
    // device memory that host code cannot read.
    if (opts.cuda && has_index_args(*p.get()))
      throw CodegenError(p->srcinfo, "proc '" + p.name() +
                                         "' has index arguments (value ranges), which CUDA "
                                         "emission does not check yet: emit it as C");
    bool pub = is_public.count(p.get()) > 0;
    ProcEmitter em(p, lib_name, written, g, reserved);
    std::string def = em.definition(!pub);
    for (const std::string& k : em.kernels()) defs.push_back(k);
    defs.push_back(def);
    if (pub) protos.push_back(em.signature(false) + ";");
    if (pub && opts.packed_wrappers) {
      for (const BufInfo& b : em.arg_infos())
        if (b.kind == BufInfo::Kind::Window && b.rank() > kMaxPackedRank)
          throw CodegenError(p->srcinfo, "the compile helper passes windows of rank at most 8");
      wrappers.push_back(packed_wrapper(p, em.arg_infos()));
    }
  }

  std::string guard = lib_name + "_H";
  for (char& c : guard) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  CSource out;
  std::string& h = out.header;
  h += "// " + lib_name + ".h: generated by exocpp; do not edit.\n";
  h += "#ifndef " + guard + "\n#define " + guard + "\n\n";
  // The half types' definitions go first, when a definition or a window struct names them.
  bool f16 = false, bf16 = false;
  for (const std::string& d : defs) {
    f16 = f16 || d.find("exo_f16") != std::string::npos;
    bf16 = bf16 || d.find("exo_bf16") != std::string::npos;
  }
  for (const auto& [rank, k, c] : g.windows) {
    f16 = f16 || k == ScalarKind::F16;
    bf16 = bf16 || k == ScalarKind::BF16;
  }
  if (bf16 && opts.cuda)
    throw CodegenError({},
                       "bf16 values are emitted as C only: CUDA emission does not support them "
                       "yet (use f16 for tensor cores, or f32)");
  // CUDA's half type is a C++ class: its header goes before the C linkage block.
  if (f16 && opts.cuda)
    h += "#include <cuda_fp16.h>\n#ifndef EXOCPP_F16\n#define EXOCPP_F16\ntypedef __half exo_f16;\n"
         "#endif\n\n";
  h += "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  h += "#include <stdbool.h>\n#include <stdint.h>\n\n";
  if (f16 && !opts.cuda) h += f16_typedef() + "\n";
  if (bf16) h += bf16_support() + "\n";
  for (const auto& [rank, k, c] : g.windows) h += window_struct_def(rank, k, c) + "\n";
  if (!configs.empty()) {
    h += "// Configuration state: pass a pointer to one of these as `ctxt`.\n";
    h += "struct " + lib_name + "_Context {\n";
    for (const Config& c : configs) {
      h += "    struct {\n";
      for (const ConfigField& f : c->fields)
        h += "        " + c_type(f.type) + " " + f.name + ";\n";
      h += "    } " + c->name + ";\n";
    }
    h += "};\n\n";
  }
  for (const std::string& p : protos) h += p + "\n";
  h += "\n#ifdef __cplusplus\n}\n#endif\n\n#endif  // " + guard + "\n";

  std::string& s = out.source;
  s += "// " + lib_name + (opts.cuda ? ".cu" : ".c") + ": generated by exocpp; do not edit.\n";
  if (opts.cuda)
    s += "// Build with nvcc -fmad=false for the interpreter's rounding (no fused multiply-add).\n";
  s += "#include \"" + lib_name + ".h\"\n\n";
  for (const std::string& item : g.items) s += item + (item.back() == '\n' ? "" : "\n");
  if (!g.items.empty()) s += "\n";
  std::string helpers;
  if (!opts.cuda) s += kFloatExactness;
  if (!g.helpers.empty()) helpers += prelude_helpers(g.helpers) + "\n";
  if (g.floor_div) helpers += std::string(kFloorDiv) + "\n";
  if (g.floor_mod) helpers += std::string(kFloorMod) + "\n";
  if (opts.cuda) helpers = device_helpers(helpers);
  s += helpers;
  s += join(defs, "\n");
  if (opts.packed_wrappers) {
    s += "\n// Packed entry points for exocpp's compile-and-load helper.\n";
    s += "struct exocpp_packed_win {\n    void *data;\n    int64_t strides[8];\n};\n\n";
    s += "int64_t " + lib_name + "__context_size(void);\n";
    s += "int64_t " + lib_name + "__context_size(void) {\n    return " +
         (configs.empty() ? std::string("0") : "(int64_t)sizeof(struct " + lib_name + "_Context)") +
         ";\n}\n";
    for (const std::string& w : wrappers) {
      std::string decl = w.substr(0, w.find(" {")) + ";\n";
      s += "\n" + decl + w;
    }
  }
  return out;
}

}  // namespace exocpp::codegen
