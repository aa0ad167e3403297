// Timing candidates on the ranks of an MPI job (search/mpi/mpi_timer.h).
#include "search/mpi/mpi_timer.h"

#include <deque>
#include <functional>
#include <sstream>
#include <utility>

#include "core/printer.h"
#include "search/database.h"

namespace exocpp::search {
namespace {

constexpr int kWork = 1, kResult = 2, kStop = 3;

void send_text(const std::string& text, int to, int tag, MPI_Comm comm) {
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, to, tag, comm);
}

// The next message from `from` (or any rank) with `tag` (or any): its text, sender and tag.
struct Message {
  std::string text;
  int from = 0, tag = 0;
};
Message receive(int from, int tag, MPI_Comm comm) {
  MPI_Status st;
  MPI_Probe(from, tag, comm, &st);
  int n = 0;
  MPI_Get_count(&st, MPI_CHAR, &n);
  Message m;
  m.text.resize(static_cast<size_t>(n));
  MPI_Recv(m.text.data(), n, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, comm, MPI_STATUS_IGNORE);
  m.from = st.MPI_SOURCE;
  m.tag = st.MPI_TAG;
  return m;
}

std::string fingerprint(const Proc& p) {
  return std::to_string(std::hash<std::string>{}(to_string(p)));
}

std::string work_text(size_t id, const Candidate& c, const std::map<std::string, int64_t>& sizes,
                      const MeasureOptions& o) {
  std::ostringstream w;
  w.precision(17);
  w << id << "\n"
    << sizes_text(sizes) << "\n"
    << o.min_repeats << " " << o.max_repeats << " " << o.max_spread << " "
    << (o.compile.in_process ? 1 : 0) << "\n"
    << o.compile.compiler << "\n";
  for (size_t i = 0; i < o.compile.flags.size(); ++i) w << (i ? "\t" : "") << o.compile.flags[i];
  w << "\n" << c.trace.to_string();
  return w.str();
}

// A worker's answer to one work message.
std::string do_work(const Proc& p, const Space& space, const std::string& text) {
  std::istringstream in(text);
  std::string id, sizes, knobs, compiler, flags, trace;
  std::getline(in, id);
  std::getline(in, sizes);
  std::getline(in, knobs);
  std::getline(in, compiler);
  std::getline(in, flags);
  std::getline(in, trace);
  std::string seconds = "0", print = "", error;
  try {
    MeasureOptions o;
    int in_process = 1;
    std::istringstream(knobs) >> o.min_repeats >> o.max_repeats >> o.max_spread >> in_process;
    o.compile.in_process = in_process != 0;
    o.compile.compiler = compiler;
    o.compile.flags.clear();
    std::istringstream f(flags);
    for (std::string flag; std::getline(f, flag, '\t');)
      if (!flag.empty()) o.compile.flags.push_back(flag);
    Choices c = Choices::replay(parse_trace(trace));
    Proc q = space(p, c);
    print = fingerprint(q);
    std::ostringstream s;
    s.precision(17);
    s << measure(q, parse_sizes_text(sizes), o);
    seconds = s.str();
  } catch (const std::exception& e) {
    error = e.what();
  }
  return id + "\n" + seconds + "\n" + print + "\n" + error;
}

}  // namespace

MpiTimer::MpiTimer(const Proc& p, Space space, MPI_Comm comm)
    : p_(p), space_(std::move(space)), comm_(comm) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  timed_by_rank_.assign(static_cast<size_t>(size_), 0);
}

MpiTimer::~MpiTimer() {
  if (rank_ == 0 && !stopped_) stop();
}

void MpiTimer::stop() {
  if (rank_ != 0 || stopped_) return;
  stopped_ = true;
  for (int k = 1; k < size_; ++k) send_text("", k, kStop, comm_);
}

void MpiTimer::serve() {
  if (rank_ == 0) throw SearchError("MpiTimer::serve: rank 0 searches; the other ranks serve");
  for (;;) {
    Message m = receive(0, MPI_ANY_TAG, comm_);
    if (m.tag == kStop) return;
    send_text(do_work(p_, space_, m.text), 0, kResult, comm_);
  }
}

std::vector<double> MpiTimer::time(const std::vector<Candidate>& batch,
                                   const std::map<std::string, int64_t>& sizes,
                                   const MeasureOptions& opts) {
  if (rank_ != 0) throw SearchError("MpiTimer::time: only rank 0 hands out candidates");
  std::vector<double> out(batch.size(), 0);
  if (size_ == 1) {
    for (size_t i = 0; i < batch.size(); ++i) out[i] = measure(batch[i].proc, sizes, opts);
    timed_by_rank_[0] += static_cast<int>(batch.size());
    return out;
  }
  std::deque<size_t> queue;
  for (size_t i = 0; i < batch.size(); ++i) queue.push_back(i);
  int outstanding = 0;
  auto hand_out = [&](int worker) {
    size_t i = queue.front();
    queue.pop_front();
    send_text(work_text(i, batch[i], sizes, opts), worker, kWork, comm_);
    ++outstanding;
  };
  for (int k = 1; k < size_ && !queue.empty(); ++k) hand_out(k);
  std::string failure;  // the first error; the outstanding work is still collected
  while (outstanding > 0) {
    Message m = receive(MPI_ANY_SOURCE, kResult, comm_);
    --outstanding;
    std::istringstream in(m.text);
    std::string id, seconds, print, error;
    std::getline(in, id);
    std::getline(in, seconds);
    std::getline(in, print);
    std::getline(in, error, '\0');
    const size_t i = std::stoul(id);
    const std::string where =
        "rank " + std::to_string(m.from) + ", trace " + batch[i].trace.to_string() + ": ";
    if (failure.empty() && !error.empty()) failure = where + error;
    if (failure.empty() && print != fingerprint(batch[i].proc))
      failure = where +
                "the trace replayed into another proc than rank 0 built (a space that "
                "is not deterministic, or ranks that run different programs)";
    if (failure.empty()) {
      out[i] = std::stod(seconds);
      ++timed_by_rank_[static_cast<size_t>(m.from)];
    }
    if (failure.empty() && !queue.empty()) hand_out(m.from);
  }
  if (!failure.empty()) throw SearchError("MPI measurement worker: " + failure);
  return out;
}

std::optional<TuneResult> tune_with_mpi(const Proc& p, const Space& space, const TuneOptions& opts,
                                        MPI_Comm comm) {
  MpiTimer timer(p, space, comm);
  if (timer.rank() != 0) {
    timer.serve();
    return std::nullopt;
  }
  TuneOptions o = opts;
  o.timer = &timer;
  TuneResult r = tune(p, space, o);  // an error stops the workers in ~MpiTimer
  timer.stop();
  return r;
}

}  // namespace exocpp::search
