// loom audit GAME: wires the command line to app/audit/ (CONVENTIONS.md,
// "Rule audits").
#include <unistd.h>

#include <iostream>
#include <limits>

#include "app/audit/audit.h"
#include "app/command.h"
#include "app/int_option.h"
#include "app/threads.h"
#include "model/common/bitboard.h"
#include "model/common/errors.h"

namespace loom {

std::vector<CommandSpec> audit_commands() {
  return {
      {"audit",
       "report where a game's rules have holes: proofs on a small board, playouts on the real one",
       [](CLI::App* cmd) {
         auto a = std::make_shared<audit::AuditArgs>();
         auto size = std::make_shared<int>(0);
         auto play_size = std::make_shared<int>(0);
         cmd->add_option("game", a->game, "game name")->required();
         add_int_option(cmd, "--size", *size,
                        "board side for the proofs (default: the game's recommended board, "
                        "CONVENTIONS.md; 2 or 3 for exhaustive proofs)",
                        kMinSide, kMaxSide);
         add_int_option(cmd, "--play-size", *play_size,
                        "board side for the playouts (default: the recommended board)", kMinSide,
                        kMaxSide);
         cmd->add_option("--rule", a->rules,
                         "rule variant NAME=VALUE (repeatable): the base rule set")
             ->take_all()
             ->allow_extra_args(false);
         cmd->add_flag("--variants", a->variants,
                       "also examine every named variant (one option changed at a time)");
         cmd->add_option("--out", a->out_dir, "directory for report.html and report.json")
             ->required();
         cmd->add_flag("--json", a->json, "end with the report's JSON object on one line");
         add_seconds_option(cmd, "--seconds", a->seconds,
                            "time budget for the whole audit (default 600)", 0.001, 1e9);
         add_int_option(cmd, "--games", a->games, "playouts per policy and rule set (default 200)",
                        1, 1000000);
         add_int_option(cmd, "--seed", a->seed, "playout seed (default 1)", uint64_t{0},
                        std::numeric_limits<uint64_t>::max());
         add_int_option(cmd, "--max-positions", a->max_positions,
                        "exhaustive checks stop beyond this many positions (default 20,000,000; a "
                        "solve the dense index fits goes on by it, in the board's fixed memory)",
                        uint64_t{1}, std::numeric_limits<uint64_t>::max());
         add_int_option(cmd, "--max-nodes", a->max_nodes,
                        "the solver stops beyond this many nodes (default 20,000,000)", uint64_t{1},
                        std::numeric_limits<uint64_t>::max());
         add_int_option(cmd, "--threads", a->threads,
                        "worker threads of the solve and the drawless check (default: cores, <= 8)",
                        1, 64);
         cmd->add_flag(
             "--no-queries", [a](int64_t) { a->queries = false; }, "skip the Z3 rule questions");
         return Action([=](std::ostream& out, std::ostream& err) {
           if (cmd->count("--size")) a->size = *size;
           if (cmd->count("--play-size")) a->play_size = *play_size;
           if (!cmd->count("--threads")) a->threads = default_threads();
           a->tty = (&err == &std::cerr && ::isatty(STDERR_FILENO)) ? &err : nullptr;
           audit::run_audit(*a, out);
         });
       }}};
}

}  // namespace loom
