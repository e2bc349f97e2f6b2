#include "app/cli.h"

#include <exception>

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

}  // namespace

int run_loom(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    CLI::App app{
        "loom: executable rules, exact solving and puzzles for Fiodar, Enfargar, Gadur, Migong "
        "and Long Nardy.\nMove tokens, records and outputs follow docs/cli.md.",
        "loom"};
    app.require_subcommand(1);
    std::vector<std::pair<CLI::App*, Action>> actions;
    std::string names;
    for (const auto& spec : all_commands()) {
      auto* sub = app.add_subcommand(spec.name, spec.help);
      actions.emplace_back(sub, spec.setup(sub));
      names += (names.empty() ? "" : ", ") + spec.name;
    }

    std::vector<std::string> argv_store = {"loom"};
    argv_store.insert(argv_store.end(), args.begin(), args.end());
    std::vector<const char*> argv;
    for (auto& a : argv_store) argv.push_back(a.c_str());
    try {
      app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::CallForHelp&) {
      out << app.help();
      return 0;
    } catch (const CLI::CallForAllHelp&) {
      out << app.help("", CLI::AppFormatMode::All);
      return 0;
    } catch (const CLI::ParseError& e) {
      std::string msg = one_line(e.what());
      if (args.empty()) msg = "a command is required (" + names + "); try --help";
      err << "loom: " << msg << "\n";
      return 2;
    }
    for (auto& [sub, action] : actions)
      if (*sub) action(out, err);
    return 0;
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

}  // namespace loom
