// The public emission entry points: a library as strings, or written atomically to a folder.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "codegen/c_module.h"

namespace exocpp {
namespace {

// Writes `text` to a fresh temporary file in `dir` and returns its path.
std::string write_temp(const std::string& dir, const std::string& base, const std::string& text) {
  std::string tmpl = dir + "/." + base + ".XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  int fd = mkstemp(buf.data());
  if (fd < 0)
    throw CodegenError({}, "cannot create a file in '" + dir + "': " + std::strerror(errno));
  std::string path(buf.data());
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) {
      int err = errno;
      ::close(fd);
      std::remove(path.c_str());
      throw CodegenError({}, "cannot write '" + path + "': " + std::strerror(err));
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) {
    int err = errno;
    std::remove(path.c_str());
    throw CodegenError({}, "cannot write '" + path + "': " + std::strerror(err));
  }
  return path;
}

}  // namespace

CSource compile_procs_to_c(const std::vector<Proc>& procs, const std::string& lib_name) {
  return codegen::emit_library(procs, lib_name, {});
}

void emit_c(const std::vector<Proc>& procs, const std::string& lib_name, const std::string& dir) {
  CSource src = compile_procs_to_c(procs, lib_name);  // every error happens before any write
  std::string c_tmp = write_temp(dir, lib_name + ".c", src.source);
  std::string h_tmp;
  try {
    h_tmp = write_temp(dir, lib_name + ".h", src.header);
  } catch (...) {
    std::remove(c_tmp.c_str());
    throw;
  }
  for (auto [tmp, final_name] : {std::pair{h_tmp, lib_name + ".h"}, std::pair{c_tmp, lib_name + ".c"}}) {
    std::string target = dir + "/" + final_name;
    if (std::rename(tmp.c_str(), target.c_str()) != 0) {
      int err = errno;
      std::remove(c_tmp.c_str());
      std::remove(h_tmp.c_str());
      throw CodegenError({}, "cannot write '" + target + "': " + std::strerror(err));
    }
  }
}

}  // namespace exocpp
