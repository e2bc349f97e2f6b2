// loom verify: dispatches to the solver's property checks or the Z3 queries.
#include <limits>

#include "app/command.h"
#include "app/int_option.h"
#include "app/verify.h"
#include "model/common/bitboard.h"
#include "model/common/errors.h"

namespace loom {

std::vector<CommandSpec> verify_commands() {
  return {
      {"verify", "prove a game property exhaustively, or answer a rule question with Z3",
       [](CLI::App* cmd) {
         auto a = std::make_shared<VerifyArgs>();
         auto size = std::make_shared<int>(0);
         cmd->add_option("game", a->game, "game name");
         add_int_option(cmd, "--size", *size, "board side", kMinSide, kMaxSide);
         cmd->add_option("--rule", a->rules, "rule variant NAME=VALUE (repeatable)")
             ->take_all()
             ->allow_extra_args(false);
         cmd->add_option("--property", a->property,
                         "termination or drawless (also called decisive; exhaustive)");
         add_int_option(cmd, "--max-positions", a->max_positions,
                        "--property: the hash check's position limit; past it --method auto "
                        "goes on by the dense index where it fits, --method hash stops and "
                        "says the property is not decided (default: no limit)",
                        uint64_t{1}, std::numeric_limits<uint64_t>::max());
         add_int_option(cmd, "--threads", a->threads,
                        "--property drawless: worker threads expanding positions (default: "
                        "cores, <= 8; the same result on any number)",
                        1, 64);
         cmd->add_option("--method", a->method,
                         "--property: auto (default: the hash check; past --max-positions, the "
                         "dense one where it fits), hash (a table of the positions met) or "
                         "dense (the board's base-3 index: Gadur and Enfargar up to side 3)");
         cmd->add_option("--query", a->query, "a named question for the Z3 specification");
         cmd->add_flag("--list-queries", a->list_queries, "list the available queries");
         cmd->add_flag("--json", a->json, "end with one JSON line");
         add_seconds_option(cmd, "--seconds", a->seconds,
                            "--query: stop after this many seconds of Z3 time and say the "
                            "question is not answered (default: no limit)",
                            0.001, 1e9);
         return Action([=](std::ostream& out, std::ostream& err) {
           if (cmd->count("--size")) a->size = *size;
           // The mode is the option given: an empty name given is an unknown
           // name (the property's or query's own error), not an option left
           // out.
           const bool property = cmd->count("--property") > 0, query = cmd->count("--query") > 0;
           int modes = property + query + a->list_queries;
           if (modes != 1)
             throw InputError("verify needs exactly one of --property, --query, --list-queries");
           if (a->list_queries) {
             // The list depends on the game only.
             for (const char* o : {"--size", "--rule", "--json", "--seconds", "--max-positions",
                                   "--threads", "--method"})
               if (cmd->count(o))
                 throw InputError(std::string(o) + " is not used by --list-queries");
             return list_queries(*a, out);
           }
           if (a->game.empty()) throw InputError("verify needs a game");
           if (property) {
             // A bound that would bound nothing is refused, as in solve.
             if (cmd->count("--seconds"))
               throw InputError("--seconds is not used by --property (it bounds --query)");
             if (cmd->count("--threads") && a->property == "termination")
               throw InputError(
                   "--threads is not used by --property termination (a depth-first search on "
                   "one thread; drawless expands positions on several)");
             if (cmd->count("--max-positions") && a->method == "dense")
               throw InputError(
                   "--max-positions is not used by --method dense (its memory is the board's "
                   "index, not the job's)");
             return run_property_check(*a, out, err);
           }
           for (const char* o : {"--max-positions", "--threads", "--method"})
             if (cmd->count(o))
               throw InputError(std::string(o) + " is not used by --query (it is --property's)");
           run_query(*a, out, err);
         });
       }}};
}

}  // namespace loom
