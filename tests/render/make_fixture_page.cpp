// make_fixture_page FIXTURE.jsonl OUTDIR: renders the puzzles of a JSONL file
// (CONVENTIONS.md "Puzzles") with the puzzles/ API and writes OUTDIR/index.html
// and one OUTDIR/<id>.svg a puzzle, for the browser test of the collection
// page (tests/browser). It builds each position through the same game
// factories as `loom` (record, Fiodar setup, Long Nardy position and dice).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/registry.h"
#include "app/render_game.h"
#include "puzzles/html.h"

using namespace loom;

namespace {

std::string render_puzzle(const nlohmann::json& p) {
  std::string game = p.at("game").get<std::string>();
  std::vector<std::string> rules;
  if (p.contains("rules"))
    for (const auto& [k, v] : p.at("rules").items())
      rules.push_back(k + "=" + (v.is_string() ? v.get<std::string>() : v.dump()));
  StartOptions so;
  if (p.contains("setup")) so.setup = p.at("setup").get<std::string>();
  std::optional<int> size;
  if (game != "nardy") size = p.at("size").get<int>();
  auto g = make_game(game, size, rules, so);
  puzzles::RenderOptions ro;
  ro.caption = p.value("id", "");
  std::optional<nardy::Roll> roll;
  if (game == "nardy") {
    g->set_position(p.at("position").get<std::string>());
    roll = nardy::Roll::parse(p.at("dice").get<std::string>());
  } else {
    std::string record = p.value("record", "");
    g->play_record(record);
    ro.last_move = last_token(record);
  }
  const std::string svg = render_game_svg(*g, ro, roll);
  return svg;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: make_fixture_page FIXTURE.jsonl OUTDIR\n";
    return 2;
  }
  try {
    std::ifstream in(argv[1]);
    if (!in) throw std::runtime_error(std::string("cannot read ") + argv[1]);
    std::vector<nlohmann::json> puzzles;
    std::vector<std::string> svgs;
    std::filesystem::create_directories(argv[2]);
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      auto p = nlohmann::json::parse(line);
      svgs.push_back(render_puzzle(p));
      std::ofstream(std::filesystem::path(argv[2]) / (p.at("id").get<std::string>() + ".svg"))
          << svgs.back();
      puzzles.push_back(std::move(p));
    }
    std::ofstream out(std::filesystem::path(argv[2]) / "index.html");
    out << puzzles::collection_html("Loom puzzles (test fixture)", puzzles, svgs);
    if (!out) throw std::runtime_error("cannot write index.html");
  } catch (const std::exception& e) {
    std::cerr << "make_fixture_page: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
