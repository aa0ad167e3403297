// The structural rules of CUDA kernels (docs/gpu.md, "Where code may stand"). They are what
// makes the interpreter's sequential reading of a kernel the meaning of its parallel run, next
// to the race rule the checker proves (checker/queries_cuda.cpp):
//
//  - A kernel is an outermost cuda_blocks loop; up to three cuda_blocks loops nest directly
//    (the grid's dimensions), and no other cuda_blocks or par loop stands inside one.
//  - cuda_threads and cuda_warps loops (lane loops) stand only inside a kernel, with integer
//    constant bounds; a block holds at most 1024 threads, a warp's body at most 32.
//  - Block level (in a kernel, outside lane loops) runs on every thread of the block at once:
//    it may allocate shared (Block) and distributed register (Thread) buffers, loop with seq,
//    branch, and synchronize (a cuda_block barrier); it may not assign, reduce or call anything
//    else. A barrier stands nowhere else: under a lane loop its threads would not all reach it.
//  - A statement that computes (assign, reduce, an instruction call) runs on one thread: every
//    lane loop around it hands each iteration a single thread (no group of threads repeats it).
//    A warp-collective instruction (collective="cuda_warp") instead stands directly in a
//    cuda_warps loop's body, and only it takes warp fragments (DeviceScope::Warp), which are
//    allocated there too.
//  - Kernels touch only device memory (Memory::device_scope not Host); host code never reads
//    or writes device memory itself (checked for emission only: the plain proc a GPU schedule
//    starts from is host code over device buffers).
//  - A register buffer allocated at block level is distributed: each thread owns one slice. Its
//    leading indices at every use are the lane loops' iterators, outermost first, each ranging
//    over the whole dimension, with the same thread geometry at every use; codegen gives each
//    thread only the rest. A warp fragment allocated at block level is distributed over warps
//    the same way, its uses directly in cuda_warps bodies.
#include <functional>
#include <map>

#include "core/cuda.h"
#include "core/ir_visit.h"
#include "core/memory.h"
#include "core/printer.h"
#include "core/typecheck_internal.h"
#include "core/uses.h"
#include "core/window_alias.h"

namespace exocpp::typecheck_detail {
namespace {

[[noreturn]] void fail(const SrcInfo& where, const std::string& msg) {
  throw TypeError(where, msg);
}

DeviceScope scope_of(const std::string& mem) {
  const Memory* m = find_memory(mem);
  return m != nullptr ? m->device_scope() : DeviceScope::Host;
}

// One lane loop around the code being checked, with its geometry.
struct Lane {
  const ForNode* loop;
  int64_t extent, unit;
};

// How a distributed buffer is used: the geometry of the lane loops its leading indices name,
// fixed at the first use. A register buffer is distributed over threads (used where each lane
// iteration is one thread), a warp fragment over warps (used directly in a cuda_warps body).
struct Distribution {
  bool over_warps = false;
  std::vector<std::pair<int64_t, int64_t>> lanes;  // (extent, unit), outermost first
  bool seen = false;
};

class CudaRules {
 public:
  CudaRules(const ProcNode& p, bool host_memory) : host_memory_(host_memory) {
    for (const FnArg& a : p.args)
      if (!a.mem.empty()) mem_[a.name] = a.mem;
  }

  void host_block(const Block& b) {
    for (const Stmt& s : b) host_stmt(s);
  }

 private:
  std::map<Sym, std::string> mem_;           // buffer (or window) -> its root's memory
  WindowAliases windows_;                    // the window statements walked so far
  std::map<Sym, Distribution> distributed_;  // block-level register buffers
  std::vector<Lane> lanes_;                  // lane loops around the current statement
  bool in_kernel_ = false;
  bool host_memory_;  // enforce that host code leaves device memory alone

  std::string mem_of(const Sym& s) const {
    auto it = mem_.find(s);
    return it == mem_.end() ? std::string() : it->second;
  }
  // Threads that run the current statement together: 1 inside a lane loop of unit 1.
  int64_t group() const { return lanes_.empty() ? -1 : lanes_.back().unit; }
  // Directly in a cuda_warps loop's body: the statement runs on one warp.
  bool at_warp_level() const {
    return !lanes_.empty() && lanes_.back().loop->mode == LoopMode::CudaWarps;
  }

  // ---- host code --------------------------------------------------------------------------

