// Evolutionary schedule search with proved and verified candidates (search/tune.h).
#include "search/tune.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "core/printer.h"
#include "core/test_inputs.h"
#include "search/cost_model.h"
#include "search/features.h"

namespace exocpp::search {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The values of a trace, by name.
std::map<std::string, std::string> values_of(const Trace& t) {
  std::map<std::string, std::string> v;
  for (const Decision& d : t.decisions) v[d.name] = d.value();
  return v;
}

// One decision of `t` changed to another of its options (the others kept; decisions the change
// brings into being are drawn when the space runs).
std::map<std::string, std::string> mutate(const Trace& t, std::mt19937_64& rng) {
  std::map<std::string, std::string> v = values_of(t);
  std::vector<const Decision*> open;
  for (const Decision& d : t.decisions)
    if (d.options.size() > 1) open.push_back(&d);
  if (open.empty()) return v;
  const Decision& d = *open[std::uniform_int_distribution<size_t>(0, open.size() - 1)(rng)];
  size_t k = std::uniform_int_distribution<size_t>(0, d.options.size() - 2)(rng);
  if (static_cast<int>(k) >= d.chosen) ++k;  // any option but the current one
  v[d.name] = d.options[k];
  return v;
}

// Each decision from one parent or the other, at random.
std::map<std::string, std::string> crossover(const Trace& a, const Trace& b, std::mt19937_64& rng) {
  std::map<std::string, std::string> v = values_of(a);
  std::bernoulli_distribution coin(0.5);
  for (const Decision& d : b.decisions)
    if (!v.count(d.name) || coin(rng)) v[d.name] = d.value();
  return v;
}

// `p` compiled for timing, its arguments drawn and converted once, and run once to warm up
// (page faults, caches, the JIT's lazy materialization).
struct TimedCall {
  std::unique_ptr<CompiledLibrary> lib;
  CompiledLibrary::PreparedCall call;
};
// `lib` already compiled (several are compiled at once: parallel_for below).
TimedCall prepare_compiled(std::unique_ptr<CompiledLibrary> lib, const Proc& p,
                           const std::map<std::string, int64_t>& sizes) {
  CompiledLibrary::PreparedCall call = lib->prepare(p.name(), random_args(p, sizes, 1));
  call.run();
  return {std::move(lib), std::move(call)};
}
TimedCall prepare_for_timing(const Proc& p, const std::map<std::string, int64_t>& sizes,
                             const MeasureOptions& opts, const std::string& lib_name) {
  return prepare_compiled(
      std::make_unique<CompiledLibrary>(std::vector<Proc>{p}, lib_name, opts.compile), p, sizes);
}

// The median of the runs of `call`, repeated until the spread is small (MeasureOptions).
double time_runs(CompiledLibrary::PreparedCall& call, const MeasureOptions& opts) {
  std::vector<double> times;
  const int lo = std::max(1, opts.min_repeats);
  while (static_cast<int>(times.size()) < std::max(lo, opts.max_repeats)) {
    Clock::time_point t0 = Clock::now();
    call.run();
    times.push_back(seconds_since(t0));
    if (static_cast<int>(times.size()) >= lo) {
      std::vector<double> last(times.end() - lo, times.end());
      double m = median(last);
      double spread = (*std::max_element(last.begin(), last.end()) -
                       *std::min_element(last.begin(), last.end())) /
                      m;
      if (m > 0 && spread <= opts.max_spread) return m;
    }
  }
  return median(times);
}

}  // namespace

size_t pick_among_ties(const std::vector<double>& seconds, const std::vector<Trace>& traces,
                       double tolerance) {
  const double fastest = *std::min_element(seconds.begin(), seconds.end());
  size_t win = seconds.size();
  for (size_t i = 0; i < seconds.size(); ++i) {
    if (seconds[i] > fastest * (1 + tolerance)) continue;
    // The plain proc (an empty trace) sorts first: a schedule must be clearly faster to win.
    if (win == seconds.size() || traces[i].to_string() < traces[win].to_string()) win = i;
  }
  return win;
}

SoundnessError::SoundnessError(const std::string& trace, const std::string& difference)
    : Error("soundness error", "tune", {},
            "a candidate the scheduling operations accepted computes another result than the "
            "plain proc (a bug in exocpp: please report it with this trace)\n  trace: " +
                trace + "\n  " + difference) {}

