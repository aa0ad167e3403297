// The AVX2 and AVX512 memories: arrays of vector registers that only instructions may touch.
// A buffer's last dimension is one register (16 f32, 8 f64, 16 i32, 32 ui16 or 64 i8/ui8 lanes
// for AVX512, half as many for AVX2); the dimensions before it index an array of registers: `f32[4,
// 16] @ AVX512` is emitted as `__m512 name[4]`, and the window C_reg[i, 0:16] as `C_reg[i]`.
#include <string>
#include <vector>

#include "hwlibs/x86/x86.h"

namespace exocpp::x86 {
namespace {

// `s` without blanks and without parentheses around the whole of it: "( 16 )" -> "16".
std::string bare(const std::string& s) {
  std::string t;
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\n') t += c;
  while (t.size() >= 2 && t.front() == '(' && t.back() == ')') {
    int depth = 0;
    bool outer = true;  // does the first '(' close at the very end?
    for (size_t i = 0; i + 1 < t.size(); ++i) {
      depth += t[i] == '(' ? 1 : t[i] == ')' ? -1 : 0;
      if (depth == 0) outer = false;
    }
    if (!outer) break;
    t = t.substr(1, t.size() - 2);
  }
  return t;
}

std::string join(const std::vector<std::string>& xs) {
  std::string out;
  for (const std::string& x : xs) out += (out.empty() ? "" : ", ") + x;
  return out;
}

class VectorRegisters : public Memory {
 public:
  // `bits`: 256 (AVX2, __m256 / __m256d) or 512 (AVX512, __m512 / __m512d).
  VectorRegisters(std::string name, int bits) : name_(std::move(name)), bits_(bits) {}

  std::string name() const override { return name_; }
  bool can_read() const override { return false; }
  bool addressable() const override { return false; }
  std::string global() const override { return "#include <immintrin.h>"; }

  // Declares the register array, zero-filled: instructions that keep the lanes they do not
  // write (the masked ones) read the register, and C compilers reject (-Wall -Werror) a read
  // of an uninitialised variable. A register the code fully overwrites loses the zeroing to
  // the optimiser.
  std::string alloc(const std::string& new_name, const std::string& prim_type,
                    const std::vector<std::string>& shape, const SrcInfo& where) const override {
    const Lanes lanes = lanes_of(new_name, prim_type, where);
    if (shape.empty())
      throw CodegenError(where, "cannot allocate scalar '" + new_name + "' in " + name_ +
                                    ": a register holds " + lanes.describe() + "; declare it as " +
                                    lanes.exo_type + "[" + std::to_string(lanes.width) +
                                    "] (or [..., " + std::to_string(lanes.width) +
                                    "] for several registers)");
    if (bare(shape.back()) != std::to_string(lanes.width))
      throw CodegenError(where, "cannot allocate '" + new_name + "' of shape [" + join(shape) +
                                    "] in " + name_ +
                                    ": the last dimension must be the register "
                                    "width, " +
                                    std::to_string(lanes.width) + " for " + lanes.exo_type);
    std::string dims;
    for (size_t d = 0; d + 1 < shape.size(); ++d) dims += "[" + shape[d] + "]";
    return lanes.c_type + " " + new_name + dims + " = {0};";
  }

  std::string free(const std::string&, const std::string&, const std::vector<std::string>&,
                   const SrcInfo&) const override {
    return "";
  }

  // The register holding the window's origin: every index but the last selects the register,
  // and the last must be 0 with unit stride (a window covers whole registers).
  std::string window(const std::string&, const std::string& baseptr,
                     const std::vector<std::string>& indices,
                     const std::vector<std::string>& strides, const SrcInfo& where) const override {
    if (indices.empty())
      throw CodegenError(where, "'" + baseptr + "' in " + name_ + " has no lane dimension");
    if (bare(indices.back()) != "0")
      throw CodegenError(where, "a window of '" + baseptr + "' in " + name_ +
                                    " must start at lane 0 of a register, but its last index is " +
                                    indices.back());
    if (strides.size() == indices.size() && bare(strides.back()) != "1")
      throw CodegenError(where, "a window of '" + baseptr + "' in " + name_ +
                                    " must have unit stride in its last dimension, but it is " +
                                    strides.back());
    std::string out = baseptr;
    for (size_t d = 0; d + 1 < indices.size(); ++d) out += "[" + indices[d] + "]";
    return out;
  }