  void host_stmt(const Stmt& s) {
    if (const ForNode* f = s.as<ForNode>()) {
      if (f->mode == LoopMode::CudaBlocks) return kernel(s, *f);
      if (is_cuda_lane(f->mode))
        fail(s.srcinfo(), "a " + std::string(to_string(f->mode)) + " loop ('" + f->iter.name() +
                              "') must stand inside a kernel (a cuda_blocks loop)");
      host_exprs(s);
      return host_block(f->body);
    }
    if (const IfNode* i = s.as<IfNode>()) {
      host_exprs(s);
      host_block(i->body);
      return host_block(i->orelse);
    }
    if (const AllocNode* a = s.as<AllocNode>()) {
      DeviceScope sc = scope_of(a->mem);
      if (sc == DeviceScope::Block || sc == DeviceScope::Thread || sc == DeviceScope::Warp)
        fail(s.srcinfo(), "'" + a->name.name() + "' is allocated in " + a->mem +
                              ", which exists only inside a kernel (a cuda_blocks loop)");
      mem_[a->name] = a->mem;
      return;
    }
    if (const WindowStmtNode* w = s.as<WindowStmtNode>()) return window_stmt(*w);
    if (is_cuda_barrier(s))
      fail(s.srcinfo(), "barrier '" + s.as<CallNode>()->proc->name +
                            "' stands outside a kernel: it orders the threads of a block");
    host_exprs(s);
  }

  // Host statements may not read or write device memory themselves (passing a buffer to a
  // call is not a use).
  void host_exprs(const Stmt& s) {
    if (!host_memory_) return;
    auto device = [&](const Sym& name) { return scope_of(mem_of(name)) != DeviceScope::Host; };
    auto refuse = [&](const Sym& name, const SrcInfo& where, const char* what) {
      fail(where, "host code " + std::string(what) + " '" + name.name() + "', which is in " +
                      mem_of(name) + " (device memory): only kernels touch it");
    };
    if (const AssignNode* n = s.as<AssignNode>(); n && device(n->name))
      refuse(n->name, s.srcinfo(), "writes");
    if (const ReduceNode* n = s.as<ReduceNode>(); n && device(n->name))
      refuse(n->name, s.srcinfo(), "writes");
    struct Reads : IRVisitor {
      std::function<void(const ReadNode*, const Expr&)> on;
      void visit_Read(const ReadNode* n, const Expr& e) override {
        on(n, e);
        IRVisitor::visit_Read(n, e);
      }
    } reads;
    reads.on = [&](const ReadNode* n, const Expr& e) {
      if (n->type.is_data() && !n->type.is_tensor_or_window() && device(n->name))
        refuse(n->name, e.srcinfo(), "reads");
    };
    for (const Expr& e : own_exprs(s))
      if (e.defined()) reads.visit(e);
  }

  // The expressions of `s` itself, not of the statements nested in it.
  static std::vector<Expr> own_exprs(const Stmt& s) {
    std::vector<Expr> out;
    if (const AssignNode* n = s.as<AssignNode>()) {
      out = n->idx;
      out.push_back(n->rhs);
    } else if (const ReduceNode* n = s.as<ReduceNode>()) {
      out = n->idx;
      out.push_back(n->rhs);
    } else if (const ForNode* n = s.as<ForNode>()) {
      out = {n->lo, n->hi};
    } else if (const IfNode* n = s.as<IfNode>()) {
      out = {n->cond};
    } else if (const CallNode* n = s.as<CallNode>()) {
      out = n->args;
    } else if (const WriteConfigNode* n = s.as<WriteConfigNode>()) {
      out = {n->rhs};
    }
    return out;
  }

  void window_stmt(const WindowStmtNode& w) {
    const WindowExprNode* rhs = w.rhs.as<WindowExprNode>();
    windows_.bind(w.name, *rhs);
    mem_[w.name] = mem_of(rhs->name);
  }

  // ---- kernels ----------------------------------------------------------------------------