double measure(const Proc& p, const std::map<std::string, int64_t>& sizes,
               const MeasureOptions& opts) {
  TimedCall t = prepare_for_timing(p, sizes, opts, "tune_" + p.name());
  return time_runs(t.call, opts);
}

void parallel_for(size_t n, int threads, const std::function<void(size_t)>& f) {
  const size_t workers = std::min(n, static_cast<size_t>(std::max(1, threads)));
  if (workers <= 1) {
    for (size_t i = 0; i < n; ++i) f(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::vector<std::exception_ptr> errors(n);
  std::vector<std::thread> pool;
  for (size_t w = 0; w < workers; ++w)
    pool.emplace_back([&] {
      for (size_t i = next++; i < n; i = next++) {
        try {
          f(i);
        } catch (...) {
          errors[i] = std::current_exception();
        }
      }
    });
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

std::vector<double> measure_batch(const std::vector<Proc>& procs,
                                  const std::map<std::string, int64_t>& sizes,
                                  const MeasureOptions& opts) {
  std::vector<std::unique_ptr<CompiledLibrary>> libs(procs.size());
  parallel_for(procs.size(), opts.compile_threads, [&](size_t i) {
    libs[i] = std::make_unique<CompiledLibrary>(std::vector<Proc>{procs[i]},
                                                "tune_" + std::to_string(i) + "_" + procs[i].name(),
                                                opts.compile);
  });
  std::vector<double> out;
  for (size_t i = 0; i < procs.size(); ++i) {
    TimedCall t = prepare_compiled(std::move(libs[i]), procs[i], sizes);
    out.push_back(time_runs(t.call, opts));
  }
  return out;
}

std::vector<double> measure_side_by_side(const std::vector<Proc>& procs,
                                         const std::map<std::string, int64_t>& sizes,
                                         const MeasureOptions& opts) {
  std::vector<TimedCall> calls;
  for (size_t i = 0; i < procs.size(); ++i)
    calls.push_back(prepare_for_timing(procs[i], sizes, opts,
                                       "tune_" + std::to_string(i) + "_" + procs[i].name()));
  std::vector<std::function<void()>> runs;
  for (TimedCall& c : calls) runs.push_back([&c] { c.call.run(); });
  return time_side_by_side(runs, opts.max_repeats);
}

std::vector<double> time_side_by_side(const std::vector<std::function<void()>>& runs, int rounds) {
  std::vector<std::vector<double>> times(runs.size());
  for (int round = 0; round < std::max(1, rounds); ++round)
    for (size_t i = 0; i < runs.size(); ++i) {
      Clock::time_point t0 = Clock::now();
      runs[i]();
      times[i].push_back(seconds_since(t0));
    }
  std::vector<double> out;
  for (const std::vector<double>& t : times) out.push_back(median(t));
  return out;
}

std::string verify(const Proc& plain, const Proc& candidate,
                   const std::map<std::string, int64_t>& sizes, const CompileOptions& compile) {
  CompareProcsOptions o;
  o.trials = 2;
  if (std::string d = compare_procs(plain, candidate, sizes, 1, o); !d.empty())
    return "in the interpreter: " + d;
  if (std::string d = compare_compiled_with_interpreter(candidate, sizes, 1, compile); !d.empty())
    return "compiled: " + d;
  return "";
}

std::string TuneResult::report() const {
  std::ostringstream out;
  if (plain_seconds > 0)
    out << "plain " << plain_seconds * 1e3 << " ms; best " << best_seconds * 1e3 << " ms ("
        << (best_seconds > 0 ? plain_seconds / best_seconds : 0) << "x)";
  else
    out << "plain not timed; best " << best_seconds * 1e3 << " ms";
  out << " after " << timed.size() << " timed of " << attempts << " built";
  if (from_database) out << " (" << from_database << " times from the database)";
  out << "\n  best trace: "
      << (best_trace.decisions.empty() ? "(the plain proc)" : best_trace.to_string());
  if (duplicates) out << "\n  duplicates skipped: " << duplicates;
  if (!refused.empty()) {
    out << "\n  refused:";
    for (const auto& [id, n] : refused) out << " " << id << " x" << n;
  }
  if (solver_unknown) out << "\n  of those, the checker could not decide " << solver_unknown;
  if (model_error >= 0)
    out << "\n  cost model: mean |log2 predicted - log2 measured| " << model_error
        << " in the last round";
  if (model_pick_seconds > 0)
    out << "\n  cost model's pick among the candidates never timed: " << model_pick_seconds * 1e3
        << " ms (" << best_seconds / model_pick_seconds << " of the best's speed; trace "
        << model_pick_trace.to_string() << ")";
  return out.str();
}

std::string TuneResult::script(const std::string& space_name) const {
  std::string out = "// " +
                    (best_trace.decisions.empty() ? std::string("the plain proc")
                                                  : "trace: " + best_trace.to_string()) +
                    "\nProc schedule_" + plain.name() + "(Proc p) {\n";
  if (!best_trace.decisions.empty()) {
    if (best_script.empty())
      out += "  p = " + space_name + "(p, search::Choices::replay(search::parse_trace(\"" +
             best_trace.to_string() + "\")).ref());\n";
    for (const std::string& line : best_script) out += "  " + line + "\n";
  }
  return out + "  return p;\n}\n";
}

TuneResult tune(const Proc& p, const Space& space, const TuneOptions& opts) {
  const Clock::time_point t0 = Clock::now();
  const std::map<std::string, int64_t>& vsizes =
      opts.verify_sizes.empty() ? opts.sizes : opts.verify_sizes;
  const int max_attempts = opts.max_attempts > 0 ? opts.max_attempts : 20 * opts.trials;
  std::mt19937_64 rng(opts.seed);

  TuneResult r;
  const int64_t workload = opts.database ? opts.database->workload(p, opts.sizes, opts.target) : 0;
  // What the database holds: times by trace (taken instead of timing again), and the features
  // of each, which the cost model trains on from its first round.
  std::map<std::string, double> stored;
  std::map<std::string, std::vector<float>> stored_features;
  if (opts.database)
    for (TuneDatabase::Sample& s : opts.database->samples(workload)) {
      stored[s.trace] = s.seconds;
      if (s.features.size() == feature_names().size())
        stored_features[s.trace] = std::move(s.features);
    }
  r.plain = p;
  r.plain_seconds = opts.time_plain ? measure(p, opts.sizes, opts.measure) : 0;
  r.best = p;
  // Untimed, the plain proc is slower than anything.
  r.best_seconds = opts.time_plain ? r.plain_seconds : std::numeric_limits<double>::infinity();
  std::set<std::string> seen = {to_string(p)};

  // Builds the candidate the choices give; times it when it is new. false when refused or seen.
  // Builds the candidate the choices give: nullopt when refused or already seen.
  struct Built {
    Trace trace;
    Proc proc;
  };
  auto build = [&](Choices c) -> std::optional<Built> {
    ++r.attempts;
    Proc q;
    try {
      q = space(p, c);
    } catch (const SchedulingError& e) {
      ++r.refused[e.reason_id()];
      if (e.code() == ErrorCode::Unknown) ++r.solver_unknown;
      return std::nullopt;
    }
    if (!seen.insert(to_string(q)).second) {
      ++r.duplicates;
      return std::nullopt;
    }
    return Built{c.trace(), q};
  };
  // Verifies and times built candidates, together (or takes their times from the database),
  // and takes them into the result in the order given.
  auto time_batch = [&](const std::vector<const Built*>& batch) {
    std::vector<double> secs(batch.size(), 0);
    std::vector<Candidate> to_time;
    std::vector<size_t> where;
    for (size_t i = 0; i < batch.size(); ++i) {
      const std::string trace = batch[i]->trace.to_string();
      if (auto known = stored.find(trace); known != stored.end()) {
        secs[i] = known->second;  // verified when it was stored
        ++r.from_database;
        continue;
      }
      to_time.push_back({batch[i]->trace, batch[i]->proc, 0});
      where.push_back(i);
    }
    // Verified on several threads (interpreter runs and compiles), reported in batch order.
    std::vector<std::string> differs(to_time.size());
    parallel_for(to_time.size(), opts.measure.compile_threads, [&](size_t k) {
      differs[k] = verify(p, to_time[k].proc, vsizes, opts.measure.compile);
    });
    for (size_t k = 0; k < to_time.size(); ++k)
      if (!differs[k].empty()) throw SoundnessError(to_time[k].trace.to_string(), differs[k]);
    if (!to_time.empty()) {
      std::vector<double> t;
      if (opts.timer) {
        t = opts.timer->time(to_time, opts.sizes, opts.measure);
        if (t.size() != to_time.size())
          throw SearchError("tune: the candidate timer returned " + std::to_string(t.size()) +
                            " times for " + std::to_string(to_time.size()) + " candidates");
      } else {
        std::vector<Proc> procs;
        for (const Candidate& c : to_time) procs.push_back(c.proc);
        t = measure_batch(procs, opts.sizes, opts.measure);
      }
      for (size_t k = 0; k < where.size(); ++k) {
        secs[where[k]] = t[k];
        if (opts.database)
          opts.database->record(workload, to_time[k].trace.to_string(), t[k],
                                features(to_time[k].proc, opts.sizes));
      }
    }
    for (size_t i = 0; i < batch.size(); ++i) {
      const double s = secs[i];
      r.timed.push_back({batch[i]->trace, batch[i]->proc, s});
      if (s < r.best_seconds) {
        r.best = batch[i]->proc;
        r.best_trace = batch[i]->trace;
        r.best_seconds = s;
      }
      if (opts.progress)
        opts.progress(Progress{static_cast<int>(r.timed.size()), s, r.best_seconds, r.model_error,
                               seconds_since(t0)});
    }
  };
  auto budget_left = [&] {
    return static_cast<int>(r.timed.size()) < opts.trials && r.attempts < max_attempts &&
           seconds_since(t0) < opts.max_seconds;
  };

  const auto timed_count = [&] { return static_cast<int>(r.timed.size()); };
  // The first generation: drawn at random, built, then timed together.
  {
    std::vector<Built> first;
    const int want = std::min(opts.population, opts.trials);
    while (static_cast<int>(first.size()) < want && r.attempts < max_attempts &&
           seconds_since(t0) < opts.max_seconds)
      if (std::optional<Built> b = build(Choices::random(rng()))) first.push_back(std::move(*b));
    std::vector<const Built*> batch;
    for (const Built& b : first) batch.push_back(&b);
    time_batch(batch);
  }

  // Then: mutations and crossovers of the fastest, and a share of fresh draws.
  std::uniform_real_distribution<double> u(0, 1);
  auto propose = [&]() -> Choices {
    std::vector<const Candidate*> parents;
    for (const Candidate& c : r.timed) parents.push_back(&c);
    std::sort(parents.begin(), parents.end(),
              [](const Candidate* a, const Candidate* b) { return a->seconds < b->seconds; });
    if (parents.size() > static_cast<size_t>(std::max(1, opts.population)))
      parents.resize(static_cast<size_t>(std::max(1, opts.population)));
    double roll = u(rng);
    if (parents.empty() || roll < 0.2) return Choices::random(rng());
    // Parents are drawn with a bias to the fastest (the square of a uniform draw).
    auto draw = [&] {
      double x = u(rng);
      return parents[std::min(parents.size() - 1, static_cast<size_t>(x * x * parents.size()))];
    };
    const Candidate* a = draw();
    std::map<std::string, std::string> v = roll < 0.7 || parents.size() < 2
                                               ? mutate(a->trace, rng)
                                               : crossover(a->trace, draw()->trace, rng);
    return Choices::guided(v, rng());
  };

  if (!opts.cost_model) {
    while (budget_left())
      if (std::optional<Built> b = build(propose())) time_batch({&*b});
  }
  // With the model: each round builds up to `proposals` new candidates, retrains on every time
  // so far, and times the `timed_per_round` the model ranks fastest plus one drawn from the rest
  // (so that the model also learns where it is wrong).
  CostModel model;
  // Retrains the model on every time measured so far, and those the database holds.
  auto retrain = [&] {
    std::vector<std::vector<float>> rows;
    std::vector<float> targets;
    std::set<std::string> in_rows;
    for (const Candidate& c : r.timed) {
      rows.push_back(features(c.proc, opts.sizes));
      targets.push_back(static_cast<float>(std::log2(std::max(c.seconds, 1e-12))));
      in_rows.insert(c.trace.to_string());
    }
    for (const auto& [trace, f] : stored_features)
      if (!in_rows.count(trace)) {
        rows.push_back(f);
        targets.push_back(static_cast<float>(std::log2(std::max(stored.at(trace), 1e-12))));
      }
    if (!rows.empty()) model.train(rows, targets);
  };
  std::vector<Built> pool;
  auto predict_pool = [&] {
    std::vector<std::vector<float>> cand;
    for (const Built& b : pool) cand.push_back(features(b.proc, opts.sizes));
    return model.predict(cand);
  };
  while (opts.cost_model && budget_left()) {
    retrain();
    // Candidates built in earlier rounds and not timed stay in the pool: ranked again by the
    // retrained model, they compete with the new ones.
    for (int k = 0; k < opts.proposals && r.attempts < max_attempts; ++k)
      if (std::optional<Built> b = build(propose())) pool.push_back(std::move(*b));
    if (pool.empty()) break;
    std::vector<double> guess = predict_pool();
    std::vector<size_t> order(pool.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return guess[a] < guess[b]; });
    std::vector<size_t> pick(
        order.begin(),
        order.begin() + std::min(order.size(), static_cast<size_t>(opts.timed_per_round)));
    if (order.size() > pick.size())
      pick.push_back(order[pick.size() + std::uniform_int_distribution<size_t>(
                                             0, order.size() - pick.size() - 1)(rng)]);
    if (static_cast<int>(pick.size()) > opts.trials - timed_count())
      pick.resize(static_cast<size_t>(std::max(0, opts.trials - timed_count())));
    std::vector<bool> taken(pool.size(), false);
    std::vector<const Built*> batch;
    for (size_t i : pick) {
      taken[i] = true;
      batch.push_back(&pool[i]);
    }
    const size_t before = r.timed.size();
    time_batch(batch);
    double err = 0;
    for (size_t k = 0; k < pick.size(); ++k)
      err += std::abs(guess[pick[k]] - std::log2(std::max(r.timed[before + k].seconds, 1e-12)));
    if (!pick.empty() && model.trained()) r.model_error = err / static_cast<double>(pick.size());
    std::vector<Built> rest;
    for (size_t i = 0; i < pool.size(); ++i)
      if (!taken[i]) rest.push_back(std::move(pool[i]));
    pool = std::move(rest);
  }

  // How good is the model? Retrained on everything, it picks the candidate it ranks fastest
  // among those built and never timed; the pick is verified and timed with the finalists below.
  std::optional<Built> model_pick;
  if (opts.cost_model && !pool.empty() && !r.timed.empty()) {
    retrain();
    std::vector<double> guess = predict_pool();
    size_t i = static_cast<size_t>(std::min_element(guess.begin(), guess.end()) - guess.begin());
    if (std::string d = verify(p, pool[i].proc, vsizes, opts.measure.compile); !d.empty())
      throw SoundnessError(pool[i].trace.to_string(), d);
    model_pick = std::move(pool[i]);
  }

  // Near-ties must not flip the pick from run to run: the plain proc and the fastest few are
  // timed again, side by side, and the pick is made on those times.
  std::vector<const Candidate*> top;
  for (const Candidate& c : r.timed) top.push_back(&c);
  std::sort(top.begin(), top.end(),
            [](const Candidate* a, const Candidate* b) { return a->seconds < b->seconds; });
  if (top.size() > static_cast<size_t>(std::max(1, opts.final_candidates)))
    top.resize(static_cast<size_t>(std::max(1, opts.final_candidates)));
  if (!top.empty()) {
    // The plain proc (when it is timed), the fastest few, the model's pick (when there is one).
    std::vector<Proc> procs;
    std::vector<Trace> traces;
    if (opts.time_plain) {
      procs.push_back(p);
      traces.push_back(Trace{});
    }
    for (const Candidate* c : top) {
      procs.push_back(c->proc);
      traces.push_back(c->trace);
    }
    if (model_pick) {
      procs.push_back(model_pick->proc);
      traces.push_back(model_pick->trace);
    }
    std::vector<double> t = measure_side_by_side(procs, opts.sizes, opts.measure);
    const size_t win = pick_among_ties(t, traces, opts.tie_tolerance);
    if (opts.time_plain) r.plain_seconds = t[0];
    r.best = procs[win];
    r.best_trace = traces[win];
    r.best_seconds = t[win];
    if (model_pick) {
      r.model_pick_trace = model_pick->trace;
      r.model_pick_seconds = t.back();
    }
  }
  if (!r.best_trace.decisions.empty()) {
    Choices again = Choices::replay(r.best_trace);
    space(p, again);
    r.best_script = again.script();
  }
  return r;
}

}  // namespace exocpp::search
