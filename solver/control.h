// Run control for long solver jobs: a progress line on a terminal, stop
// requests (Ctrl-C / SIGTERM, or a work budget in tests) and checkpoint
// timing. One RunControl lives for one command; the solvers poll it between
// units of work (a batch of positions, a sweep, an opening).
#pragma once

#include <chrono>
#include <csignal>
#include <cstdint>
#include <ostream>
#include <string>

namespace loom::solver {

class RunControl {
 public:
  struct Config {
    /// Where to draw the progress line (a terminal's stderr), or null.
    std::ostream* tty = nullptr;
    /// Seconds between checkpoints (when a checkpoint file is in use).
    double checkpoint_interval = 60;
    /// Stop as if interrupted once this many work units were counted (0:
    /// never). Lets tests interrupt a run at a reproducible point.
    uint64_t stop_after = 0;
    /// Install SIGINT/SIGTERM handlers that request a stop (restored on
    /// destruction). Only worth it when progress can be saved.
    bool catch_signals = false;
    /// Stop as if interrupted once this many seconds have passed (0: never).
    /// Lets a caller with a time budget (loom audit --seconds) bound a job.
    double deadline_seconds = 0;
    /// Stop, too, when a signal reached an outer RunControl that catches
    /// signals (loom audit's parts: the audit then writes its report).
    bool outer_stop = false;
  };

  RunControl() : RunControl(Config{}) {}
  explicit RunControl(Config cfg);
  ~RunControl();
  RunControl(const RunControl&) = delete;
  RunControl& operator=(const RunControl&) = delete;

  /// Shows `line` as the progress line (throttled; only with a terminal).
  /// Too wide for the terminal, it loses its last ", "-parts first (put
  /// the least useful figures last).
  void status(const std::string& line);
  /// status(step) and status_detail(detail) in one draw.
  void status(const std::string& step, const std::string& detail);
  /// Shows the last status() line followed by " (detail)": a count that
  /// moves inside a long step (nodes searched within an opening).
  void status_detail(const std::string& detail);
  /// Erases the progress line (before printing results).
  void clear_status();
  /// Counts units of work for stop_after.
  void work(uint64_t units) { work_ += units; }
  uint64_t work_done() const { return work_; }
  /// True once a stop was requested (signal received or budget used).
  bool stop_requested() const;
  /// True when a checkpoint should be written now.
  bool checkpoint_due() const;
  void checkpoint_written() { last_checkpoint_ = now(); }
  double elapsed() const { return seconds_since(start_); }

 private:
  using Clock = std::chrono::steady_clock;
  static Clock::time_point now() { return Clock::now(); }
  static double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(now() - t).count();
  }

  Config cfg_;
  Clock::time_point start_, last_status_, last_checkpoint_;
  /// Draws the step and its detail (throttled), fitted to the terminal.
  void draw(const std::string& step, const std::string& detail);

  uint64_t work_ = 0;
  std::string step_;  // the last status() line, for status_detail
  bool status_shown_ = false;
  bool handlers_installed_ = false;
  struct sigaction old_int_ {
  }, old_term_{};
};

/// True once SIGINT or SIGTERM arrived while a RunControl that catches
/// signals is alive: an outer job (loom audit) and the loops it runs that
/// have no RunControl of their own (playouts) stop on it.
bool stop_signal_received();

/// Width of the terminal on standard error (TIOCGWINSZ), else $COLUMNS,
/// else 80.
int terminal_columns();
/// `line` cut to fit one terminal row of `columns` (ending in "..." when cut,
/// the last column left free so the line never wraps and scrolls).
std::string fit_status_line(std::string line, int columns);

/// "12,345,678" (thousands separators, for readable summaries).
std::string with_commas(uint64_t n);

}  // namespace loom::solver
