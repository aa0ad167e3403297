// The memory registry and the built-in DRAM memories.
#include "core/memory.h"

#include <cctype>
#include <map>
#include <mutex>

#include "core/errors.h"

namespace exocpp {

namespace {

// `e` as a factor of a product: parenthesized unless it is a name or a number.
std::string factor(const std::string& e) {
  for (char c : e)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '[' &&
        c != ']')
      return "(" + e + ")";
  return e;
}

// The product of the shape's extents: "N * (M + 1) * 4".
std::string product(const std::vector<std::string>& shape) {
  std::string size;
  for (const std::string& s : shape) size += (size.empty() ? "" : " * ") + factor(s);
  return size;
}

}  // namespace

std::string Memory::alloc(const std::string& new_name, const std::string& prim_type,
                          const std::vector<std::string>& shape, const SrcInfo&) const {
  if (shape.empty()) return prim_type + " " + new_name + ";";
  return prim_type + " *" + new_name + " = (" + prim_type + "*) malloc(" + product(shape) +
         " * sizeof(" + prim_type + "));";
}

std::string Memory::free(const std::string& new_name, const std::string&,
                         const std::vector<std::string>& shape, const SrcInfo&) const {
  if (shape.empty()) return "";
  return "free(" + new_name + ");";
}

std::string Memory::window(const std::string&, const std::string& baseptr,
                           const std::vector<std::string>& indices,
                           const std::vector<std::string>& strides, const SrcInfo&) const {
  return baseptr + "[" + linear_offset(indices, strides) + "]";
}

std::string linear_offset(const std::vector<std::string>& indices,
                          const std::vector<std::string>& strides) {
  std::vector<std::string> terms;
  for (size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] == "0") continue;
    if (strides[i] == "1")
      terms.push_back(indices[i]);
    else
      terms.push_back(factor(indices[i]) + " * " + factor(strides[i]));
  }
  std::string off;
  for (const std::string& t : terms) off += (off.empty() ? "" : " + ") + t;
  return off.empty() ? "0" : off;
}

namespace {

class DramMemory : public Memory {
 public:
  std::string name() const override { return "DRAM"; }
  std::string global() const override { return "#include <stdio.h>\n#include <stdlib.h>"; }
  bool passes_as_dram() const override { return true; }
};

// Statically sized buffers declared as C arrays at function scope.
class DramStaticMemory : public Memory {
 public:
  std::string name() const override { return "DRAM_STATIC"; }
  bool static_storage() const override { return true; }
  bool passes_as_dram() const override { return true; }
  std::string alloc(const std::string& n, const std::string& t,
                    const std::vector<std::string>& shape, const SrcInfo&) const override {
    if (shape.empty()) return t + " " + n + ";";
    return "static " + t + " " + n + "[" + product(shape) + "];";
  }
  std::string free(const std::string&, const std::string&, const std::vector<std::string>&,
                   const SrcInfo&) const override {
    return "";
  }
};

// Buffers on the C stack (variable-length arrays).
class DramStackMemory : public Memory {
 public:
  std::string name() const override { return "DRAM_STACK"; }
  bool passes_as_dram() const override { return true; }
  std::string alloc(const std::string& n, const std::string& t,
                    const std::vector<std::string>& shape, const SrcInfo&) const override {
    if (shape.empty()) return t + " " + n + ";";
    return t + " " + n + "[" + product(shape) + "];";
  }
  std::string free(const std::string&, const std::string&, const std::vector<std::string>&,
                   const SrcInfo&) const override {
    return "";
  }
};

struct Registry {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<const Memory>> mems;
  Registry() {
    for (std::shared_ptr<const Memory> m :
         {std::shared_ptr<const Memory>(std::make_shared<DramMemory>()),
          std::shared_ptr<const Memory>(std::make_shared<DramStaticMemory>()),
          std::shared_ptr<const Memory>(std::make_shared<DramStackMemory>())})
      mems[m->name()] = m;
  }
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

void register_memory(std::shared_ptr<const Memory> mem) {
  EXOCPP_ASSERT(mem != nullptr, "register_memory(nullptr)");
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.mems[mem->name()] = std::move(mem);
}

const Memory* find_memory(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.mems.find(name);
  return it == r.mems.end() ? nullptr : it->second.get();
}

std::vector<std::string> memory_names() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<std::string> out;
  for (auto& [n, m] : r.mems) out.push_back(n);
  return out;
}

const Memory& DRAM() { return *find_memory("DRAM"); }
const Memory& DRAM_STATIC() { return *find_memory("DRAM_STATIC"); }
const Memory& DRAM_STACK() { return *find_memory("DRAM_STACK"); }

}  // namespace exocpp
