// The tuning run as an SVG image (search/plot.h).
#include "search/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <vector>

namespace exocpp::search {
namespace {

std::string xml_escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// A time in ms with the digits that tell ticks apart.
std::string ms_label(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, ms >= 100 ? "%.0f" : ms >= 1 ? "%.3g" : "%.2g", ms);
  return buf;
}

}  // namespace

std::string best_time_svg(const TuneResult& r, const std::string& title) {
  const double W = 640, H = 400, left = 70, right = 20, top = 40, bottom = 50;
  const double pw = W - left - right, ph = H - top - bottom;
  const int n = static_cast<int>(r.timed.size());

  // The y range (ms, log scale) covers every candidate and the plain proc (when it was timed).
  const bool plain_timed = r.plain_seconds > 0;
  double lo = plain_timed ? r.plain_seconds : std::numeric_limits<double>::infinity();
  double hi = plain_timed ? r.plain_seconds : 0;
  for (const Candidate& c : r.timed) {
    lo = std::min(lo, c.seconds);
    hi = std::max(hi, c.seconds);
  }
  if (hi <= 0) lo = hi = 1e-3;  // nothing to draw but the axes
  lo = std::max(lo, 1e-12) * 1e3 / 1.2;
  hi = std::max(hi * 1e3 * 1.2, lo * 2);
  const double llo = std::log10(lo), lhi = std::log10(hi);
  auto x_at = [&](double trial) { return left + (n <= 1 ? pw / 2 : (trial - 1) / (n - 1) * pw); };
  auto y_at = [&](double seconds) {
    double l = std::log10(std::max(seconds * 1e3, lo));
    return top + (lhi - l) / (lhi - llo) * ph;
  };

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H
      << "\" viewBox=\"0 0 " << W << " " << H << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << W / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">"
      << xml_escaped(title) << "</text>\n"
      << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << pw << "\" height=\"" << ph
      << "\" fill=\"none\" stroke=\"black\"/>\n";
  // y ticks: each power of ten and its 2x and 5x inside the range.
  for (int e = static_cast<int>(std::floor(llo)); e <= static_cast<int>(std::ceil(lhi)); ++e)
    for (double m : {1.0, 2.0, 5.0}) {
      double v = m * std::pow(10.0, e);
      if (v < lo || v > hi) continue;
      double y = y_at(v / 1e3);
      svg << "<line x1=\"" << left << "\" x2=\"" << left + pw << "\" y1=\"" << num(y) << "\" y2=\""
          << num(y) << "\" stroke=\"#ddd\"/>\n"
          << "<text x=\"" << left - 6 << "\" y=\"" << num(y + 4) << "\" text-anchor=\"end\">"
          << ms_label(v) << "</text>\n";
    }
  // x ticks: about eight, at whole trials.
  const int step = std::max(1, (n + 7) / 8);
  for (int t = 1; t <= n; t += step)
    svg << "<text x=\"" << num(x_at(t)) << "\" y=\"" << top + ph + 18
        << "\" text-anchor=\"middle\">" << t << "</text>\n";
  svg << "<text x=\"" << left + pw / 2 << "\" y=\"" << H - 10
      << "\" text-anchor=\"middle\">trial</text>\n"
      << "<text x=\"16\" y=\"" << top + ph / 2
      << "\" text-anchor=\"middle\" transform=\"rotate(-90 16 " << top + ph / 2
      << ")\">time of one call (ms, log scale)</text>\n";
  // The plain proc.
  if (plain_timed)
    svg << "<line x1=\"" << left << "\" x2=\"" << left + pw << "\" y1=\""
        << num(y_at(r.plain_seconds)) << "\" y2=\"" << num(y_at(r.plain_seconds))
        << "\" stroke=\"#c33\" stroke-dasharray=\"6 4\"/>\n"
        << "<text x=\"" << left + pw - 4 << "\" y=\"" << num(y_at(r.plain_seconds) - 5)
        << "\" text-anchor=\"end\" fill=\"#c33\">plain " << ms_label(r.plain_seconds * 1e3)
        << " ms</text>\n";
  // Every candidate, and the best so far as steps.
  double best = plain_timed ? r.plain_seconds : std::numeric_limits<double>::infinity();
  std::string steps;
  for (int t = 1; t <= n; ++t) {
    const double s = r.timed[static_cast<size_t>(t - 1)].seconds;
    svg << "<circle cx=\"" << num(x_at(t)) << "\" cy=\"" << num(y_at(s))
        << "\" r=\"3\" fill=\"#999\"/>\n";
    best = std::min(best, s);
    steps += (t == 1 ? "M" : " H") + num(x_at(t)) + (t == 1 ? " " : " V") + num(y_at(best));
  }
  if (!steps.empty())
    svg << "<path d=\"" << steps << "\" fill=\"none\" stroke=\"#2a6fdb\" stroke-width=\"2\"/>\n"
        << "<text x=\"" << left + pw - 4 << "\" y=\"" << num(y_at(best) + 16)
        << "\" text-anchor=\"end\" fill=\"#2a6fdb\">best " << ms_label(best * 1e3)
        << " ms</text>\n";
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace exocpp::search
