// libFuzzer harness: records and move tokens of the four board games.
//
// Input: byte 0 picks the game (Gadur, Fiodar, Enfargar, Migong), byte 1 the
// side (2..7, so both one-word and three-word boards), byte 2 the rule
// variant of every option, byte 3 a mode bit; the rest is a record (tokens
// separated by whitespace; the first 64 tokens are read). Properties, per
// token:
// - every legal move's name parses back to that move (names are canonical;
//   checked the first time the process meets a position: see first_visit);
// - a token that parses names a move whose name parses back to it (print
//   then parse is the identity on moves);
// - an illegal or malformed token leaves the state exactly as it was;
// - a legal move keeps the invariants and the incremental hash, and undo
//   restores the position and hash;
// and at the end the record of the moves played, printed and parsed again
// from the start, reaches the same position.
// Mode bit: a malformed token plays the legal move its length picks, so the
// fuzzer reaches deep positions with few bytes.
#include <algorithm>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "model/enfargar/enfargar.h"
#include "model/fiodar/fiodar.h"
#include "model/gadur/gadur.h"
#include "model/migong/migong.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using namespace loom;

/// Tokens read per input (the rest is ignored): bounds the work per input;
/// the index mode reaches deep positions within it.
constexpr size_t kMaxTokens = 64;

std::vector<std::string_view> tokens(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size() && out.size() < kMaxTokens) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) ++i;
    size_t j = i;
    while (j < s.size() && !(s[j] == ' ' || s[j] == '\n' || s[j] == '\t' || s[j] == '\r')) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

RuleSet pick_rules(const std::vector<RuleSpec>& specs, uint8_t bits) {
  RuleSet rs(specs);
  for (const auto& sp : specs) {
    size_t n = sp.values.size();
    rs.set(sp.key + "=" + sp.values[bits % n]);
    bits = static_cast<uint8_t>(bits / n);
  }
  return rs;
}

/// True the first time this process meets the position (by context and
/// hash): the round trip of every legal move's name is checked once per
/// position, not again each time an input passes through it (the start
/// position of Migong side 7 alone has thousands of moves). A position
/// a finding needs is still checked when its input is replayed alone.
template <class S>
bool first_visit(const S& s) {
  static std::unordered_set<uint64_t> seen;
  if (seen.size() > (1u << 22)) seen.clear();
  const uint64_t key =
      s.hash() ^ (reinterpret_cast<uintptr_t>(&s.context()) * 0x9e3779b97f4a7c15ull);
  return seen.insert(key).second;
}

