// TOYVEC's memory (a C++ class registered by name) and its instructions (toyvec.exo, embedded
// at build time and parsed once).
#include "toyvec.h"

#include "toyvec_exo_text.h"

namespace toyvec {

using namespace exocpp;

namespace {

// Registers are plain C arrays in the functional model, but the unit owns them: plain code may
// not read or write them (can_read() is false), so only instructions touch a TOYREG buffer.
class ToyRegMemory : public Memory {
 public:
  std::string name() const override { return "TOYREG"; }
  bool can_read() const override { return false; }
  std::string alloc(const std::string& n, const std::string& t,
                    const std::vector<std::string>& shape, const SrcInfo&) const override {
    std::string size;
    for (const std::string& s : shape) size += (size.empty() ? "" : " * ") + s;
    return t + " " + n + "[" + (size.empty() ? "1" : size) + "];";
  }
  std::string free(const std::string&, const std::string&, const std::vector<std::string>&,
                   const SrcInfo&) const override {
    return "";
  }
};

}  // namespace

const Memory& TOYREG() {
  static const Memory& mem = []() -> const Memory& {
    register_memory(std::make_shared<ToyRegMemory>());
    return *find_memory("TOYREG");
  }();
  return mem;
}

const Module& library() {
  static const Module lib = [] {
    TOYREG();  // the instructions' signatures say @ TOYREG
    return parse_module(EXOCPP_TOYVEC_EXO_TEXT, {}, "toyvec.exo");
  }();
  return lib;
}

Proc instr(const std::string& name) { return library().proc(name); }

Config config() { return library().config("ToyCfg"); }

}  // namespace toyvec
