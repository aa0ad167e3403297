// CUDA emission of kernels (docs/gpu.md, "Emitted CUDA"): an outermost cuda_blocks loop becomes
// a __global__ function and a launch in its place; lane loops become thread numbering.
//
//   for by in cuda_blocks(0, M / 16):          __global__ void __launch_bounds__(256)
//     for bx in cuda_blocks(0, N / 16):        p_kernel0(int_fast32_t M, ..., float *C) {
//       for ty in cuda_threads(0, 16):           const int_fast32_t by = blockIdx.y;
//         for tx in cuda_threads(0, 16):         const int_fast32_t bx = blockIdx.x;
//           C[...] = ...                         const int_fast32_t ty = threadIdx.x / 16;
//                                                const int_fast32_t tx = threadIdx.x % 16; ...
//
// The block has as many threads as its code's footprint (core/cuda.h); a lane loop's iteration
// lo + k runs on threads [k * unit, (k + 1) * unit) of the group that reaches it, and threads
// past extent * unit skip it. A kernel receives, by value, every variable of the host function
// that its text names: control values, device pointers and window structs.
#include <functional>

#include "codegen/c_proc.h"
#include "codegen/c_types.h"
#include "core/cuda.h"
#include "core/ir_visit.h"
#include "core/memory.h"

namespace exocpp::codegen {
namespace {

// For each register buffer (or warp fragment) allocated at the block level of `body`, how many
// lane loops stand around its first use: the dimensions distributed over the threads (warps).
class DistributedDims {
 public:
  std::map<uint64_t, int> dims;

  void block(const Block& b, int depth) {
    for (const Stmt& s : b) stmt(s, depth);
  }

 private:
  std::set<uint64_t> candidates_;

