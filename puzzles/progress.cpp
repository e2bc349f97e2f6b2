// The progress file of `loom puzzle make` (puzzles/progress.h).
#include "puzzles/progress.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "model/common/errors.h"
#include "puzzles/nardy_puzzles.h"
#include "puzzles/puzzles.h"
#include "solver/checkpoint.h"

namespace loom::puzzles {

Progress progress_of(uint64_t rng, int next_game, const MakeReport& rep) {
  Progress p;
  p.rng = rng;
  p.next_game = static_cast<uint64_t>(next_game);
  p.games = rep.games;
  p.candidates = rep.candidates;
  p.rejected = rep.rejected;
  return p;
}

int resume_counters(const Progress& p, MakeReport& rep, const std::string& path, size_t found,
                    int count, std::ostream* notes) {
  rep.games = p.games;
  rep.candidates = p.candidates;
  rep.rejected = p.rejected;
  const int g = static_cast<int>(p.next_game);
  if (notes)
    *notes << "resuming from " << path << ": " << g << " games played, " << found << " of " << count
           << " puzzles found\n";
  return g;
}

namespace {

/// Payload layout version (inside the checkpoint format): a change of the
/// layout is another job, never a misread.
constexpr const char* kLayout = "layout=1";

/// Counts are bounded by what a file can hold (each entry takes 8 bytes or
/// more); a larger count is a damaged file.
constexpr uint64_t kMaxEntries = uint64_t{1} << 32;

}  // namespace

namespace {

std::string rule_fields(const std::vector<std::pair<std::string, std::string>>& rules) {
  std::string out;
  for (const auto& [k, v] : rules) out += "; rule " + k + "=" + v;
  return out;
}

}  // namespace

std::string make_signature(const MakeOptions& o, int max_games) {
  return "game=" + o.game + "; size=" + std::to_string(o.size) + rule_fields(o.rules) +
         "; count=" + std::to_string(o.count) + "; seed=" + std::to_string(o.seed) +
         "; max-positions=" + std::to_string(o.max_positions) +
         "; max-games=" + std::to_string(max_games) + "; per-game=" + std::to_string(o.per_game) +
         "; check-positions=" + std::to_string(o.check_positions) + "; loom=" + o.version;
}

std::string nardy_make_signature(const NardyMakeOptions& o, int max_games) {
  return "game=nardy" + rule_fields(o.rules) + "; max-checkers=" + std::to_string(o.max_checkers) +
         "; min-gap=" + exact_double(o.min_gap) + "; count=" + std::to_string(o.count) +
         "; seed=" + std::to_string(o.seed) + "; max-games=" + std::to_string(max_games) +
         "; per-game=" + std::to_string(o.per_game) +
         "; check-pairs=" + std::to_string(o.check_pairs) +
         (o.race_wrong_only ? "; race-wrong" : "") + "; loom=" + o.version;
}

std::string job_path(const std::string& dir) {
  return (std::filesystem::path(dir) / "puzzles.job").string();
}

void check_collection_job(const std::string& dir, const std::string& signature) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(fs::path(dir) / "puzzles.jsonl", ec)) return;
  std::string job;
  if (std::ifstream in(job_path(dir)); in) std::getline(in, job);
  if (job == signature) return;
  if (job.empty())
    throw InputError("'" + clip_token(dir, 200) +
                     "' holds a puzzle collection without puzzles.job (made by a loom before "
                     "2026-12-05), so whose job it is cannot be told: choose another --out, or "
                     "remove the directory");
  throw InputError("'" + clip_token(dir, 200) +
                   "' already holds another job's puzzle collection (puzzles.jsonl; its job: " +
                   clip_token(job, 300) + "): choose another --out, or remove the directory");
}

std::string progress_path(const std::string& dir) {
  return (std::filesystem::path(dir) / "puzzles.progress").string();
}

std::string exact_double(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

void save_progress(const std::string& path, const char* kind, const std::string& signature,
                   const Progress& p) {
  solver::CheckpointWriter w(path, kind, signature + "; " + kLayout);
  w.u64(p.rng);
  w.u64(p.next_game);
  w.u64(p.games);
  w.u64(p.candidates);
  w.u64(p.rejected.size());
  for (const auto& [why, n] : p.rejected) {
    w.str(why);
    w.u64(n);
  }
  // Sets saved sorted: the same state gives the same file.
  std::vector<uint64_t> hashes = p.seen_hashes;
  std::sort(hashes.begin(), hashes.end());
  w.array(hashes);
  std::vector<std::string> keys = p.seen_keys;
  std::sort(keys.begin(), keys.end());
  w.u64(keys.size());
  for (const auto& k : keys) w.str(k);
  w.u64(p.found.size());
  for (const auto& j : p.found) w.str(j.dump());
  w.commit();
}

std::optional<Progress> load_progress(
    const std::string& path, const char* kind, const std::string& signature,
    const std::function<std::string(const nlohmann::json&)>& check) {
  if (!solver::CheckpointReader::exists(path)) {
    check_collection_job(std::filesystem::path(path).parent_path().string(), signature);
    return std::nullopt;
  }
  solver::CheckpointReader rd(path, kind, signature + "; " + kLayout);
  Progress p;
  p.rng = rd.u64();
  p.next_game = rd.u64();
  p.games = rd.u64();
  p.candidates = rd.u64();
  if (p.games != p.next_game) rd.corrupt("the game counters disagree");
  uint64_t n = rd.u64(kMaxEntries, "rejection count");
  uint64_t rejected = 0;
  for (uint64_t i = 0; i < n; ++i) {
    std::string why = rd.str();
    uint64_t k = rd.u64();
    if (why.empty() || !p.rejected.emplace(why, k).second) rd.corrupt("bad rejection reasons");
    rejected += k;
  }
  rd.array(p.seen_hashes, kMaxEntries);
  if (!std::is_sorted(p.seen_hashes.begin(), p.seen_hashes.end()) ||
      std::adjacent_find(p.seen_hashes.begin(), p.seen_hashes.end()) != p.seen_hashes.end())
    rd.corrupt("the examined positions are not a sorted set");
  n = rd.u64(kMaxEntries, "key count");
  for (uint64_t i = 0; i < n; ++i) {
    p.seen_keys.push_back(rd.str());
    if (i > 0 && !(p.seen_keys[i - 1] < p.seen_keys[i]))
      rd.corrupt("the examined positions are not a sorted set");
  }
  n = rd.u64(kMaxEntries, "puzzle count");
  for (uint64_t i = 0; i < n; ++i) {
    std::string text = rd.str();
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      rd.corrupt("saved puzzle " + std::to_string(i + 1) + " is not a JSON object");
    if (std::string why = check(j); !why.empty())
      rd.corrupt("saved puzzle " + std::to_string(i + 1) + ": " + why);
    p.found.push_back(std::move(j));
  }
  rd.finish();
  // Every examined position is a rejection or a puzzle kept (MakeReport).
  if (rejected + p.found.size() != p.candidates) rd.corrupt("the counters disagree");
  return p;
}

void remove_progress(const std::string& path) {
  // Through a symbolic link the file written is its target (the link stays,
  // as for every checkpoint).
  const std::string target = solver::checkpoint_target(path);
  std::error_code ec;
  if (std::filesystem::is_symlink(target, ec)) return;  // a loop: nothing was written
  std::filesystem::remove(target, ec);
  std::filesystem::remove(target + ".tmp", ec);
}

}  // namespace loom::puzzles
