// A tuning run drawn: the time of every timed candidate and the best so far against the trial
// number, with the plain proc's time as a line, as a self-contained SVG image (no fonts or
// scripts fetched). `exocpp tune --plot FILE.svg` writes it.
//
//   search::TuneResult r = search::tune(p, space, o);
//   write_file_atomically("tune.svg", search::best_time_svg(r, "sgemm N=1024"));
#pragma once

#include <string>

#include "search/tune.h"

namespace exocpp::search {

// The SVG text: x is the trial (1 to the number timed), y the time of one call in ms on a log
// scale; grey dots are candidates, the blue steps the best so far, the dashed line the plain
// proc (left out when it was not timed). `title` is escaped for XML.
std::string best_time_svg(const TuneResult& r, const std::string& title);

}  // namespace exocpp::search