  void kernel(const Stmt& s, const ForNode& f) {
    const ForNode* grid = &f;
    for (int dims = 1;; ++dims) {
      const ForNode* inner =
          grid->body.size() == 1 ? grid->body[0].as<ForNode>() : static_cast<ForNode*>(nullptr);
      if (inner == nullptr || inner->mode != LoopMode::CudaBlocks) break;
      if (dims == 3)
        fail(grid->body[0].srcinfo(), "a kernel has at most three cuda_blocks dimensions ('" +
                                          inner->iter.name() + "' is a fourth)");
      // The grid is one rectangle, sized when the kernel is launched.
      for (const ForNode* outer = &f;; outer = outer->body[0].as<ForNode>()) {
        if (mentions(inner->lo, outer->iter) || mentions(inner->hi, outer->iter))
          fail(grid->body[0].srcinfo(), "the bounds of cuda_blocks loop '" + inner->iter.name() +
                                            "' depend on '" + outer->iter.name() +
                                            "': a kernel's grid is a rectangle");
        if (outer == grid) break;
      }
      grid = inner;
    }
    int64_t threads = cuda_footprint(grid->body);
    if (threads > kCudaMaxBlockThreads)
      fail(s.srcinfo(), "the kernel '" + f.iter.name() + "' needs " + std::to_string(threads) +
                            " threads per block; a CUDA block holds at most " +
                            std::to_string(kCudaMaxBlockThreads));
    in_kernel_ = true;
    kernel_block(grid->body);
    in_kernel_ = false;
    lanes_.clear();
  }

  void kernel_block(const Block& b) {
    for (const Stmt& s : b) kernel_stmt(s);
  }

  std::string where_word() const {
    if (lanes_.empty()) return "at block level (every thread of the block runs it)";
    return "under lane loop '" + lanes_.back().loop->iter.name() + "', whose every iteration " +
           "runs on " + std::to_string(lanes_.back().unit) + " threads";
  }

  void kernel_stmt(const Stmt& s) {
    if (const ForNode* f = s.as<ForNode>()) return kernel_loop(s, *f);
    if (const IfNode* i = s.as<IfNode>()) {
      device_reads(i->cond);
      kernel_block(i->body);
      return kernel_block(i->orelse);
    }
    if (const AllocNode* a = s.as<AllocNode>()) return kernel_alloc(s, *a);
    if (const WindowStmtNode* w = s.as<WindowStmtNode>()) {
      const WindowExprNode* rhs = w->rhs.as<WindowExprNode>();
      if (distributed_.count(windows_.root(rhs->name)))
        fail(s.srcinfo(), "window '" + w->name.name() + "' views distributed register buffer '" +
                              rhs->name.name() + "'; index it directly");
      device_reads(w->rhs);
      return window_stmt(*w);
    }
    if (s.is<PassNode>()) return;
    if (const CallNode* c = s.as<CallNode>()) return kernel_call(s, *c);
    if (s.is<WriteConfigNode>())
      fail(s.srcinfo(), "kernels cannot write configuration state (it lives on the host)");
    // An assignment or a reduction: one thread must run it.
    if (group() != 1)
      fail(s.srcinfo(), "'" + one_line(s) + "' stands " + where_word() +
                            ": a write must run on one thread; put it inside cuda_threads "
                            "loops down to single threads");
    Sym name = s.is<AssignNode>() ? s.as<AssignNode>()->name : s.as<ReduceNode>()->name;
    const std::vector<Expr>& idx =
        s.is<AssignNode>() ? s.as<AssignNode>()->idx : s.as<ReduceNode>()->idx;
    device_buffer(name, s.srcinfo());
    distributed_use(name, idx, s.srcinfo());
    for (const Expr& i : idx) device_reads(i);
    device_reads(s.is<AssignNode>() ? s.as<AssignNode>()->rhs : s.as<ReduceNode>()->rhs);
  }

  void kernel_loop(const Stmt& s, const ForNode& f) {
    if (f.mode == LoopMode::Par || f.mode == LoopMode::CudaBlocks)
      fail(s.srcinfo(), "a " + std::string(to_string(f.mode)) + " loop ('" + f.iter.name() +
                            "') cannot stand inside a kernel's block");
    device_reads(f.lo);
    device_reads(f.hi);
    if (f.mode == LoopMode::Seq) return kernel_block(f.body);
    std::optional<int64_t> extent = cuda_lane_extent(f);
    if (!extent)
      fail(s.srcinfo(), "the bounds of " + std::string(to_string(f.mode)) + " loop '" +
                            f.iter.name() + "' must be integer constants (the block's shape " +
                            "is fixed when the kernel is launched)");
    if (f.mode == LoopMode::CudaWarps) {
      if (!lanes_.empty() && lanes_.back().loop->mode == LoopMode::CudaWarps &&
          lanes_.back().unit == kCudaWarpSize)
        fail(s.srcinfo(), "cuda_warps loop '" + f.iter.name() + "' stands inside the warp of '" +
                              lanes_.back().loop->iter.name() + "'");
      if (int64_t inner = cuda_footprint(f.body); inner > kCudaWarpSize)
        fail(s.srcinfo(), "the body of cuda_warps loop '" + f.iter.name() + "' needs " +
                              std::to_string(inner) + " threads; a warp has " +
                              std::to_string(kCudaWarpSize));
    }
    lanes_.push_back(Lane{&f, *extent, cuda_lane_unit(f)});
    kernel_block(f.body);
    lanes_.pop_back();
  }