 private:
  struct Lanes {
    std::string c_type;    // "__m512"
    std::string exo_type;  // "f32"
    int width;             // 16
    std::string describe() const {
      return std::to_string(width) + " " + exo_type + " (" + c_type + ")";
    }
  };

  Lanes lanes_of(const std::string& buf, const std::string& prim_type, const SrcInfo& where) const {
    const std::string base = bits_ == 512 ? "__m512" : "__m256";
    if (prim_type == "float") return {base, "f32", bits_ / 32};
    if (prim_type == "double") return {base + "d", "f64", bits_ / 64};
    if (prim_type == "int32_t") return {base + "i", "i32", bits_ / 32};
    if (prim_type == "uint16_t") return {base + "i", "ui16", bits_ / 16};
    if (prim_type == "int8_t") return {base + "i", "i8", bits_ / 8};
    if (prim_type == "uint8_t") return {base + "i", "ui8", bits_ / 8};
    throw CodegenError(where, "cannot allocate '" + buf + "' of C type " + prim_type + " in " +
                                  name_ + ": its registers hold f32 (" + base + "), f64 (" + base +
                                  "d) or integer (" + base + "i) vectors");
  }

  std::string name_;
  int bits_;
};

// Heap memory whose arrays start on a 64-byte boundary (a cache line, one AVX-512 register):
// a row of a multiple of 64 bytes then never splits a vector load or store across two lines,
// which malloc's 16-byte alignment does to every other one. Plain code reads and writes it as
// DRAM. The allocation over-allocates with malloc and keeps the original pointer just before
// the aligned one (C99: no aligned_alloc or posix_memalign needed).
class AlignedDram : public Memory {
 public:
  std::string name() const override { return "DRAM_ALIGNED"; }
  bool passes_as_dram() const override { return true; }
  std::string global() const override {
    return "#include <stdint.h>\n"
           "#include <stdlib.h>\n"
           "static inline void *exo_aligned64_alloc(size_t n) {\n"
           "    unsigned char *raw = (unsigned char *)malloc(n + 64 + sizeof(void *));\n"
           "    if (!raw) return NULL;\n"
           "    uintptr_t at = ((uintptr_t)(raw + sizeof(void *)) + 63) & ~(uintptr_t)63;\n"
           "    ((void **)at)[-1] = raw;\n"
           "    return (void *)at;\n"
           "}\n"
           "static inline void exo_aligned64_free(void *p) {\n"
           "    if (p) free(((void **)p)[-1]);\n"
           "}";
  }
  std::string alloc(const std::string& new_name, const std::string& prim_type,
                    const std::vector<std::string>& shape, const SrcInfo& where) const override {
    if (shape.empty()) return Memory::alloc(new_name, prim_type, shape, where);
    std::string size;
    for (const std::string& s : shape) size += "(" + s + ") * ";
    return prim_type + " *" + new_name + " = (" + prim_type + "*) exo_aligned64_alloc(" + size +
           "sizeof(" + prim_type + "));";
  }
  std::string free(const std::string& new_name, const std::string& prim_type,
                   const std::vector<std::string>& shape, const SrcInfo& where) const override {
    if (shape.empty()) return Memory::free(new_name, prim_type, shape, where);
    return "exo_aligned64_free(" + new_name + ");";
  }
};

const std::shared_ptr<const Memory>& dram_aligned() {
  static const std::shared_ptr<const Memory> m = std::make_shared<AlignedDram>();
  return m;
}

const std::shared_ptr<const Memory>& avx2() {
  static const std::shared_ptr<const Memory> m = std::make_shared<VectorRegisters>("AVX2", 256);
  return m;
}
const std::shared_ptr<const Memory>& avx512() {
  static const std::shared_ptr<const Memory> m = std::make_shared<VectorRegisters>("AVX512", 512);
  return m;
}

}  // namespace

void register_memories() {
  static const bool registered = [] {
    register_memory(avx2());
    register_memory(avx512());
    register_memory(dram_aligned());
    return true;
  }();
  (void)registered;
}

const Memory& MemoryRef::get() const {
  register_memories();
  const std::string n = name_;
  if (n == "AVX2") return *avx2();
  if (n == "AVX512") return *avx512();
  if (n == "DRAM_ALIGNED") return *dram_aligned();
  throw InternalError("x86::MemoryRef: no memory named " + n);
}

}  // namespace exocpp::x86
