#include "solver/control.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>

namespace loom::solver {

namespace {
volatile std::sig_atomic_t g_stop = 0;
/// RunControls alive that catch signals: while one is, the RunControls of
/// the jobs it runs (Config::outer_stop) see its stop request.
std::atomic<int> g_catching{0};
extern "C" void on_stop_signal(int) {
  g_stop = 1;
}
/// With nothing to save, a signal ends the run at once as before, but first
/// erases the progress line (it was left on the terminal, the shell's next
/// output glued to it). write() and raise() are async-signal-safe.
extern "C" void on_kill_signal(int sig) {
  static const char erase[] = "\r\x1b[K";
  [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, erase, sizeof erase - 1);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}
}  // namespace

int terminal_columns() {
  struct winsize ws {};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  if (const char* c = std::getenv("COLUMNS")) {
    int n = std::atoi(c);
    if (n > 0 && n < 10000) return n;
  }
  return 80;
}

std::string fit_status_line(std::string line, int columns) {
  // One column is left free: a line that fills the last column makes some
  // terminals wrap, and the next \r then redraws below instead of in place.
  size_t width = static_cast<size_t>(std::max(columns - 1, 10));
  if (line.size() > width) {
    line.resize(width - 3);
    line += "...";
  }
  return line;
}

RunControl::RunControl(Config cfg) : cfg_(cfg) {
  start_ = last_checkpoint_ = now();
  last_status_ = start_ - std::chrono::seconds(1);
  // With progress to save a signal requests a stop; with nothing to save
  // and a progress line on the terminal it erases the line and ends the run
  // (unless a caller catches signals: its stop is not replaced by a kill).
  void (*handler)(int) = cfg_.catch_signals                   ? on_stop_signal
                         : cfg_.tty && g_catching.load() == 0 ? on_kill_signal
                                                              : nullptr;
  if (handler) {
    if (g_catching.load() == 0) g_stop = 0;
    if (cfg_.catch_signals) ++g_catching;
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
    handlers_installed_ = true;
  }
}

RunControl::~RunControl() {
  clear_status();
  if (handlers_installed_) {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    if ((cfg_.catch_signals ? --g_catching : g_catching.load()) == 0) g_stop = 0;
  }
}

void RunControl::status(const std::string& line) {
  if (!cfg_.tty) return;
  step_ = line;
  draw(line, "");
}

void RunControl::status(const std::string& step, const std::string& detail) {
  if (!cfg_.tty) return;
  step_ = step;
  draw(step, detail);
}

void RunControl::status_detail(const std::string& detail) {
  if (!cfg_.tty) return;
  draw(step_, detail);
}

void RunControl::draw(const std::string& step, const std::string& detail) {
  if (seconds_since(last_status_) < 0.25) return;
  last_status_ = now();
  char t[32];
  std::snprintf(t, sizeof t, "[%7.1fs] ", elapsed());
  const std::string head = t;
  const int columns = terminal_columns();
  const size_t width = static_cast<size_t>(std::max(columns - 1, 10));
  std::string line;
  if (detail.empty()) {
    // Too wide: whole ", "-parts go from the end (a figure is never cut in
    // two while a shorter line would show it whole).
    std::string s = step;
    while (head.size() + s.size() > width && s.rfind(", ") != std::string::npos)
      s.resize(s.rfind(", "));
    line = head + s;
  } else if (step.empty()) {
    line = head + detail;
  } else {
    // Too wide: the detail loses its last ", "-parts first (the node count
    // comes first), then the step is cut from its front, so that its end
    // (the opening being searched) stays; a terminal too narrow for both
    // shows the detail alone.
    std::string d = detail;
    auto tail = [&] { return " (" + d + ")"; };
    while (head.size() + step.size() + tail().size() > width && d.rfind(", ") != std::string::npos)
      d.resize(d.rfind(", "));
    if (head.size() + step.size() + tail().size() <= width)
      line = head + step + tail();
    else if (head.size() + tail().size() + 8 <= width)
      line = head + "..." +
             step.substr(step.size() -
                         std::min(step.size(), width - head.size() - tail().size() - 3)) +
             tail();
    else
      line = head + d;
  }
  *cfg_.tty << "\r\x1b[K" << fit_status_line(line, columns) << std::flush;
  status_shown_ = true;
}

void RunControl::clear_status() {
  if (cfg_.tty && status_shown_) *cfg_.tty << "\r\x1b[K" << std::flush;
  status_shown_ = false;
}

bool stop_signal_received() {
  return g_stop && g_catching.load(std::memory_order_relaxed) > 0;
}

bool RunControl::stop_requested() const {
  if (handlers_installed_ && g_stop) return true;
  if (cfg_.outer_stop && stop_signal_received()) return true;
  if (cfg_.deadline_seconds > 0 && elapsed() >= cfg_.deadline_seconds) return true;
  return cfg_.stop_after > 0 && work_ >= cfg_.stop_after;
}

bool RunControl::checkpoint_due() const {
  return stop_requested() || seconds_since(last_checkpoint_) >= cfg_.checkpoint_interval;
}

std::string with_commas(uint64_t n) {
  std::string d = std::to_string(n), out;
  for (size_t i = 0; i < d.size(); ++i) {
    if (i > 0 && (d.size() - i) % 3 == 0) out += ',';
    out += d[i];
  }
  return out;
}

}  // namespace loom::solver
