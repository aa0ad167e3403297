// `exocpp tune` (tools/tune_command.h).
#include "tools/tune_command.h"

#include <cstdio>
#include <iostream>
#include <memory>

#include "hwlibs/x86/x86.h"
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
  o.progress = [&](int trial, double s, double best) {
    progress << "trial " << trial << "/" << c.trials << ": " << ms(s) << " (best " << ms(best)
             << ")\n";
  };
  std::unique_ptr<search::TuneDatabase> db;
  if (!c.database.empty()) {
    db = std::make_unique<search::TuneDatabase>(c.database);
    o.database = db.get();
    o.target = c.x86 ? "sketch+x86" : "sketch";
  }
  search::TuneResult r = search::auto_schedule(c.proc, sketch, o);
  out << r.report() << "\n\n" << r.script();
  return 0;
}

}  // namespace exocpp::cli