  void use(const Sym& s, int depth) {
    if (candidates_.count(s.id()) && !dims.count(s.id())) dims[s.id()] = depth;
  }
  void exprs(const Stmt& s, int depth) {
    struct V : IRVisitor {
      DistributedDims* self;
      int depth;
      void visit_Read(const ReadNode* n, const Expr& e) override {
        self->use(n->name, depth);
        IRVisitor::visit_Read(n, e);
      }
      void visit_WindowExpr(const WindowExprNode* n, const Expr& e) override {
        self->use(n->name, depth);
        IRVisitor::visit_WindowExpr(n, e);
      }
    } v;
    v.self = this;
    v.depth = depth;
    if (const AssignNode* a = s.as<AssignNode>()) {
      use(a->name, depth);
      for (const Expr& i : a->idx) v.visit(i);
      v.visit(a->rhs);
    } else if (const ReduceNode* r = s.as<ReduceNode>()) {
      use(r->name, depth);
      for (const Expr& i : r->idx) v.visit(i);
      v.visit(r->rhs);
    } else if (const CallNode* c = s.as<CallNode>()) {
      for (const Expr& a : c->args) v.visit(a);
    }
  }
  void stmt(const Stmt& s, int depth) {
    if (const ForNode* f = s.as<ForNode>()) {
      block(f->body, depth + (is_cuda_lane(f->mode) ? 1 : 0));
    } else if (const IfNode* i = s.as<IfNode>()) {
      block(i->body, depth);
      block(i->orelse, depth);
    } else if (const AllocNode* a = s.as<AllocNode>()) {
      const Memory* m = find_memory(a->mem);
      if (depth == 0 && m != nullptr &&
          (m->device_scope() == DeviceScope::Thread || m->device_scope() == DeviceScope::Warp))
        candidates_.insert(a->name.id());
    } else {
      exprs(s, depth);
    }
  }
};

// Lays out the arrays that `body` allocates in dynamic shared memory (Memory::dynamic_shared),
// each at its own 128-byte aligned offset: nothing reuses another's bytes, so an array keeps
// its place wherever in the kernel it is allocated. Returns the bytes the kernel needs.
int64_t layout_dynamic_shared(const Block& body, std::map<uint64_t, int64_t>& offsets) {
  int64_t total = 0;
  std::function<void(const Block&)> walk = [&](const Block& b) {
    for (const Stmt& s : b) {
      if (const AllocNode* a = s.as<AllocNode>()) {
        const Memory* mem = find_memory(a->mem);
        if (mem == nullptr || !mem->dynamic_shared()) continue;
        if (a->type.shape.empty())
          throw CodegenError(s.srcinfo(), "cannot allocate scalar '" + a->name.name() + "' in " +
                                              a->mem + "; declare it as a tensor of one element");
        std::optional<int64_t> bytes = cuda_constant_bytes(*a);
        if (!bytes)
          throw CodegenError(s.srcinfo(), "'" + a->name.name() + "' (" + a->mem +
                                              ", dynamic shared memory) needs a constant shape");
        offsets[a->name.id()] = total;
        total = std::min(total + (*bytes + 127) / 128 * 128, int64_t{1} << 41);
      } else if (const ForNode* f = s.as<ForNode>()) {
        walk(f->body);
      } else if (const IfNode* i = s.as<IfNode>()) {
        walk(i->body);
        walk(i->orelse);
      }
    }
  };
  walk(body);
  return total;
}

}  // namespace

std::string ProcEmitter::kernel_param(uint64_t id, const std::string& cname) const {
  if (auto b = bufs_.find(id); b != bufs_.end()) {
    const BufInfo& info = b->second;
    if (info.kind == BufInfo::Kind::Window)
      return window_struct_name(info.rank(), info.elem, info.is_const) + " " + cname;
    return std::string(info.is_const ? "const " : "") + c_type(info.elem) + " *" + cname;
  }
  for (const FnArg& a : proc_.args())
    if (a.name.id() == id) return c_type(a.type.base) + " " + cname;
  return "int_fast32_t " + cname;  // a loop iterator of the host code
}

void ProcEmitter::kernel(const ForNode* n, const Stmt& s) {
  // The grid: up to three directly nested cuda_blocks loops; the innermost is x.
  std::vector<const ForNode*> grid = {n};
  while (grid.back()->body.size() == 1) {
    const ForNode* inner = grid.back()->body[0].as<ForNode>();
    if (inner == nullptr || inner->mode != LoopMode::CudaBlocks) break;
    grid.push_back(inner);
  }
  if (grid.size() > 3)
    throw CodegenError(s.srcinfo(), "a kernel has at most three cuda_blocks dimensions");
  const Block& body = grid.back()->body;
  const int64_t threads = cuda_footprint(body);
  const std::string name = proc_.name() + "_kernel" + std::to_string(kernels_.size());

  // Host side: the grid's extents, evaluated once.
  std::set<std::string> host_names = used_names_;
  std::vector<std::string> extents;
  for (const ForNode* g : grid) {
    std::string e = declare(Sym(g->iter.name() + "_blocks"));
    line("const int_fast32_t " + e + " = (" + expr(g->hi).text + ") - (" + expr(g->lo).text + ");");
    extents.push_back(e);
  }

  // The kernel's body, emitted with the host's names in scope.
  std::string host_out = std::move(out_);
  int host_indent = indent_;
  out_.clear();
  indent_ = 1;
  in_kernel_ = true;
  DistributedDims dd;
  dd.block(body, 0);
  distributed_dims_ = dd.dims;
  dynamic_shared_offsets_.clear();
  const int64_t dynamic_bytes = layout_dynamic_shared(body, dynamic_shared_offsets_);
  if (dynamic_bytes > kCudaMaxDynamicSharedBytes)
    throw CodegenError(s.srcinfo(),
                       "kernel '" + name + "' needs " + std::to_string(dynamic_bytes) +
                           " bytes of dynamic shared memory; a block may have at most " +
                           std::to_string(kCudaMaxDynamicSharedBytes) + " (sm_90; sm_80: 163 KB)");
  static const char* kAxis[] = {"x", "y", "z"};
  std::vector<std::pair<std::string, std::string>> grid_vars;  // name, value
  for (size_t k = 0; k < grid.size(); ++k) {
    const ForNode* g = grid[k];
    std::string lo = expr(g->lo).text;
    if (nonneg(g->lo)) nonneg_.insert(g->iter.id());
    const char* axis = kAxis[grid.size() - 1 - k];
    grid_vars.emplace_back(declare(g->iter),
                           (lo == "0" ? "" : lo + " + ") + "(int_fast32_t)blockIdx." + axis);
  }
  lanes_ = {LaneGroup{"(int_fast32_t)threadIdx.x", threads}};
  block(body);
  lanes_.clear();
  in_kernel_ = false;
  std::string kbody;
  if (dynamic_bytes > 0)
    kbody += "    extern __shared__ __align__(128) unsigned char exocpp_dynamic_shared[];\n";
  for (const auto& [v, value] : grid_vars)  // only those the body names: nvcc warns otherwise
    if (mentions_token(out_, v)) kbody += "    const int_fast32_t " + v + " = " + value + ";\n";
  kbody += out_;
  out_ = std::move(host_out);
  indent_ = host_indent;

  // Parameters: every host variable in scope that the kernel's text names.
  std::vector<std::string> params, args;
  for (const auto& [id, cname] : names_) {
    if (!host_names.count(cname) || !mentions_token(kbody, cname)) continue;
    params.push_back(kernel_param(id, cname));
    args.push_back(cname);
  }
  std::string sig =
      "__global__ void __launch_bounds__(" + std::to_string(threads) + ") " + name + "(";
  for (size_t k = 0; k < params.size(); ++k) sig += (k ? ", " : "") + params[k];
  kernels_.push_back(sig + ") {\n" + kbody + "}\n");

  // The launch, skipped when the grid is empty (CUDA refuses a launch of no blocks).
  std::string cond, dims;
  for (size_t k = 0; k < extents.size(); ++k) cond += (k ? " && " : "") + extents[k] + " > 0";
  for (size_t k = 0; k < 3; ++k) {
    size_t from_inner = extents.size() - 1 - k;
    dims += (k ? ", " : "") +
            (k < extents.size() ? "(unsigned)" + extents[from_inner] : std::string("1u"));
  }
  std::string call = name + "<<<dim3(" + dims + "), " + std::to_string(threads) +
                     (dynamic_bytes > 0 ? ", " + std::to_string(dynamic_bytes) : "") + ">>>(";
  for (size_t k = 0; k < args.size(); ++k) call += (k ? ", " : "") + args[k];
  line("if (" + cond + ") {");
  // Past 48 KB a kernel must opt in to its dynamic shared memory before it is launched.
  if (dynamic_bytes > kCudaDefaultSharedBytes)
    line("    (void)cudaFuncSetAttribute(" + name +
         ", cudaFuncAttributeMaxDynamicSharedMemorySize, " + std::to_string(dynamic_bytes) + ");");
  line("    " + call + ");");
  line("}");
  used_names_ = std::move(host_names);
  for (const std::string& e : extents) used_names_.insert(e);
}

void ProcEmitter::lane_loop(const ForNode* n, const Stmt& s) {
  if (!in_kernel_ || lanes_.empty())
    throw CodegenError(s.srcinfo(), "the " + std::string(to_string(n->mode)) + " loop '" +
                                        n->iter.name() + "' stands outside a kernel");
  std::optional<int64_t> extent = cuda_lane_extent(*n);
  if (!extent)
    throw CodegenError(
        s.srcinfo(), "the bounds of lane loop '" + n->iter.name() + "' are not integer constants");
  const int64_t unit = cuda_lane_unit(*n);
  const LaneGroup group = lanes_.back();
  std::set<std::string> outer_names = used_names_;
  std::string lo = expr(n->lo).text;
  const int64_t used = *extent * unit;
  if (nonneg(n->lo)) nonneg_.insert(n->iter.id());
  std::string it = declare(n->iter);
  std::string inner = unit > 1 ? declare(Sym(n->iter.name() + "_lane")) : "0";
  // The body first: the numbering lines are emitted only when it names them (nvcc warns of
  // unused variables; a distributed buffer's accesses name no lane index).
  std::string outer_out = std::move(out_);
  out_.clear();
  ++indent_;
  lanes_.push_back(LaneGroup{inner, unit});
  block(n->body);
  lanes_.pop_back();
  std::string body = std::move(out_);
  out_ = std::move(outer_out);
  --indent_;
  // A scope of its own, entered only by the threads the loop uses.
  line(used < group.size ? "if (" + group.lane + " < " + std::to_string(used) + ") {" : "{");
  ++indent_;
  std::string k = unit == 1 ? group.lane : group.lane + " / " + std::to_string(unit);
  if (mentions_token(body, it))
    line("const int_fast32_t " + it + " = " + (lo == "0" ? "" : lo + " + ") + k + ";");
  if (unit > 1 && mentions_token(body, inner))
    line("const int_fast32_t " + inner + " = " + group.lane + " % " + std::to_string(unit) + ";");
  out_ += body;
  --indent_;
  line("}");
  used_names_ = std::move(outer_names);
}

}  // namespace exocpp::codegen
