// The game-independent parts of puzzles: the shape of a puzzle object, the
// collection directory (puzzles.jsonl, one SVG a puzzle, index.html) and
// reading puzzle files back.
#include <array>
#include <cctype>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "model/common/errors.h"
#include "model/common/files.h"
#include "model/nardy/nardy.h"
#include "puzzles/html.h"
#include "puzzles/progress.h"
#include "puzzles/puzzles.h"

namespace loom::puzzles {

namespace {

std::string name_of(const nlohmann::json& p) {
  if (p.is_object() && p.contains("id") && p["id"].is_string())
    return clip_token(p["id"].get<std::string>());
  return "(no id)";
}

/// An id names a file (<id>.svg) and appears in messages: a short token.
bool good_id(const std::string& id) {
  if (id.empty() || id.size() > 64 || id[0] == '.' || id[0] == '-') return false;
  for (char c : id)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
      return false;
  return true;
}

}  // namespace

std::string json_in_message(const nlohmann::json& v) {
  if (v.is_array()) return "(an array)";
  if (v.is_object()) return "(an object)";
  return clip_token(v.dump());
}

void validate_shape(const nlohmann::json& p) {
  if (!p.is_object()) throw InputError("a puzzle is not a JSON object");
  const std::string who = "puzzle " + name_of(p);
  auto need = [&](const char* key, auto is_type, const char* what) {
    if (!p.contains(key)) throw InputError(who + ": key '" + key + "' is missing");
    if (!is_type(p[key])) throw InputError(who + ": '" + key + "' is not " + what);
  };
  auto str = [](const nlohmann::json& v) { return v.is_string(); };
  const auto parse_position = [&](const std::string& text) {
    try {
      (void)nardy::Position::parse(text);
    } catch (const InputError& e) {
      throw InputError(who + ": " + e.what());
    }
  };
  auto num = [](const nlohmann::json& v) { return v.is_number(); };
  need("id", str, "a string");
  need("game", str, "a string");
  need(
      "size", [](const nlohmann::json& v) { return v.is_number_integer(); }, "an integer");
  need(
      "rules", [](const nlohmann::json& v) { return v.is_object(); }, "an object");
  for (const auto& [k, v] : p["rules"].items())
    if (!v.is_string()) throw InputError(who + ": rule '" + clip_token(k) + "' is not a string");
  // The position: a record (Fiodar may add a setup), or a Long Nardy
  // position string and dice; the other form's keys are refused (a Gadur
  // puzzle with a "position" was checked by its record alone, exit 0).
  const bool nardy = p["game"] == "nardy";
  static constexpr std::array<const char*, 2> kBoardKeys = {"record", "setup"},
                                              kNardyKeys = {"position", "dice"};
  for (const char* k : nardy ? kBoardKeys : kNardyKeys)
    if (p.contains(k))
      throw InputError(who + ": '" + k + "' is not a key of " +
                       (nardy ? "a Long Nardy puzzle (its position is 'position' and 'dice')"
                              : "this game's puzzles (their position is 'record')"));
  if (nardy) {
    // Long Nardy has one board; its puzzles say size 0 (CONVENTIONS.md).
    if (p["size"] != 0)
      throw InputError(who + ": size " + p["size"].dump() +
                       " is not Long Nardy's (0: it has one board)");
    need("position", str, "a string");
    need("dice", str, "a string");
    // Read now, with the rest of the shape: a malformed position is exit 2
    // whatever the other puzzles hold.
    parse_position(p["position"].get<std::string>());
    if (p.contains("min_gap") && !(p["min_gap"].is_number() && p["min_gap"].get<double>() > 0 &&
                                   p["min_gap"].get<double>() < 1))
      throw InputError(who + ": 'min_gap' " + json_in_message(p["min_gap"]) +
                       " is not a number between 0 and 1");
    if (p.contains("gap") && !p["gap"].is_number())
      throw InputError(who + ": 'gap' " + json_in_message(p["gap"]) + " is not a number");
  } else {
    // Read as 64 bits: a larger number must not wrap to a board size.
    if (const int64_t size = p["size"].get<int64_t>(); size < 0 || size > 1000)
      throw InputError(who + ": size " + json_in_message(p["size"]) + " is out of range");
    need("record", str, "a string");
    if (p.contains("setup") && !p["setup"].is_string())
      throw InputError(who + ": 'setup' is not a string");
  }
  need("to_move", str, "a string");
  const std::string tm = p["to_move"].get<std::string>();
  if (tm != "black" && tm != "white") throw InputError(who + ": to_move is not black or white");
  need("question", str, "a string");
  const std::string q = p["question"].get<std::string>();
  if (q != "win" && q != "best" && q != "roll")
    throw InputError(who + ": question '" + clip_token(q) + "' is not win, best or roll");
  need("answer", str, "a string");
  need(
      "moves", [](const nlohmann::json& v) { return v.is_array(); }, "an array");
  for (const auto& e : p["moves"]) {
    if (!e.is_object() || !e.contains("move") || !e["move"].is_string() || !e.contains("value") ||
        !(e["value"].is_string() || e["value"].is_number()))
      throw InputError(who + ": a 'moves' entry is not {\"move\": TOKEN, \"value\": V}");
    if (e["value"].is_string()) {
      const std::string v = e["value"].get<std::string>();
      if (v != "win" && v != "loss" && v != "draw" && v != "stall")
        throw InputError(who + ": a move's value '" + clip_token(v) +
                         "' is not win, loss, draw or stall");
    }
    if (e.contains("position")) {
      if (!e["position"].is_string())
        throw InputError(who + ": a move's 'position' is not a string");
      if (p["game"] == "nardy") parse_position(e["position"].get<std::string>());
    }
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

void validate_file_puzzle(const nlohmann::json& p) {
  validate_shape(p);
  if (!good_id(p["id"].get<std::string>()))
    throw InputError("puzzle " + name_of(p) +
                     ": 'id' is not a token of at most 64 letters, digits, '-', '_', '.'");
}

std::string MakeReport::summary() const {
  std::ostringstream o;
  uint64_t rej = 0;
  for (const auto& [k, n] : rejected) rej += n;
  const auto n_of = [](uint64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  o << n_of(puzzles.size(), "puzzle", "puzzles") << " from " << n_of(games, "game", "games") << ", "
    << n_of(candidates, "position", "positions") << " examined, " << rej << " rejected";
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
  std::string jsonl;
  for (const auto& p : r.puzzles) jsonl += p.dump() + "\n";
  const auto file = [&](const std::string& name) { return (fs::path(dir) / name).string(); };
  // A picture's temporary file that a killed run left (its rename never
  // came) goes: a rerun may make other ids and never write over it.
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 8 && name.ends_with(".svg.tmp")) fs::remove(entry.path(), ec);
  }
  // The job first: a run stopped before puzzles.jsonl is written still has
  // its progress file and goes on. Each file is written whole (a temporary
  // file renamed over it): a rerun that writes the collection again never
  // leaves half of one behind.
  if (!r.job.empty()) write_whole(job_path(dir), r.job + "\n");
  write_whole(file("puzzles.jsonl"), jsonl);
  for (size_t i = 0; i < r.puzzles.size(); ++i)
    write_whole(file(r.puzzles[i]["id"].get<std::string>() + ".svg"), r.svgs.at(i));
  write_whole(file("index.html"), collection_html(title, r.puzzles, r.svgs));
}

std::vector<nlohmann::json> parse_puzzles(std::string_view text, const std::string& name) {
  std::vector<nlohmann::json> out;
  const std::string where = clip_token(name, 200);
  size_t n = 0, pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++n;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    nlohmann::json j;
    // A key given twice in one object is refused: the parser would keep the
    // last value silently, so the checker could confirm a claim other than
    // the one a reader of the file sees first.
    std::vector<std::set<std::string>> keys;
    std::string twice;
    const auto unique_keys = [&](int, nlohmann::json::parse_event_t ev, nlohmann::json& parsed) {
      using E = nlohmann::json::parse_event_t;
      if (ev == E::object_start) keys.emplace_back();
      if (ev == E::object_end && !keys.empty()) keys.pop_back();
      if (ev == E::key && !keys.empty() && !keys.back().insert(parsed.get<std::string>()).second &&
          twice.empty())
        twice = parsed.get<std::string>();
      return true;
    };
    try {
      j = nlohmann::json::parse(line, unique_keys);
    } catch (const nlohmann::json::exception&) {
      throw InputError(where + " line " + std::to_string(n) + ": not JSON");
    }
    if (!twice.empty())
      throw InputError(where + " line " + std::to_string(n) + ": the key '" + clip_token(twice) +
                       "' appears twice in one object");
    if (!j.is_object())
      throw InputError(where + " line " + std::to_string(n) + ": not a JSON object");
    out.push_back(std::move(j));
  }
  return out;
}

std::vector<nlohmann::json> read_puzzles(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p(path);
  std::error_code ec;
  if (fs::is_directory(p, ec)) p /= "puzzles.jsonl";
  // A regular file only (a FIFO would block), at most 256 MiB.
  const std::string text = read_regular_file(p.string(), "puzzle file", uint64_t{1} << 28);
  return parse_puzzles(text, p.string());
}

}  // namespace loom::puzzles
