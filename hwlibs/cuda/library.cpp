// The CUDA memories and the embedded instructions (hwlibs/cuda/cuda.h).
#include <cctype>
#include <mutex>
#include <string>
#include <vector>

#include "hwlibs/cuda/cuda.h"
#include "hwlibs/embedded_exo.h"

namespace exocpp::cuda {
namespace detail {
// Generated at build time (hwlibs/embed_exo.cmake).
extern const EmbeddedExo embedded_exo_files[];
extern const int embedded_exo_count;
}  // namespace detail

namespace {

// The element count of a constant shape (each extent a decimal literal, possibly in
// parentheses), or -1 when some extent is not one.
long long constant_elements(const std::vector<std::string>& shape) {
  long long n = 1;
  for (const std::string& s : shape) {
    std::string digits;
    for (char c : s)
      if (c != '(' && c != ')' && c != ' ') digits += c;
    if (digits.empty() || digits.size() > 9) return -1;
    for (char c : digits)
      if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
    n *= std::stoll(digits);
  }
  return n;
}

std::string join_shape(const std::vector<std::string>& shape) {
  std::string out;
  for (const std::string& s : shape) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// Device global memory: allocated by the host (cudaMalloc), touched by kernels.
class GlobalMemory : public Memory {
 public:
  std::string name() const override { return "CUDA_GLOBAL"; }
  DeviceScope device_scope() const override { return DeviceScope::Global; }
  std::string global() const override { return "#include <cuda_runtime.h>\n#include <stdlib.h>"; }
  std::string alloc(const std::string& new_name, const std::string& prim_type,
                    const std::vector<std::string>& shape, const SrcInfo& where) const override {
    if (shape.empty())
      throw CodegenError(where, "cannot allocate scalar '" + new_name +
                                    "' in CUDA_GLOBAL; declare it as a tensor of one element");
    std::string count;
    for (const std::string& s : shape)
      count += (count.empty() ? "" : " * ") + ("(size_t)(" + s + ")");
    return prim_type + " *" + new_name + " = NULL;\nif (cudaMalloc((void **)&" + new_name +
           ", sizeof(" + prim_type + ") * " + count + ") != cudaSuccess) abort();";
  }
  std::string free(const std::string& new_name, const std::string&, const std::vector<std::string>&,
                   const SrcInfo&) const override {
    return "cudaFree(" + new_name + ");";
  }
};

// Memory that a kernel declares as a fixed-size array: shared memory (once per block) or
// registers (once per thread).
class KernelArray : public Memory {
 public:
  KernelArray(std::string name, DeviceScope scope, std::string qualifier, std::string what,
              bool dynamic = false)
      : name_(std::move(name)),
        scope_(scope),
        qualifier_(std::move(qualifier)),
        what_(std::move(what)),
        dynamic_(dynamic) {}
  std::string name() const override { return name_; }
  DeviceScope device_scope() const override { return scope_; }
  bool dynamic_shared() const override { return dynamic_; }
  std::string alloc(const std::string& new_name, const std::string& prim_type,
                    const std::vector<std::string>& shape, const SrcInfo& where) const override {
    if (shape.empty()) return qualifier_ + prim_type + " " + new_name + ";";
    long long n = constant_elements(shape);
    if (n < 0)
      throw CodegenError(where, "cannot allocate '" + new_name + "' of shape [" +
                                    join_shape(shape) + "] in " + name_ + ": " + what_ +
                                    " needs a constant shape");
    return qualifier_ + prim_type + " " + new_name + "[" + std::to_string(n) + "];";
  }
  std::string free(const std::string&, const std::string&, const std::vector<std::string>&,
                   const SrcInfo&) const override {
    return "";
  }

 private:
  std::string name_;
  DeviceScope scope_;
  std::string qualifier_, what_;
  bool dynamic_;
};

// What every tensor-core fragment memory shares: one warp holds a fragment across its threads'
// registers, only warp-collective instructions touch it, nothing is freed, and a window is one
// whole fragment: a buffer [d..., rows, cols] is an array of fragments (C array dimensions
// [d]...), a window names one by its leading indices and starts at 0 in the last two.
class FragmentMemory : public Memory {
 public:
  explicit FragmentMemory(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  DeviceScope device_scope() const override { return DeviceScope::Warp; }
  bool can_read() const override { return false; }
  bool addressable() const override { return false; }
  std::string free(const std::string&, const std::string&, const std::vector<std::string>&,
                   const SrcInfo&) const override {
    return "";
  }
  std::string window(const std::string&, const std::string& baseptr,
                     const std::vector<std::string>& indices, const std::vector<std::string>&,
                     const SrcInfo& where) const override {
    std::string out = baseptr;
    for (size_t d = 0; d < indices.size(); ++d) {
      if (d + 2 < indices.size()) {
        out += "[" + indices[d] + "]";
      } else if (indices[d] != "0") {
        throw CodegenError(where, "a window of fragment '" + baseptr + "' (" + name_ +
                                      ") must be one whole fragment, not a part starting at " +
                                      indices[d]);
      }
    }
    return out;
  }

 protected:
  // The C array dimensions "[d]..." of a buffer of shape [d..., rows, cols]: an array of
  // fragments, which needs constant extents.
  std::string array_dims(const std::string& new_name, const std::vector<std::string>& shape,
                         const SrcInfo& where) const {
    std::string dims;
    for (size_t d = 0; d + 2 < shape.size(); ++d) {
      if (constant_elements({shape[d]}) < 0)
        throw CodegenError(where, "cannot allocate '" + new_name + "' of shape [" +
                                      join_shape(shape) + "] in " + name_ +
                                      ": an array of fragments needs constant extents");
      dims += "[" + shape[d] + "]";
    }
    return dims;
  }

  std::string name_;
};

// A wmma fragment (nvcuda::wmma::fragment): one 16 x 16 matrix. Buffers may be arrays of
// fragments: shape [d..., 16, 16] with constant d's is a C array [d]... of fragments.
class Fragment : public FragmentMemory {
 public:
  Fragment(std::string name, std::string use, std::string elem, std::string layout)
      : FragmentMemory(std::move(name)),
        use_(std::move(use)),
        elem_(std::move(elem)),
        layout_(std::move(layout)) {}
  std::string global() const override { return "#include <mma.h>"; }
  std::string alloc(const std::string& new_name, const std::string& prim_type,
                    const std::vector<std::string>& shape, const SrcInfo& where) const override {
    const bool fits = shape.size() >= 2 && prim_type == elem_ &&
                      constant_elements({shape[shape.size() - 2]}) == 16 &&
                      constant_elements({shape.back()}) == 16;
    if (!fits)
      throw CodegenError(where, "cannot allocate '" + new_name + "' in " + name_ +
                                    ": it holds 16 x 16 fragments of " + elem_ + ", not [" +
                                    join_shape(shape) + "] of " + prim_type);
    return "nvcuda::wmma::fragment<nvcuda::wmma::" + use_ + ", 16, 16, 16, " +
           (elem_ == "exo_f16" ? std::string("__half") : elem_) + layout_ + "> " + new_name +
           array_dims(new_name, shape, where) + ";";
  }

 private:
  std::string use_, elem_, layout_;
};

// The text of an embedded file that is not .exo (the device functions instructions call).
const char* embedded_text(const std::string& name) {
  for (int i = 0; i < detail::embedded_exo_count; ++i)
    if (detail::embedded_exo_files[i].name == name) return detail::embedded_exo_files[i].text;
  throw InternalError("cuda: no embedded file " + name);
}

// A fragment of mma.sync.m16n8k16 (hwlibs/cuda/mma.exo): a rows x cols matrix one warp holds as
// `regs` registers of each lane (the layout is PTX's, in mma_helpers.cuh). Buffers may be arrays
// of fragments: shape [d..., rows, cols] with constant d's is a C array [d]...[regs].
class MmaFragment : public FragmentMemory {
 public:
  MmaFragment(std::string name, std::string elem, int rows, int cols, std::string reg, int regs)
      : FragmentMemory(std::move(name)),
        elem_(std::move(elem)),
        rows_(rows),
        cols_(cols),
        reg_(std::move(reg)),
        regs_(regs) {}
  std::string global() const override { return embedded_text("hwlibs/cuda/mma_helpers.cuh"); }
  std::string alloc(const std::string& new_name, const std::string& prim_type,
                    const std::vector<std::string>& shape, const SrcInfo& where) const override {
    const std::string fragment = std::to_string(rows_) + " x " + std::to_string(cols_);
    const bool fits = shape.size() >= 2 && prim_type == elem_ &&
                      constant_elements({shape[shape.size() - 2]}) == rows_ &&
                      constant_elements({shape.back()}) == cols_;
    if (!fits)
      throw CodegenError(where, "cannot allocate '" + new_name + "' in " + name_ + ": it holds " +
                                    fragment + " fragments of " + elem_ + ", not [" +
                                    join_shape(shape) + "] of " + prim_type);
    return reg_ + " " + new_name + array_dims(new_name, shape, where) + "[" +
           std::to_string(regs_) + "];";
  }

 private:
  std::string elem_;
  int rows_, cols_;
  std::string reg_;
  int regs_;
};

// A block's shared f16 array in the 128-byte XOR swizzle of mma_helpers.cuh: the element of
// row-major index L lives at exocpp_swizzle128(L), so that the rows ldmatrix reads at once fall
// in different banks whatever the row length. Plain code reads and writes elements through the
// swizzle; a pointer to an element would not address its neighbours, so there are no windows
// (addressable() is false) except those instructions receive, which must cover whole runs of 8
// elements (window_granule) and address them with {x_base} and {x_offset}.
class SwizzledShared : public Memory {
 public:
  std::string name() const override { return "CUDA_SHARED_SWIZZLED"; }
  DeviceScope device_scope() const override { return DeviceScope::Block; }
  bool addressable() const override { return false; }
  int64_t window_granule() const override { return 8; }
  std::string global() const override { return embedded_text("hwlibs/cuda/mma_helpers.cuh"); }
  std::string alloc(const std::string& new_name, const std::string& prim_type,
                    const std::vector<std::string>& shape, const SrcInfo& where) const override {
    const long long n = constant_elements(shape);
    const long long row = shape.empty() ? -1 : constant_elements({shape.back()});
    std::string why;
    if (prim_type != "exo_f16")
      why = "it holds f16 elements, not " + prim_type;
    else if (n < 0)
      why = "it needs a constant shape";
    else if (row % 8 != 0)
      why = "its rows must be a multiple of 8 elements (16-byte runs)";
    else if (n % 64 != 0)
      why = "it must hold a multiple of 64 elements (whole 128-byte lines)";
    if (!why.empty())
      throw CodegenError(where, "cannot allocate '" + new_name + "' of shape [" +
                                    join_shape(shape) + "] in CUDA_SHARED_SWIZZLED: " + why);
    return "__shared__ __align__(128) exo_f16 " + new_name + "[" + std::to_string(n) + "];";
  }
  std::string free(const std::string&, const std::string&, const std::vector<std::string>&,
                   const SrcInfo&) const override {
    return "";
  }
  std::string window(const std::string&, const std::string& baseptr,
                     const std::vector<std::string>& indices,
                     const std::vector<std::string>& strides, const SrcInfo&) const override {
    return baseptr + "[exocpp_swizzle128(" + linear_offset(indices, strides) + ")]";
  }
};

Module parse_library() {
  register_memories();
  // The .exo files only; the others are text the memories emit.
  std::vector<EmbeddedExo> exo;
  for (int i = 0; i < detail::embedded_exo_count; ++i) {
    const std::string name = detail::embedded_exo_files[i].name;
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".exo") == 0)
      exo.push_back(detail::embedded_exo_files[i]);
  }
  return parse_embedded_exo(exo.data(), static_cast<int>(exo.size()));
}

}  // namespace

void register_memories() {
  static std::once_flag once;
  std::call_once(once, [] {
    register_memory(std::make_shared<GlobalMemory>());
    // Aligned for the widest accesses instructions make of shared memory (wmma loads want 32
    // bytes; 128 also serves vector and asynchronous copies).
    register_memory(std::make_shared<KernelArray>(
        "CUDA_SHARED", DeviceScope::Block, "__shared__ __align__(128) ", "a block's shared array"));
    // Shared arrays in the kernel's dynamic shared memory, which the code generator lays out and
    // the launch sizes (past 48 KB the host opts in with cudaFuncSetAttribute).
    register_memory(std::make_shared<KernelArray>("CUDA_SHARED_DYN", DeviceScope::Block,
                                                  "__shared__ __align__(128) ",
                                                  "a block's shared array", true));
    register_memory(std::make_shared<SwizzledShared>());
    register_memory(std::make_shared<KernelArray>("CUDA_REG", DeviceScope::Thread, "",
                                                  "a thread's register array"));
    register_memory(
        std::make_shared<Fragment>("WMMA_A", "matrix_a", "exo_f16", ", nvcuda::wmma::row_major"));
    register_memory(
        std::make_shared<Fragment>("WMMA_B", "matrix_b", "exo_f16", ", nvcuda::wmma::row_major"));
    register_memory(std::make_shared<Fragment>("WMMA_ACC", "accumulator", "float", ""));
    // PTX's m16n8k16 fragments: 4 x 2 f16 of A, 2 x 2 f16 of B, 4 f32 of C in each lane.
    register_memory(std::make_shared<MmaFragment>("MMA_A", "exo_f16", 16, 16, "unsigned", 4));
    register_memory(std::make_shared<MmaFragment>("MMA_B", "exo_f16", 16, 8, "unsigned", 2));
    register_memory(std::make_shared<MmaFragment>("MMA_ACC", "float", 16, 8, "float", 4));
  });
}

namespace {
const Memory& registered(const char* name) {
  register_memories();
  return *find_memory(name);
}
}  // namespace

const Memory& CUDA_GLOBAL() { return registered("CUDA_GLOBAL"); }
const Memory& CUDA_SHARED() { return registered("CUDA_SHARED"); }
const Memory& CUDA_SHARED_DYN() { return registered("CUDA_SHARED_DYN"); }
const Memory& CUDA_SHARED_SWIZZLED() { return registered("CUDA_SHARED_SWIZZLED"); }
const Memory& CUDA_REG() { return registered("CUDA_REG"); }
const Memory& WMMA_A() { return registered("WMMA_A"); }
const Memory& WMMA_B() { return registered("WMMA_B"); }
const Memory& WMMA_ACC() { return registered("WMMA_ACC"); }
const Memory& MMA_A() { return registered("MMA_A"); }
const Memory& MMA_B() { return registered("MMA_B"); }
const Memory& MMA_ACC() { return registered("MMA_ACC"); }

const std::string& mma_helpers_text() {
  static const std::string text = embedded_text("hwlibs/cuda/mma_helpers.cuh");
  return text;
}

const Module& library() {
  static const Module m = parse_library();
  return m;
}

const Proc& instr(const std::string& name) { return library_proc(library(), name, "cuda"); }

std::vector<std::string> instruction_names() { return library_proc_names(library()); }

}  // namespace exocpp::cuda
