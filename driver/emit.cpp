// The public emission entry points: a library as strings, or written atomically to a folder.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "driver/driver.h"
#include "driver/lower.h"

namespace exocpp {
namespace {

// A name in `dir` that no file has yet, for a temporary file next to `final_name`.
std::string temp_name(const std::string& dir, const std::string& final_name, const char* what) {
  static std::atomic<unsigned> counter{0};
  return dir + "/." + final_name + "." + what + "." + std::to_string(::getpid()) + "." +
         std::to_string(counter.fetch_add(1));
}

// Writes `text` to a fresh temporary file in `dir` and returns its path. The file is created
// with mode 0666, so the kernel applies the process's umask, as for any file a program writes.
std::string write_temp(const std::string& dir, const std::string& final_name,
                       const std::string& text) {
  std::string path;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    path = temp_name(dir, final_name, "tmp");
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0)
    throw CodegenError({}, "cannot create a file in '" + dir + "': " + std::strerror(errno));
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = n < 0 ? errno : ENOSPC;
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

// One output file on its way into place.
struct Output {
  std::string target, text;
  std::string tmp;     // the written temporary file
  std::string backup;  // a hard link to the file `target` held before, if any
  bool renamed = false;
};

// Refuses a folder that is missing or a target that exists but is not a regular file, before
// anything is written.
void check_targets(const std::string& dir, const std::vector<Output>& outs) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0)
    throw CodegenError({}, "cannot write into '" + dir + "': " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode))
    throw CodegenError({}, "cannot write into '" + dir + "': it is not a folder");
  for (const Output& o : outs) {
    // A symbolic link is replaced by the new file, like a regular one.
    if (::lstat(o.target.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
      throw CodegenError({}, "cannot write '" + o.target +
                                 "': it exists and is not a regular file (" +
                                 (S_ISDIR(st.st_mode) ? "a folder" : "a special file") + ")");
  }
}

// Puts every output in place, or none: an output whose rename fails undoes those before it
// (each replaced file comes back from its backup link, each new one is removed).
void commit(const std::string& dir, std::vector<Output>& outs) {
  auto cleanup = [&] {
    for (Output& o : outs) {
      if (!o.tmp.empty() && !o.renamed) std::remove(o.tmp.c_str());
      if (!o.backup.empty()) std::remove(o.backup.c_str());
    }
  };
  for (Output& o : outs) {
    // Keep what the target holds now, to restore it if a later output fails.
    std::string b = temp_name(dir, o.target.substr(o.target.rfind('/') + 1), "old");
    if (::link(o.target.c_str(), b.c_str()) == 0) o.backup = b;
  }
  for (size_t k = 0; k < outs.size(); ++k) {
    Output& o = outs[k];
    if (std::rename(o.tmp.c_str(), o.target.c_str()) == 0) {
      o.renamed = true;
      continue;
    }
    int err = errno;
    for (size_t j = 0; j < k; ++j) {
      Output& done = outs[j];
      if (!done.backup.empty()) {
        if (std::rename(done.backup.c_str(), done.target.c_str()) == 0) done.backup.clear();
      } else {
        std::remove(done.target.c_str());
      }
    }
    cleanup();
    throw CodegenError({}, "cannot write '" + o.target + "': " + std::strerror(err) +
                               " (no output file was written)");
  }
  cleanup();
}

}  // namespace

CSource compile_procs_to_c(const std::vector<Proc>& procs, const std::string& lib_name) {
  return driver::lower_to_c(procs, lib_name);
}

CSource compile_procs_to_cuda(const std::vector<Proc>& procs, const std::string& lib_name) {
  codegen::LibraryOptions opts;
  opts.cuda = true;
  return driver::lower_to_c(procs, lib_name, opts);
}

namespace {

// Writes the library's source (`dir/lib_name.<ext>`) and header, all or nothing.
void write_library(CSource src, const std::string& lib_name, const std::string& ext,
                   const std::string& dir) {
  std::vector<Output> outs(2);
  outs[0].target = dir + "/" + lib_name + "." + ext;
  outs[0].text = std::move(src.source);
  outs[1].target = dir + "/" + lib_name + ".h";
  outs[1].text = std::move(src.header);
  check_targets(dir, outs);
  try {
    for (Output& o : outs) o.tmp = write_temp(dir, o.target.substr(dir.size() + 1), o.text);
  } catch (...) {
    for (Output& o : outs)
      if (!o.tmp.empty()) std::remove(o.tmp.c_str());
    throw;
  }
  commit(dir, outs);
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& text) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  std::vector<Output> outs(1);
  outs[0].target = slash == std::string::npos ? "./" + path : path;  // a folder in every name
  outs[0].text = text;
  check_targets(dir, outs);
  outs[0].tmp = write_temp(dir, outs[0].target.substr(outs[0].target.rfind('/') + 1), text);
  commit(dir, outs);
}

void emit_c(const std::vector<Proc>& procs, const std::string& lib_name, const std::string& dir) {
  // Every error happens before any write.
  write_library(compile_procs_to_c(procs, lib_name), lib_name, "c", dir);
}

void emit_cuda(const std::vector<Proc>& procs, const std::string& lib_name,
               const std::string& dir) {
  write_library(compile_procs_to_cuda(procs, lib_name), lib_name, "cu", dir);
}

}  // namespace exocpp
