// The main of a schedule program (driver/library_main.h).
#include "driver/library_main.h"

#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>

#include "core/errors.h"
#include "driver/driver.h"

namespace exocpp {

int library_main(int argc, char** argv, const std::function<std::vector<Proc>()>& make_procs) {
  const std::string program = argc > 0 && argv[0] ? argv[0] : "schedule";
  if (argc != 3) {
    std::cerr << "usage: " << program << " OUT_DIR LIB_NAME\n"
              << "  writes OUT_DIR/LIB_NAME.c and OUT_DIR/LIB_NAME.h\n";
    return 2;
  }
  const std::string dir = argv[1], lib_name = argv[2];
  try {
    std::vector<Proc> procs = make_procs();
    if (procs.empty()) {
      std::cerr << program << ": the schedule returned no proc to emit into " << lib_name << ".c\n";
      return 1;
    }
    // emit_c refuses a missing folder; a build system names one it has not made yet.
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
      std::cerr << program << ": cannot create the folder '" << dir << "': " << ec.message()
                << "\n";
      return 1;
    }
    emit_c(procs, lib_name, dir);
    return 0;
  } catch (const Error& e) {
    std::cerr << e.what() << "\n";  // file:line:col, the source line, the reason
  } catch (const std::exception& e) {
    std::cerr << program << ": " << e.what() << "\n";  // an InternalError, or out of memory
  } catch (...) {
    std::cerr << program << ": the schedule threw an exception that is not a std::exception\n";
  }
  return 1;
}

int library_main(int argc, char** argv, const std::vector<Proc>& procs) {
  return library_main(argc, argv, [&procs] { return procs; });
}

}  // namespace exocpp