template <class S>
void exercise(S s, std::string_view text, bool index_mode) {
  using Move = typename S::Move;
  const S start = s;
  std::vector<Move> ms;
  std::vector<std::string> played;
  typename S::Undo u;
  for (auto tok : tokens(text)) {
    const S before = s;
    const uint64_t h = s.hash();
    s.legal_moves(ms);
    FUZZ_REQUIRE(std::is_sorted(ms.begin(), ms.end()), "legal moves not sorted");
    FUZZ_REQUIRE(std::adjacent_find(ms.begin(), ms.end()) == ms.end(), "duplicate legal move");
    FUZZ_REQUIRE(ms.empty() == s.is_terminal(), "no moves iff terminal");
    if (first_visit(s)) {
      for (const auto& m : ms) {
        auto back = s.parse_move(s.move_name(m));
        FUZZ_REQUIRE(back && *back == m, "legal move name does not parse back: " + s.move_name(m));
      }
    }
    std::optional<Move> m = s.parse_move(tok);
    FUZZ_REQUIRE(s == before && s.hash() == h, "parse_move changed the state");
    if (m) {
      std::string name = s.move_name(*m);
      auto again = s.parse_move(name);
      FUZZ_REQUIRE(again && *again == *m,
                   "print then parse differs: '" + std::string(tok) + "' -> '" + name + "'");
      FUZZ_REQUIRE(s.move_name(*again) == name, "move name not stable");
    } else if (index_mode && !ms.empty()) {
      m = ms[tok.size() % ms.size()];
    }
    if (!m || !std::binary_search(ms.begin(), ms.end(), *m)) {
      // Rejected (malformed or illegal): nothing may have changed.
      FUZZ_REQUIRE(s == before && s.hash() == h, "a rejected token changed the state");
      continue;
    }
    s.apply(*m, u);
    FUZZ_REQUIRE(s.check_invariants().empty(), s.check_invariants());
    FUZZ_REQUIRE(s.hash() == s.recompute_hash(), "incremental hash differs");
    s.undo(*m, u);
    FUZZ_REQUIRE(s == before && s.hash() == h, "undo did not restore the position");
    played.push_back(s.move_name(*m));
    s.apply(*m, u);
  }
  // The record printed and parsed again from the start.
  std::string record;
  for (const auto& t : played) record += (record.empty() ? "" : " ") + t;
  S r = start;
  for (auto tok : tokens(record)) {
    auto m = r.parse_move(tok);
    FUZZ_REQUIRE(m.has_value(), "printed record token does not parse: " + std::string(tok));
    r.legal_moves(ms);
    FUZZ_REQUIRE(std::binary_search(ms.begin(), ms.end(), *m), "printed record not legal");
    r.apply(*m, u);
  }
  FUZZ_REQUIRE(r == s && r.hash() == s.hash(), "replayed record reaches another position");
}

/// Contexts outlive the states that point to them: one per (game, side, rules).
std::map<std::tuple<int, int, int>, std::shared_ptr<const void>>& contexts() {
  static std::map<std::tuple<int, int, int>, std::shared_ptr<const void>> m;
  return m;
}

template <class Ctx, class Make>
const Ctx* context(int game, int side, int rules, Make make) {
  auto& slot = contexts()[{game, side, rules}];
  if (!slot) slot = make();
  return static_cast<const Ctx*>(slot.get());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  loom::fuzz::Input in{data, size};
  int game = in.byte() % 4;
  int side = 2 + in.byte() % 6;
  uint8_t rule_bits = in.byte();
  bool index_mode = in.byte() & 1;
  std::string_view text = in.rest();
  dispatch_width(side, [&](auto w) {
    constexpr int W = decltype(w)::value;
    switch (game) {
      case 0: {
        RuleSet rs = pick_rules(gadur::Options::specs(), rule_bits);
        auto* c = context<gadur::Context<W>>(game, side, rule_bits, [&] {
          return std::make_shared<const gadur::Context<W>>(side, gadur::Options::from(rs));
        });
        exercise(gadur::State<W>(c), text, index_mode);
        break;
      }
      case 1: {
        RuleSet rs = pick_rules(fiodar::Options::specs(), rule_bits);
        auto* c = context<fiodar::Context<W>>(game, side, rule_bits, [&] {
          return std::make_shared<const fiodar::Context<W>>(side, fiodar::Options::from(rs));
        });
        exercise(fiodar::State<W>(c), text, index_mode);
        break;
      }
      case 2: {
        RuleSet rs = pick_rules(enfargar::Options::specs(), rule_bits);
        auto* c = context<enfargar::Context<W>>(game, side, rule_bits, [&] {
          return std::make_shared<const enfargar::Context<W>>(side, enfargar::Options::from(rs));
        });
        exercise(enfargar::State<W>(c), text, index_mode);
        break;
      }
      default: {
        RuleSet rs = pick_rules(migong::Options::specs(), rule_bits);
        auto* c = context<migong::Context<W>>(game, side, rule_bits, [&] {
          return std::static_pointer_cast<const void>(
              migong::Context<W>::make(side, migong::Options::from(rs)));
        });
        exercise(migong::State<W>(c), text, index_mode);
        break;
      }
    }
  });
  return 0;
}