  void kernel_alloc(const Stmt& s, const AllocNode& a) {
    DeviceScope sc = scope_of(a.mem);
    mem_[a.name] = a.mem;
    for (const Expr& d : a.type.shape) device_reads(d);
    if (sc == DeviceScope::Block) {
      if (!lanes_.empty())
        fail(s.srcinfo(), "'" + a.name.name() + "' (" + a.mem +
                              ", one array per block) is allocated " + where_word() +
                              "; allocate it at block level, outside the lane loops");
      return;
    }
    if (sc == DeviceScope::Warp) {
      if (lanes_.empty()) {  // distributed over the block's warps
        distributed_[a.name] = Distribution{true, {}, false};
        return;
      }
      if (!at_warp_level())
        fail(s.srcinfo(), "'" + a.name.name() + "' (" + a.mem +
                              ", one per warp) must be allocated directly in a cuda_warps "
                              "loop's body, or at block level");
      return;
    }
    if (sc != DeviceScope::Thread)
      fail(s.srcinfo(), "'" + a.name.name() + "' is allocated in " + a.mem +
                            ", which a kernel cannot allocate (kernels allocate block-shared "
                            "and register buffers)");
    if (lanes_.empty()) {
      distributed_[a.name] = Distribution{};
      return;
    }
    if (group() != 1)
      fail(s.srcinfo(), "register buffer '" + a.name.name() + "' is allocated " + where_word() +
                            ": each of those threads would hold its own copy; allocate it "
                            "inside the lane loops down to single threads, or at block level");
  }

  void kernel_call(const Stmt& s, const CallNode& c) {
    const ProcNode& callee = *c.proc;
    if (!callee.instr)
      fail(s.srcinfo(), "kernel code calls proc '" + callee.name +
                            "', which is not an instruction; inline it (inline_proc)");
    if (callee.instr->sync == "cuda_block" || callee.instr->sync == "cuda_block_async") {
      if (!lanes_.empty())
        fail(s.srcinfo(), "barrier '" + callee.name + "' stands under lane loop '" +
                              lanes_.back().loop->iter.name() +
                              "': the block's threads would not all reach it; put it at block "
                              "level");
      return;
    }
    if (callee.instr->sync == "cuda_warp") {
      if (lanes_.empty() || lanes_.back().loop->mode != LoopMode::CudaWarps)
        fail(s.srcinfo(),
             "warp barrier '" + callee.name + "' must stand directly in a cuda_warps loop's body");
      return;
    }
    const bool collective = callee.instr->collective == "cuda_warp";
    if (collective && !at_warp_level())
      fail(s.srcinfo(), "instruction '" + callee.name +
                            "' is executed by a whole warp: call it directly in a cuda_warps "
                            "loop's body");
    if (!collective && group() != 1)
      fail(s.srcinfo(), "instruction '" + callee.name + "' is called " + where_word() +
                            ": it must run on one thread; put it inside cuda_threads loops "
                            "down to single threads");
    for (size_t k = 0; k < c.args.size() && k < callee.args.size(); ++k) {
      const Expr& a = c.args[k];
      const Sym* buf = nullptr;
      if (const WindowExprNode* w = a.as<WindowExprNode>()) buf = &w->name;
      if (const ReadNode* r = a.as<ReadNode>(); r && r->type.is_tensor_or_window()) buf = &r->name;
      if (buf && !collective && scope_of(mem_of(*buf)) == DeviceScope::Warp)
        fail(a.srcinfo(), "'" + buf->name() + "' is a warp's fragment (" + mem_of(*buf) +
                              "); only warp-collective instructions take it");
      if (const WindowExprNode* w = a.as<WindowExprNode>()) {
        device_buffer(w->name, a.srcinfo());
        std::vector<Expr> points;
        for (const WAccess& d : w->idx) {
          if (d.is_interval) break;
          points.push_back(d.lo);
        }
        distributed_use(w->name, points, a.srcinfo());
        device_reads(a);
      } else if (const ReadNode* r = a.as<ReadNode>(); r && r->type.is_tensor_or_window()) {
        device_buffer(r->name, a.srcinfo());
        if (distributed_.count(windows_.root(r->name)))
          fail(a.srcinfo(), "distributed register buffer '" + r->name.name() +
                                "' is passed whole; pass this thread's slice (a window)");
      } else {
        device_reads(a);
      }
    }
  }

