// The game-independent parts of puzzles: the shape of a puzzle object, the
// collection directory (puzzles.jsonl, one SVG a puzzle, index.html) and
// reading puzzle files back.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/common/errors.h"
#include "puzzles/html.h"
#include "puzzles/puzzles.h"

namespace loom::puzzles {

namespace {

std::string name_of(const nlohmann::json& p) {
  if (p.is_object() && p.contains("id") && p["id"].is_string()) return p["id"].get<std::string>();
  return "(no id)";
}

}  // namespace

void validate_shape(const nlohmann::json& p) {
  if (!p.is_object()) throw InputError("a puzzle is not a JSON object");
  const std::string who = "puzzle " + name_of(p);
  auto need = [&](const char* key, auto is_type, const char* what) {
    if (!p.contains(key)) throw InputError(who + ": key '" + key + "' is missing");
    if (!is_type(p[key])) throw InputError(who + ": '" + key + "' is not " + what);
  };
  auto str = [](const nlohmann::json& v) { return v.is_string(); };
  auto num = [](const nlohmann::json& v) { return v.is_number(); };
  need("id", str, "a string");
  need("game", str, "a string");
  need(
      "size", [](const nlohmann::json& v) { return v.is_number_integer(); }, "an integer");
  need(
      "rules", [](const nlohmann::json& v) { return v.is_object(); }, "an object");
  for (const auto& [k, v] : p["rules"].items())
    if (!v.is_string()) throw InputError(who + ": rule '" + k + "' is not a string");
  // The position: a record (Fiodar may add a setup), or a Long Nardy
  // position string and dice.
  if (p["game"] == "nardy") {
    need("position", str, "a string");
    need("dice", str, "a string");
  } else {
    need("record", str, "a string");
    if (p.contains("setup") && !p["setup"].is_string())
      throw InputError(who + ": 'setup' is not a string");
  }
  need("to_move", str, "a string");
  const std::string tm = p["to_move"].get<std::string>();
  if (tm != "black" && tm != "white") throw InputError(who + ": to_move is not black or white");
  need("question", str, "a string");
  need("answer", str, "a string");
  need(
      "moves", [](const nlohmann::json& v) { return v.is_array(); }, "an array");
  for (const auto& e : p["moves"]) {
    if (!e.is_object() || !e.contains("move") || !e["move"].is_string() || !e.contains("value") ||
        !(e["value"].is_string() || e["value"].is_number()))
      throw InputError(who + ": a 'moves' entry is not {\"move\": TOKEN, \"value\": V}");
  }
  need(
      "line", [](const nlohmann::json& v) { return v.is_array(); }, "an array");
  for (const auto& e : p["line"])
    if (!e.is_string()) throw InputError(who + ": a 'line' entry is not a token");
  need("difficulty", num, "a number");
  need(
      "proof", [](const nlohmann::json& v) { return v.is_object(); }, "an object");
  const auto& pr = p["proof"];
  if (!pr.contains("method") || !pr["method"].is_string() || !pr.contains("nodes") ||
      !pr["nodes"].is_number() || !pr.contains("seconds") || !pr["seconds"].is_number())
    throw InputError(who + ": 'proof' is not {method, nodes, seconds}");
}

std::string MakeReport::summary() const {
  std::ostringstream o;
  uint64_t rej = 0;
  for (const auto& [k, n] : rejected) rej += n;
  o << puzzles.size() << " puzzles from " << games << " games, " << candidates
    << " positions examined, " << rej << " rejected";
  if (candidates > 0) {
    o << " (";
    bool first = true;
    for (const auto& [k, n] : rejected) {
      char pct[32];
      std::snprintf(pct, sizeof pct, "%.1f%%",
                    100.0 * static_cast<double>(n) / static_cast<double>(candidates));
      o << (first ? "" : ", ") << k << " " << n << " = " << pct;
      first = false;
    }
    o << ")";
  }
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f", seconds);
  o << ", " << secs << " s";
  return o.str();
}

void write_collection(const std::string& dir, const std::string& title, const MakeReport& r) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError("cannot create directory '" + dir + "': " + ec.message());
  auto write = [&](const fs::path& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary);
    f << text;
    f.close();
    if (!f) throw InputError("cannot write '" + path.string() + "'");
  };
  std::string jsonl;
  for (const auto& p : r.puzzles) jsonl += p.dump() + "\n";
  write(fs::path(dir) / "puzzles.jsonl", jsonl);
  for (size_t i = 0; i < r.puzzles.size(); ++i)
    write(fs::path(dir) / (r.puzzles[i]["id"].get<std::string>() + ".svg"), r.svgs.at(i));
  write(fs::path(dir) / "index.html", collection_html(title, r.puzzles, r.svgs));
}

std::vector<nlohmann::json> read_puzzles(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p(path);
  std::error_code ec;
  if (fs::is_directory(p, ec)) p /= "puzzles.jsonl";
  std::ifstream f(p, std::ios::binary);
  if (!f) throw InputError("cannot read '" + p.string() + "'");
  std::vector<nlohmann::json> out;
  std::string line;
  int n = 0;
  while (std::getline(f, line)) {
    ++n;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception&) {
      throw InputError(p.string() + " line " + std::to_string(n) + ": not JSON");
    }
    if (!j.is_object())
      throw InputError(p.string() + " line " + std::to_string(n) + ": not a JSON object");
    out.push_back(std::move(j));
  }
  if (f.bad()) throw InputError("cannot read '" + p.string() + "'");
  return out;
}

}  // namespace loom::puzzles
