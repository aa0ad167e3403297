// The thread-major rewriting of kernels (thread_order.h).
#include "thread_order.h"

#include "core/cuda.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"

namespace exocpp::cuda_test {
namespace {

using rw::int_const;

// `b` as run by the thread numbered `tid` (an expression) of a group of `size` threads: each
// lane loop keeps the iteration that thread runs, under a guard that it runs one.
Block as_thread(const Block& b, const Expr& tid, bool warp_level);

Stmt lane_as_thread(const ForNode& f, const Expr& tid) {
  const int64_t unit = cuda_lane_unit(f);
  const int64_t extent = cuda_lane_extent(f).value_or(0);
  Expr iter_value = rw::mk_add(f.lo, unit == 1 ? tid : rw::mk_div(tid, int_const(unit)));
  Expr inner = unit == 1 ? int_const(0) : rw::mk_mod(tid, int_const(unit));
  Block body = rw::substitute(f.body, {{f.iter, iter_value}});
  body = as_thread(body, inner, f.mode == LoopMode::CudaWarps);
  return IfNode::make(rw::mk_cmp(BinOpKind::Lt, tid, int_const(extent * unit)), body, {});
}

Block as_thread(const Block& b, const Expr& tid, bool warp_level) {
  Block out;
  for (const Stmt& s : b) {
    if (const ForNode* f = s.as<ForNode>(); f && is_cuda_lane(f->mode)) {
      out.push_back(lane_as_thread(*f, tid));
    } else if (const ForNode* f = s.as<ForNode>()) {
      out.push_back(ForNode::make(f->iter, f->lo, f->hi, as_thread(f->body, tid, warp_level),
                                  f->mode, s.srcinfo()));
    } else if (const IfNode* i = s.as<IfNode>()) {
      out.push_back(IfNode::make(i->cond, as_thread(i->body, tid, warp_level),
                                 as_thread(i->orelse, tid, warp_level), s.srcinfo()));
    } else if (warp_level && !s.is<AllocNode>()) {
      // a warp-collective statement: once per warp
      out.push_back(IfNode::make(rw::mk_cmp(BinOpKind::Eq, tid, int_const(0)), {s}, {}));
    } else {
      out.push_back(s);
    }
  }
  return out;
}

// The block-level code `b` with each run of consecutive lane loops made one seq loop over the
// threads. A `pass` does not end a run, nor does an allocation, which moves before it.
Block block_level(const Block& b, int64_t threads, bool backward) {
  Block out, run;
  auto flush = [&] {
    if (run.empty()) return;
    Sym t("thread");
    Expr tv = rw::index_var(t);
    Expr tid = backward ? rw::mk_sub(int_const(threads - 1), tv) : tv;
    out.push_back(ForNode::make(t, int_const(0), int_const(threads), as_thread(run, tid, false),
                                LoopMode::Seq));
    run.clear();
  };
  for (const Stmt& s : b) {
    if (const ForNode* f = s.as<ForNode>(); f && is_cuda_lane(f->mode)) {
      run.push_back(s);
      continue;
    }
    if (!run.empty() && s.is<PassNode>()) continue;
    if (!run.empty() && s.is<AllocNode>()) {
      out.push_back(s);
      continue;
    }
    flush();
    if (const ForNode* f = s.as<ForNode>())
      out.push_back(ForNode::make(f->iter, f->lo, f->hi, block_level(f->body, threads, backward),
                                  f->mode, s.srcinfo()));
    else if (const IfNode* i = s.as<IfNode>())
      out.push_back(IfNode::make(i->cond, block_level(i->body, threads, backward),
                                 block_level(i->orelse, threads, backward), s.srcinfo()));
    else
      out.push_back(s);
  }
  flush();
  return out;
}

Block rewrite_kernels(const Block& b, bool backward) {
  Block out;
  for (const Stmt& s : b) {
    const ForNode* f = s.as<ForNode>();
    if (f == nullptr) {
      if (const IfNode* i = s.as<IfNode>())
        out.push_back(IfNode::make(i->cond, rewrite_kernels(i->body, backward),
                                   rewrite_kernels(i->orelse, backward), s.srcinfo()));
      else
        out.push_back(s);
      continue;
    }
    if (f->mode != LoopMode::CudaBlocks) {
      out.push_back(ForNode::make(f->iter, f->lo, f->hi, rewrite_kernels(f->body, backward),
                                  f->mode, s.srcinfo()));
      continue;
    }
    // The grid nest stays; its innermost body is the block's code.
    std::function<Stmt(const ForNode&)> grid = [&](const ForNode& g) -> Stmt {
      const ForNode* inner = g.body.size() == 1 ? g.body[0].as<ForNode>() : nullptr;
      Block body = inner && inner->mode == LoopMode::CudaBlocks
                       ? Block{grid(*inner)}
                       : block_level(g.body, cuda_footprint(g.body), backward);
      return ForNode::make(g.iter, g.lo, g.hi, body, LoopMode::Seq, g.srcinfo);
    };
    out.push_back(grid(*f));
  }
  return out;
}

}  // namespace

Proc thread_major(const Proc& p, bool backward) {
  ProcNode fields = *p.get();
  fields.body = rewrite_kernels(p.body(), backward);
  return Proc(ProcNode::make(std::move(fields)));
}

}  // namespace exocpp::cuda_test