  // ---- uses of buffers in kernels -----------------------------------------------------------

  void device_buffer(const Sym& name, const SrcInfo& where) {
    std::string mem = mem_of(name);
    if (mem.empty() || scope_of(mem) != DeviceScope::Host) return;
    fail(where, "kernel code touches '" + name.name() + "', which is in " + mem +
                    " (host memory); a kernel's buffers must be in device memory (e.g. "
                    "CUDA_GLOBAL)");
  }

  void device_reads(const Expr& e) {
    if (!e.defined()) return;
    struct Reads : IRVisitor {
      CudaRules* self;
      void visit_Read(const ReadNode* n, const Expr& e) override {
        if (n->type.is_data() || n->type.is_tensor_or_window()) {
          self->device_buffer(n->name, e.srcinfo());
          if (n->type.is_data() && !n->type.is_tensor_or_window())
            self->distributed_use(n->name, n->idx, e.srcinfo());
        }
        IRVisitor::visit_Read(n, e);
      }
      void visit_ReadConfig(const ReadConfigNode* n, const Expr& e) override {
        fail(e.srcinfo(), "kernel code reads " + n->config->name + "." + n->field +
                              ": configuration state lives on the host");
      }
    } reads;
    reads.self = this;
    reads.visit(e);
  }

  // A use of `name[idx...]`; checks the distribution rule when `name` is a distributed buffer.
  void distributed_use(const Sym& name, const std::vector<Expr>& idx, const SrcInfo& where) {
    auto it = distributed_.find(windows_.root(name));
    if (it == distributed_.end()) return;
    Distribution& d = it->second;
    const std::string who = std::string(d.over_warps ? "distributed warp fragment '"
                                                     : "distributed register buffer '") +
                            name.name() + "'";
    if (d.over_warps && !at_warp_level())
      fail(where, who + " is used " + where_word() +
                      ": only warps (directly in a cuda_warps body) touch their slices");
    if (!d.over_warps && (lanes_.empty() || group() != 1))
      fail(where, who + " is used " + where_word() + ": only single threads touch their slices");
    if (idx.size() < lanes_.size())
      fail(where, who + " has fewer indices than the " + std::to_string(lanes_.size()) +
                      " lane loops around this use");
    std::vector<std::pair<int64_t, int64_t>> geometry;
    for (size_t k = 0; k < lanes_.size(); ++k) {
      const Lane& l = lanes_[k];
      const ReadNode* r = idx[k].as<ReadNode>();
      std::optional<int64_t> lo = fold_int_constant(l.loop->lo);
      if (r == nullptr || r->name != l.loop->iter || !r->idx.empty() || lo != 0)
        fail(where, who + ": index " + std::to_string(k) + " must be '" + l.loop->iter.name() +
                        "', the iterator of lane loop " + std::to_string(k + 1) +
                        " around it (running from 0), so that each "
                        "thread owns its slice");
      geometry.emplace_back(l.extent, l.unit);
    }
    if (!d.seen) {
      d.lanes = geometry;
      d.seen = true;
    } else if (d.lanes != geometry) {
      fail(where, who +
                      " is used under lane loops of another shape than at its first use: "
                      "one thread would read another thread's slice");
    }
  }

  static std::string one_line(const Stmt& s) {
    std::string t = to_string(s);
    while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
    size_t nl = t.find('\n');
    return nl == std::string::npos ? t : t.substr(0, nl);
  }
};

}  // namespace

void check_cuda_structure(const ProcNode& p, bool host_memory) {
  if (p.instr) return;  // an instruction's body is its meaning, not code that runs
  CudaRules(p, host_memory).host_block(p.body);
}

}  // namespace exocpp::typecheck_detail
