#include "app/cli.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <map>

#include <algorithm>
#include <cctype>

#include "app/command.h"
#include "model/common/errors.h"

namespace loom {

namespace {

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

/// The option called `name` ("--divide") of the app or any of its
/// commands, or null.
const CLI::Option* find_option(const CLI::App& app, const std::string& name) {
  if (const CLI::Option* o = app.get_option_no_throw(name)) return o;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (const CLI::Option* o = find_option(*sub, name)) return o;
  return nullptr;
}

/// Optimal string alignment distance (edits: insert, delete, substitute,
/// swap two neighbours), for "did you mean".
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

/// Examples shown at the end of `loom COMMAND --help` (a command may also
/// set its own footer).
const std::map<std::string, std::string>& examples() {
  static const std::map<std::string, std::string> m = {
      {"moves",
       "loom moves gadur --size 3 --record \"a1 b2\"\n  loom moves migong --size 2\n  "
       "loom moves nardy --dice 65"},
      {"perft",
       "loom perft gadur --size 3 --depth 5\n  loom perft fiodar --size 2 --depth 4 --divide\n  "
       "loom perft nardy --depth 1"},
      {"show", "loom show enfargar --size 3 --record \"a1 b2\"\n  loom show nardy"},
      {"rules", "loom rules fiodar"},
      {"score",
       "loom score fiodar --size 2 --record \"a1 pass pass\"\n  "
       "loom score migong --size 2 --record \"BBBBYB@a1\"\n  "
       "loom score nardy --position W:1,1,0,0,0,0,0,0,0,0,0,0,-1,-1,0,0,0,0,0,0,0,0,0,0"},
      {"play", "loom play gadur --size 3 --seed 7\n  loom play nardy --seed 1 --positions"},
      {"solve",
       "loom solve gadur --size 2 --json\n  loom solve fiodar --size 2 --pie\n  "
       "loom solve enfargar --size 3 --checkpoint e3.ckpt"},
      {"verify",
       "loom verify gadur --size 2 --property termination\n  loom verify fiodar --list-queries"},
      {"edges",
       "loom edges migong --size 3 > my.edges\n  loom moves migong --size 3 --edges my.edges"},
      {"audit",
       "loom audit gadur --out gadur-audit\n  "
       "loom audit enfargar --size 2 --variants --seconds 60 --out enfargar-audit --json"},
      {"render",
       "loom render gadur --size 3 --record \"a1 b2 c3\" --out gadur.svg\n  "
       "loom render nardy --position W:1,1,0,0,0,0,0,0,0,0,0,0,-1,-1,0,0,0,0,0,0,0,0,0,0 "
       "--dice 65 --out nardy.svg"},
      {"puzzle",
       "loom puzzle make gadur --size 3 --count 4 --seed 1 --out gadur3\n  "
       "loom puzzle check gadur3"},
      {"puzzle make",
       "loom puzzle make gadur --size 3 --count 4 --seed 1 --out gadur3\n  "
       "loom puzzle make nardy --max-checkers 4 --count 2 --seed 1 --out nardy4"},
      {"puzzle check",
       "loom puzzle check gadur3\n  loom puzzle check --no-spec gadur3/puzzles.jsonl"},
  };
  return m;
}

/// The version line of `loom --version`.
std::string version_line() {
  return std::string("loom ") + loom_version();
}

/// Standard output must have taken everything (a full disk, a closed pipe):
/// otherwise the result is lost and the run fails with status 2.
int finish_output(std::ostream& out, std::ostream& err, int code) {
  errno = 0;
  out.flush();
  if (!out) {
    int e = errno;
    err << "loom: cannot write the output" << (e ? std::string(": ") + std::strerror(e) : "")
        << "\n";
    return 2;
  }
  return code;
}

}  // namespace

int run_loom(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    CLI::App app{
        "loom: executable rules, exact solving and puzzles for Fiodar, Enfargar, Gadur, Migong "
        "and Long Nardy.\nMove tokens, records and outputs follow docs/cli.md.",
        "loom"};
    app.require_subcommand(1);
    std::vector<std::pair<CLI::App*, Action>> actions;
    app.set_version_flag("--version", version_line(), "print the version and exit");
    app.footer("Run `loom COMMAND --help` for a command's options and examples.");
    std::string names;
    std::vector<std::string> known;
    for (const auto& spec : all_commands()) {
      auto* sub = app.add_subcommand(spec.name, spec.help);
      actions.emplace_back(sub, spec.setup(sub));
      // A command's examples (and its own commands': "puzzle make").
      const auto with_examples = [&](CLI::App* c, const std::string& key) {
        if (auto it = examples().find(key);
            it != examples().end() && c->get_footer() == app.get_footer())
          c->footer("Examples:\n  " + it->second);
      };
      with_examples(sub, spec.name);
      for (CLI::App* c : sub->get_subcommands([](const CLI::App*) { return true; }))
        with_examples(c, spec.name + " " + c->get_name());
      names += (names.empty() ? "" : ", ") + spec.name;
      known.push_back(spec.name);
    }
    // A first word that is no command and no option: name it, list the
    // commands and suggest the nearest.
    if (!args.empty() && (args[0].empty() || args[0][0] != '-') &&
        std::find(known.begin(), known.end(), args[0]) == known.end()) {
      std::string msg = "unknown command '" + clip_token(args[0]) + "' (known: " + names + ")";
      std::string best;
      size_t best_d = 3;
      for (const auto& k : known) {
        size_t d = edit_distance(args[0].substr(0, 40), k);
        if (d < best_d) best_d = d, best = k;
      }
      if (!best.empty()) msg += "; did you mean '" + best + "'?";
      err << "loom: " << msg << "\n";
      return 2;
    }

    std::vector<std::string> argv_store = {"loom"};
    argv_store.insert(argv_store.end(), args.begin(), args.end());
    std::vector<const char*> argv;
    for (auto& a : argv_store) argv.push_back(a.c_str());
    // CLI11 lists the leftover words (in reverse order): name the first
    // and the command it was given to; empty if none is left over.
    const auto leftover_message = [&]() -> std::string {
      std::vector<std::string> chain;  // the commands selected, outermost first
      for (const CLI::App* a = &app;;) {
        const auto subs = a->get_subcommands();
        if (subs.empty()) break;
        a = subs.front();
        chain.push_back(a->get_name());
      }
      const std::vector<std::string> extra = app.remaining(true);
      if (extra.empty()) return {};
      const std::string& w = extra.front();
      // "-5" is a stray number, not an option.
      const bool option = w.size() > 1 && w[0] == '-' &&
                          !(std::isdigit(static_cast<unsigned char>(w[1])) || w[1] == '.');
      // The word belongs to the innermost command named before it
      // ("loom puzzle --json check": puzzle's; "loom --bogus perft":
      // loom's own).
      const auto word_at = std::find(args.begin(), args.end(), w);
      std::string path;
      auto from = args.begin();
      for (const std::string& name : chain) {
        const auto it = std::find(from, args.end(), name);
        if (it >= word_at) break;
        path += " " + name;
        from = it + 1;
      }
      const std::string what =
          (option ? "unknown option '" : "unexpected argument '") + clip_token(w) + "'";
      if (path.empty() && !chain.empty())
        return what + " before the command" +
               (option ? "; options follow it (loom " + chain.front() + " " + clip_token(w) + ")"
                       : std::string()) +
               "; try loom --help";
      return what + " for loom" + path + "; try loom" + path + " --help";
    };
    const auto bad = [&](const std::string& msg) {
      err << "loom: " << msg << "\n";
      return 2;
    };
    try {
      app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::CallForHelp&) {
      // `loom COMMAND --help`: CLI11 shows the selected command's help
      // (an unknown word beside --help or --version is still bad input).
      if (const std::string extra = leftover_message(); !extra.empty()) return bad(extra);
      out << app.help();
      return finish_output(out, err, 0);
    } catch (const CLI::CallForAllHelp&) {
      if (const std::string extra = leftover_message(); !extra.empty()) return bad(extra);
      out << app.help("", CLI::AppFormatMode::All);
      return finish_output(out, err, 0);
    } catch (const CLI::CallForVersion&) {
      if (const std::string extra = leftover_message(); !extra.empty()) return bad(extra);
      out << version_line() << "\n";
      return finish_output(out, err, 0);
    } catch (const CLI::ParseError& e) {
      std::string msg = one_line(e.what());
      if (args.empty()) {
        msg = "a command is required (" + names + "); try --help";
      } else if (const std::string extra = leftover_message();
                 !extra.empty() && (dynamic_cast<const CLI::ExtrasError*>(&e) ||
                                    (dynamic_cast<const CLI::RequiredError*>(&e) &&
                                     msg.find("subcommand") == std::string::npos))) {
        // CLI11 checks what is required before what is left over: `loom
        // puzzle check --x` said "path is required"; name the word instead.
        msg = extra;
      } else if (const std::string conv = "Could not convert: ";
                 dynamic_cast<const CLI::ConversionError*>(&e) && msg.rfind(conv, 0) == 0 &&
                 msg.find(" = ") != std::string::npos) {
        // CLI11: "Could not convert: --divide = maybe" (a value given to a
        // flag, raw bytes and all).
        const size_t eq = msg.find(" = ");
        const std::string name = msg.substr(conv.size(), eq - conv.size());
        const std::string value = msg.substr(eq + 3);
        const CLI::Option* opt = find_option(app, name);
        msg = name + ": cannot read '" + clip_token(value) + "'" +
              (opt && opt->get_expected_max() == 0
                   ? " (a flag takes no value: write " + name + " alone)"
                   : "");
      } else if (const size_t at = msg.find(": At Most 1 required but received ");
                 dynamic_cast<const CLI::ArgumentMismatch*>(&e) && at != std::string::npos) {
        msg = msg.substr(0, at) + ": given more than once";
      } else if (const size_t req = msg.find(": 1 required ");
                 dynamic_cast<const CLI::ArgumentMismatch*>(&e) && req != std::string::npos &&
                 msg.size() > 8 && msg.compare(msg.size() - 8, 8, " missing") == 0) {
        // "--db: 1 required TEXT missing" (`--db=` with nothing after it).
        msg = msg.substr(0, req) + ": needs a value";
      } else if (dynamic_cast<const CLI::RequiredError*>(&e) && !args[0].empty() &&
                 msg.find("subcommand") != std::string::npos) {
        // CLI11 says only "A subcommand is required": name the word that
        // was not one, and list what would be.
        if (args[0][0] == '-') {
          msg = "unknown option '" + clip_token(args[0]) + "': a command comes first (" + names +
                "); try --help";
        } else {
          std::string subs;
          for (const CLI::App* s :
               app.get_subcommand(args[0])->get_subcommands([](const CLI::App*) { return true; }))
            subs += (subs.empty() ? "" : ", ") + s->get_name();
          msg = args.size() > 1 && args[1][0] != '-'
                    ? "unknown " + args[0] + " command '" + clip_token(args[1]) + "'"
                    : args[0] + " needs a command first";
          msg += " (known: " + subs + "); try loom " + args[0] + " --help";
        }
      }
      // CLI11's own messages quote the user's words raw (a terminal escape
      // got through): every byte outside printable ASCII as \xNN.
      err << "loom: " << clip_token(msg, msg.size()) << "\n";
      return 2;
    }
    for (auto& [sub, action] : actions)
      if (*sub) action(out, err);
    return finish_output(out, err, 0);
  } catch (const InputError& e) {
    err << "loom: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const CommandFailed& e) {
    if (*e.what()) err << "loom: " << one_line(e.what()) << "\n";
    return 1;
  } catch (const Interrupted& e) {
    err << "loom: " << one_line(e.what()) << "\n";
    return 130;
  } catch (const std::bad_alloc&) {
    err << "loom: out of memory\n";
    return 2;
  } catch (const std::exception& e) {
    err << "loom: internal error: " << one_line(e.what()) << "\n";
    return 1;
  }
}

const char* loom_version() {
#ifdef LOOM_VERSION
  return LOOM_VERSION;
#else
  return "(unknown version)";
#endif
}

}  // namespace loom
