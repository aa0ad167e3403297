// The thread geometry of CUDA kernels (core/cuda.h).
#include "core/cuda.h"

#include <algorithm>

#include "core/typecheck_internal.h"

namespace exocpp {

std::optional<int64_t> cuda_lane_extent(const ForNode& f) {
  std::optional<int64_t> lo = typecheck_detail::fold_int_constant(f.lo);
  std::optional<int64_t> hi = typecheck_detail::fold_int_constant(f.hi);
  if (!lo || !hi) return std::nullopt;
  return std::max<int64_t>(0, *hi - *lo);
}

std::optional<int64_t> cuda_lane_lo(const ForNode& f) {
  return typecheck_detail::fold_int_constant(f.lo);
}

namespace {

int64_t stmt_footprint(const Stmt& s) {
  if (const ForNode* f = s.as<ForNode>()) {
    if (is_cuda_lane(f->mode)) return cuda_lane_extent(*f).value_or(1) * cuda_lane_unit(*f);
    return cuda_footprint(f->body);
  }
  if (const IfNode* i = s.as<IfNode>())
    return std::max(cuda_footprint(i->body), cuda_footprint(i->orelse));
  return 1;
}

}  // namespace

int64_t cuda_footprint(const Block& b) {
  int64_t most = 1;
  for (const Stmt& s : b) most = std::max(most, stmt_footprint(s));
  return most;
}

int64_t cuda_lane_unit(const ForNode& f) {
  if (f.mode == LoopMode::CudaWarps) return kCudaWarpSize;
  return cuda_footprint(f.body);
}

bool is_cuda_barrier(const Stmt& s) {
  const CallNode* c = s.as<CallNode>();
  return c != nullptr && c->proc && c->proc->instr && !c->proc->instr->sync.empty();
}

// Allocations hold data only, whose sizes have one home: core's scalar_bytes (R as f32).
int64_t cuda_element_bytes(ScalarKind k) { return static_cast<int64_t>(scalar_bytes(k)); }

std::optional<int64_t> cuda_constant_bytes(const AllocNode& a) {
  int64_t bytes = cuda_element_bytes(a.type.base);
  for (const Expr& d : a.type.shape) {
    std::optional<int64_t> n = typecheck_detail::fold_int_constant(d);
    if (!n || *n < 0) return std::nullopt;
    // Past any memory's size the product only needs to stay past it (and not overflow).
    constexpr int64_t kCap = int64_t{1} << 40;
    bytes = (*n != 0 && bytes > kCap / *n) ? kCap : bytes * *n;
  }
  return bytes;
}

namespace {

void collect_parallel_loops(const Block& b, BlockPath& path, bool in_kernel,
                            std::vector<ParallelLoopAt>& out) {
  for (size_t k = 0; k < b.size(); ++k) {
    const Stmt& s = b[k];
    const int index = static_cast<int>(k);
    if (const ForNode* f = s.as<ForNode>()) {
      if (f->mode != LoopMode::Seq) out.push_back(ParallelLoopAt{path, index, s, in_kernel});
      path.push_back({index, BlockField::Body});
      collect_parallel_loops(f->body, path, in_kernel || f->mode == LoopMode::CudaBlocks, out);
      path.pop_back();
    } else if (const IfNode* i = s.as<IfNode>()) {
      path.push_back({index, BlockField::Body});
      collect_parallel_loops(i->body, path, in_kernel, out);
      path.back().field = BlockField::Orelse;
      collect_parallel_loops(i->orelse, path, in_kernel, out);
      path.pop_back();
    }
  }
}

}  // namespace

std::vector<ParallelLoopAt> parallel_loops(const Block& body) {
  std::vector<ParallelLoopAt> out;
  BlockPath path;
  collect_parallel_loops(body, path, false, out);
  return out;
}

}  // namespace exocpp
