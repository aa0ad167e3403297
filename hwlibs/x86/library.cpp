// The x86 instructions: the embedded .exo files (avx512.exo, avx2.exo) parsed once, on first
// use, after the memories they mention are registered; handles look their proc up by name.
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "hwlibs/embedded_exo.h"
#include "hwlibs/x86/x86.h"

namespace exocpp::x86 {
namespace detail {
// Generated at build time (hwlibs/embed_exo.cmake).
extern const EmbeddedExo embedded_exo_files[];
extern const int embedded_exo_count;
}  // namespace detail

namespace {

Module parse_library() {
  register_memories();
  return parse_embedded_exo(detail::embedded_exo_files, detail::embedded_exo_count);
}

const std::map<std::string, Proc>& by_name() {
  static const std::map<std::string, Proc> index = [] {
    std::map<std::string, Proc> out;
    for (const Proc& p : library().procs) out.emplace(p.name(), p);
    return out;
  }();
  return index;
}

}  // namespace

const Module& library() {
  static const Module m = parse_library();
  return m;
}

const Proc& InstrRef::get() const {
  const auto& index = by_name();
  auto it = index.find(name_);
  if (it == index.end()) throw InternalError(std::string("x86: no instruction named ") + name_);
  return it->second;
}

std::ostream& operator<<(std::ostream& os, const InstrRef& instr) { return os << instr.get(); }

search::SketchOptions sketch_options() {
  register_memories();
  search::SketchOptions o;
  o.instructions = library().procs;
  const bool avx512 = __builtin_cpu_supports("avx512f");
  o.vector_memory = avx512 ? "AVX512" : "AVX2";
  // A whole register of the precision each vectorized statement writes.
  o.vector_bits = avx512 ? 512 : 256;
  return o;
}

std::vector<std::string> instruction_names() {
  return {
#define EXOCPP_X86_NAME(name) #name,
      EXOCPP_X86_INSTRUCTIONS(EXOCPP_X86_NAME)
#undef EXOCPP_X86_NAME
  };
}

}  // namespace exocpp::x86
