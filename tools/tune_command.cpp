// `exocpp tune` (tools/tune_command.h).
#include "tools/tune_command.h"

#include <cstdio>
#include <iostream>
#include <memory>

#include "hwlibs/x86/x86.h"
#include "search/plot.h"
#include "search/sketch.h"

namespace exocpp::cli {
namespace {

std::string ms(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", seconds * 1e3);
  return buf;
}

}  // namespace

int tune_command(const TuneCommand& c, std::ostream& out, std::ostream& progress) {
  const search::SketchOptions sketch = c.x86 ? x86::sketch_options() : search::SketchOptions{};
  search::TuneOptions o;
  o.seed = c.seed;
  o.trials = c.trials;
  o.max_seconds = c.minutes * 60;
  o.sizes = c.sizes;
  o.verify_sizes = c.verify_sizes;
  o.progress = [&](const search::Progress& at) {
    char tail[96] = "";
    if (at.model_error >= 0) std::snprintf(tail, sizeof tail, ", model error %.2f", at.model_error);
    progress << "trial " << at.trial << "/" << c.trials << ": " << ms(at.seconds) << " (best "
             << ms(at.best_seconds) << tail << ", " << static_cast<int>(at.elapsed) << " s)\n";
  };
  std::unique_ptr<search::TuneDatabase> db;
  if (!c.database.empty()) {
    db = std::make_unique<search::TuneDatabase>(c.database);
    o.database = db.get();
    o.target = c.x86 ? "sketch+x86" : "sketch";
  }
  search::TuneResult r = search::auto_schedule(c.proc, sketch, o);
  out << r.report() << "\n\n" << r.script();
  if (!c.plot.empty()) {
    write_file_atomically(
        c.plot, search::best_time_svg(r, c.proc.name() + " " + search::sizes_text(c.sizes)));
    out << "\nplot: " << c.plot << "\n";
  }
  return 0;
}

}  // namespace exocpp::cli
