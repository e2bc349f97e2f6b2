// The dense-index retrograde (solver/dense.h) with its positions
// partitioned over the ranks of an Exchange (MPI under mpirun, or one
// process): `mpirun -np K loom solve gadur --size 3 --method dense`.
//
// Partition. Keys are cut into blocks of 512; block j belongs to rank
// j mod K, and within its rank it is local block j div K. Canonical keys
// (the smallest image under the symmetries) crowd the low keys, so blocks
// dealt round-robin spread them evenly. Each rank holds the bitmap of its own
// keys only (2 * 3^n / K bits) and one byte of value and one of distance per
// position it owns.
//
// Rounds. The work of a step (a breadth-first ply or stone count while
// enumerating, a layer of the counter retrograde, a stone count of the
// layered solve) is done in rounds of at most Config::round positions a
// rank. In a round each rank expands its share and batches what it learns
// for the owners (child keys; parent keys with the child's value; queries
// and their answers), one all-to-all exchanges the batches, and each owner
// applies what it received. A round ends with a sum over the ranks (the
// global termination test: a step ends when no rank has work left), and any
// failure on one rank is broadcast so that every rank stops with the same
// error instead of waiting for ever in the next collective.
//
// Checkpoints. At the start of a step, when the interval is due (rank 0's
// clock) or a stop was requested (any rank), every rank writes its whole
// state to FILE.rank<r>.<a|b>, the two slots alternating, and rank 0 writes
// FILE itself, once every rank's first save is done: the manifest with the
// number of ranks. Every rank's save ends before any rank starts the next,
// so a job killed at any moment leaves a step that every rank has saved
// (its newest or the one before); the restart resumes from the newest step
// all ranks have (no manifest: nothing usable was saved, start afresh, after
// checking that every part already there is this job's: another job's is
// refused, not written over). A finished solve saves its last state too, so
// that a rerun answers from it. A restart with another number of ranks is
// refused (the positions would be owned by other ranks).
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "solver/checkpoint.h"
#include "solver/control.h"
#include "solver/dense.h"
#include "solver/exchange.h"

namespace loom::solver {

template <DenseGame S>
class DistributedDense : public DenseMoves<S> {
 public:
  using Base = DenseMoves<S>;
  using Base::kCodeShift;
  using Base::kLoss;
  using Base::kNoDist;
  using Base::kRetractable;
  using Base::kUnknown;
  using Base::kWin;
  using typename Base::Child;
  using typename Base::Fold;
  using typename Base::Scratch;

  struct Config {
    bool symmetry = true;
    /// Positions a rank handles between two exchanges.
    uint64_t round = uint64_t{1} << 20;
    std::string checkpoint;  ///< "" = none
    std::string signature;   ///< the job's identity (checkpoints)
  };

  static constexpr uint32_t kBlockBits = 9, kBlockMask = (1u << kBlockBits) - 1;
  static constexpr uint64_t kStop = ~uint64_t{0};

  DistributedDense(const S& root, Config cfg, Exchange& ex)
      : Base(root, cfg.symmetry),
        cfg_(std::move(cfg)),
        ex_(ex),
        k_(static_cast<uint32_t>(ex.size())),
        me_(static_cast<uint32_t>(ex.rank())),
        set_(local_key_count()) {
    std::string why = Base::unsupported(root);
    if (!why.empty()) throw InputError("--method dense: " + why);
    if (cfg_.round == 0) cfg_.round = 1;
    root_key_ = this->key_of(root);
  }

  /// Enumerates and solves (resuming from the checkpoint if there is one).
  /// Collective. Throws Interrupted after saving on a stop request.
  void run(RunControl& ctl) {
    if (!cfg_.checkpoint.empty()) {
      // This rank's two slot files, found unwritable now, not at the first
      // save after the enumeration.
      guarded([&] {
        for (uint64_t parity : {0, 1})
          check_checkpoint_writable(slot_path(me_, parity), "--checkpoint");
      });
      resume();
    }
    if (phase_ == 0) {
      enumerate(ctl);
      phase_ = 1;
      step_ = kRetractable ? 1 : static_cast<uint32_t>(this->codec_.cells());
      if constexpr (kRetractable) scatter_first();
    }
    if (phase_ == 1) {
      if constexpr (kRetractable)
        solve_counters(ctl);
      else
        solve_layers(ctl);
      phase_ = 2;
      // The finished state too, as the other methods keep theirs: a rerun
      // answers from it without solving again.
      // A failure (a full disk) is kept for the report, which the command
      // prints first: the solve is not lost with it. Every rank sees it
      // (save() is collective and so are its errors).
      if (!cfg_.checkpoint.empty()) {
        try {
          save();
          ctl.checkpoint_written();
        } catch (const InputError& e) {
          save_error_ = e.what();
        }
      }
    }
    finish_totals();
  }

  // --- results (after run) --------------------------------------------------

  bool resumed() const { return resumed_; }
  /// Why the finished state could not be saved to the checkpoint (empty:
  /// it was, or there is no checkpoint).
  const std::string& save_error() const { return save_error_; }
  uint64_t positions() const { return tot_positions_; }
  uint64_t moves() const { return tot_moves_; }
  uint64_t terminals() const { return tot_ends_; }
  uint32_t sweeps() const { return tot_sweeps_; }
  int symmetries() const { return this->codec_.symmetries(); }
  Value::Kind neutral_kind() const { return neutral_; }
  const std::vector<RankStats>& ranks() const { return ranks_; }
  /// The largest rank's memory.
  uint64_t bytes_per_rank() const {
    uint64_t m = 0;
    for (const auto& r : ranks_) m = std::max(m, r.bytes);
    return m;
  }

  /// Rank 0: value and plies (-1: draw or unknown) of a reachable
  /// position. Collective with serve() on the other ranks.
  std::pair<Value, int> ask(const S& s) {
    uint8_t code;
    int d;
    if (auto e = this->end_code(s)) {
      std::tie(code, d) = *e;
    } else {
      uint64_t q = this->key_of(s);
      ex_.broadcast(q, 0);
      uint64_t a = ex_.sum(answer(static_cast<uint32_t>(q)));
      if (a == 0) return {Value{}, -1};
      code = static_cast<uint8_t>(a & 3);
      d = static_cast<int>((a >> 8) & 0xff);
    }
    return this->table_value(code, d, s.to_move(), neutral_);
  }
  /// Rank 0: ends the other ranks' serve().
  void stop_service() {
    uint64_t q = kStop;
    ex_.broadcast(q, 0);
  }
  /// Ranks other than 0: answer rank 0's questions until stop_service().
  void serve() {
    for (;;) {
      uint64_t q = 0;
      ex_.broadcast(q, 0);
      if (q == kStop) return;
      ex_.sum(answer(static_cast<uint32_t>(q)));
    }
  }

  /// Every stored position's key, value code and plies (kNoDist for a
  /// draw), on rank 0 in increasing key order: f(key, code, plies), as
  /// DenseRetrograde::for_each_solved (a saved table). Collective: each rank
  /// sends rank 0 its share of Config::round keys of local blocks at a time,
  /// and rank 0 takes the blocks in turn (block j from rank j mod K).
  template <class F>
  void for_each_solved(F&& f) {
    const uint64_t blocks = local_key_count() >> kBlockBits;
    const uint64_t per_round = std::max<uint64_t>(1, cfg_.round >> kBlockBits);
    std::vector<std::vector<uint64_t>> send(k_);
    std::vector<uint64_t> recv, from;
    for (uint64_t lb = 0; lb < blocks; lb += per_round) {
      const uint64_t end = std::min(blocks, lb + per_round);
      send[0].clear();
      set_.for_each_in(lb << kBlockBits, end << kBlockBits, [&](uint32_t lk) {
        const uint32_t r = set_.rank(lk);
        const uint8_t code = Base::code_in(cell_[r]);
        const uint64_t key =
            (((uint64_t{lk} >> kBlockBits) * k_ + me_) << kBlockBits) | (lk & kBlockMask);
        send[0].push_back(key | uint64_t{code} << 32 |
                          uint64_t{code == kUnknown ? kNoDist : dist_[r]} << 40);
      });
      ex_.all_to_all(send, recv, from);
      if (me_ != 0) continue;
      std::vector<uint64_t> at(from.begin(), from.end() - 1);
      for (uint64_t g = lb * k_; g < end * k_; ++g) {
        const uint32_t r = static_cast<uint32_t>(g % k_);
        for (; at[r] < from[r + 1] && ((recv[at[r]] & 0xffffffffu) >> kBlockBits) == g; ++at[r])
          f(static_cast<uint32_t>(recv[at[r]]), static_cast<uint8_t>((recv[at[r]] >> 32) & 3),
            static_cast<uint8_t>(recv[at[r]] >> 40));
      }
      for (uint32_t r = 0; r < k_; ++r)
        if (at[r] != from[r + 1]) throw std::logic_error("for_each_solved: a key out of order");
    }
  }

 private:
  // --- partition --------------------------------------------------------------

  uint32_t owner(uint32_t key) const { return (key >> kBlockBits) % k_; }
  uint32_t local(uint32_t key) const {
    return (((key >> kBlockBits) / k_) << kBlockBits) | (key & ((1u << kBlockBits) - 1));
  }
  uint64_t local_key_count() const {
    uint64_t blocks = (this->codec_.key_count() + (1u << kBlockBits) - 1) >> kBlockBits;
    return ((blocks + k_ - 1) / k_) << kBlockBits;
  }
  bool mine(uint32_t key) const { return owner(key) == me_; }

  /// This rank's answer to a query for a key (0 if it does not own it).
  uint64_t answer(uint32_t key) const {
    if (!mine(key) || !set_.contains(local(key))) return 0;
    uint32_t r = set_.rank(local(key));
    uint8_t code = Base::code_in(cell_[r]);
    return (uint64_t{1} << 16) | (uint64_t{dist_[r]} << 8) | code;
  }

  // --- failures and rounds ----------------------------------------------------

  /// Runs local work; if it failed on any rank, every rank throws the
  /// failure of the lowest failing rank. Collective.
  template <class F>
  void guarded(F&& f) {
    on_every_rank(ex_, std::forward<F>(f));
  }

  /// Exchanges the batches and clears them for the next round.
  void exchange(std::vector<std::vector<uint64_t>>& send, std::vector<uint64_t>& recv,
                std::vector<uint64_t>& from) {
    ex_.all_to_all(send, recv, from);
    for (auto& v : send) v.clear();
  }

  /// Start of a step: save if due or stopping; throw Interrupted on a stop.
  void step_boundary(RunControl& ctl) {
    std::vector<uint64_t> v{ctl.stop_requested() ? 1u : 0u,
                            me_ == 0 && ctl.checkpoint_due() ? 1u : 0u};
    ex_.max(v);
    if (!cfg_.checkpoint.empty() && (v[0] || v[1])) {
      save();
      ctl.checkpoint_written();
    }
    if (v[0])
      throw Interrupted(k_ == 1 ? "interrupted (the work is saved up to the last step)"
                                : "interrupted (every rank saved its part at the last step)");
  }

  /// Progress on rank 0's terminal: rates a rank, traffic, memory.
  void progress(RunControl& ctl, const std::string& what) {
    // One collective: the sums, then each rank's memory in its own slot.
    std::vector<uint64_t> v(3 + k_, 0);
    v[0] = handled_;
    v[1] = ex_.messages();
    v[2] = ex_.bytes_sent();
    v[3 + me_] = bytes();
    ex_.sum(v);
    ctl.work(1);
    if (me_ != 0) return;
    const uint64_t most = *std::max_element(v.begin() + 3, v.end());
    double t = std::max(ctl.elapsed(), 1e-3);
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.2f M/s a rank", static_cast<double>(v[0]) / k_ / t / 1e6);
    // The step, then the figures as a detail (the rate first: a narrow
    // terminal keeps it and drops the later ones).
    ctl.status("dense on " + std::to_string(k_) + (k_ == 1 ? " rank: " : " ranks: ") + what,
               std::string(rate) + ", " + with_commas(v[1]) + " messages, " +
                   with_commas(v[2] >> 20) + " MB sent, " + with_commas(most >> 20) + " MB a rank");
  }

  uint64_t bytes() const {
    uint64_t b = set_.bytes() + cell_.capacity() + dist_.capacity();
    for (const auto& v : buckets_) b += v.capacity() * 4;
    for (const auto& v : layers_) b += v.capacity() * 4;
    for (const auto& v : first_) b += v.capacity();
    for (const auto& v : dist_list_) b += v.capacity();
    return b;
  }

  // --- enumeration ------------------------------------------------------------

  int bucket_count() const { return kRetractable ? 4096 : this->codec_.cells() + 1; }
  int stones_of_key(uint32_t key) const {
    uint64_t b, w;
    Color m;
    this->codec_.decode(key, b, w, m);
    return std::popcount(b | w);
  }

  void enumerate(RunControl& ctl) {
    const int nb = bucket_count();
    if (buckets_.empty()) {
      buckets_.assign(nb, {});
      first_.assign(kRetractable ? nb : 0, {});
      dist_list_.assign(kRetractable ? nb : 0, {});
      const int b0 = kRetractable ? 0 : Base::stones_of(this->root_);
      if (mine(root_key_)) {
        set_.insert(local(root_key_));
        buckets_[b0].push_back(root_key_);
      }
      step_ = static_cast<uint32_t>(b0);
    }
    Scratch sc;
    std::vector<std::vector<uint64_t>> send(k_);
    std::vector<uint64_t> recv, from;
    for (int b = static_cast<int>(step_); b < nb; ++b) {
      step_ = static_cast<uint32_t>(b);
      step_boundary(ctl);
      if (kRetractable && ex_.sum(buckets_[b].size()) == 0) break;
      if (kRetractable && b + 1 >= nb)
        throw std::length_error("--method dense: more than 4095 plies from the root");
      size_t begin = 0;
      while (ex_.sum(buckets_[b].size() - begin) > 0) {
        const size_t end = std::min<size_t>(buckets_[b].size(), begin + cfg_.round);
        guarded([&] {
          for (size_t i = begin; i < end; ++i) expand(b, buckets_[b][i], sc, send);
          for (auto& v : send) {
            std::sort(v.begin(), v.end());
            v.erase(std::unique(v.begin(), v.end()), v.end());
          }
        });
        handled_ += end - begin;
        begin = end;
        exchange(send, recv, from);
        guarded([&] {
          for (uint64_t k : recv) {
            const uint32_t key = static_cast<uint32_t>(k);
            if (!mine(key)) throw std::logic_error("dense: a key sent to the wrong rank");
            if (!set_.insert(local(key))) continue;
            int dst = kRetractable ? b + 1 : stones_of_key(key);
            if (dst < b) throw std::logic_error("--method dense: a move took stones off the board");
            buckets_[dst].push_back(key);
          }
        });
        progress(ctl, "enumerating " + std::string(kRetractable ? "ply " : "stones ") +
                          std::to_string(b));
      }
    }
    set_.build_rank();
    cell_.assign(set_.size(), 0);
    dist_.assign(set_.size(), kNoDist);
  }

  /// Expands one owned position: its first byte and distance (counter
  /// method) and its stored children, batched for their owners.
  void expand(int b, uint32_t key, Scratch& sc, std::vector<std::vector<uint64_t>>& send) {
    this->children(this->decode(key), sc);
    for (const Child& k : sc.kids) {
      ++moves_;
      if (k.code != kUnknown) {
        ++ends_;
        continue;
      }
      const uint32_t o = owner(k.key);
      if (o == me_ && set_.contains(local(k.key))) continue;
      send[o].push_back(k.key);
    }
    if constexpr (kRetractable) {
      const auto [f, d] = Base::first_byte(sc.kids);
      first_[b].push_back(f);
      dist_list_[b].push_back(d);
    } else {
      (void)b;
    }
  }

  // --- counter retrograde -----------------------------------------------------

  void scatter_first() {
    layers_.assign(3, {});
    for (size_t b = 0; b < buckets_.size(); ++b) {
      for (size_t i = 0; i < buckets_[b].size(); ++i) {
        const uint32_t key = buckets_[b][i];
        const uint32_t r = set_.rank(local(key));
        cell_[r] = first_[b][i];
        if (Base::code_in(cell_[r]) != kUnknown) {
          uint8_t d = dist_list_[b][i];
          dist_[r] = d;
          if (d >= layers_.size()) layers_.resize(d + 1);
          layers_[d].push_back(key);
        }
      }
    }
    buckets_.clear();
    first_.clear();
    dist_list_.clear();
  }

  void solve_counters(RunControl& ctl) {
    Scratch sc;
    std::vector<std::vector<uint64_t>> send(k_);
    std::vector<uint64_t> recv, from;
    for (uint64_t d = step_;; ++d) {
      if (d >= ex_.max(live_layers())) break;
      if (d >= kNoDist - 1) throw std::length_error("--method dense: more than 253 plies");
      step_ = static_cast<uint32_t>(d);
      step_boundary(ctl);
      if (layers_.size() <= d + 1) layers_.resize(d + 2);
      const std::vector<uint32_t>& cur = layers_[d];
      if (!cur.empty()) max_dist_ = static_cast<uint32_t>(d);
      size_t begin = 0;
      while (ex_.sum(cur.size() - begin) > 0) {
        const size_t end = std::min<size_t>(cur.size(), begin + cfg_.round);
        guarded([&] {
          for (size_t i = begin; i < end; ++i) {
            const uint32_t key = cur[i];
            const uint64_t jcode = Base::code_in(cell_[set_.rank(local(key))]);
            this->parents(this->decode(key), sc);
            for (uint32_t pk : sc.ranks) {
              const uint32_t o = owner(pk);
              if (o == me_ && !set_.contains(local(pk))) continue;
              send[o].push_back(pk | jcode << 32);
            }
          }
        });
        handled_ += end - begin;
        begin = end;
        exchange(send, recv, from);
        guarded([&] {
          for (uint64_t m : recv) {
            const uint32_t key = static_cast<uint32_t>(m);
            if (!set_.contains(local(key))) continue;  // not reachable from the root
            if (update(set_.rank(local(key)), static_cast<uint8_t>(m >> 32), d))
              layers_[d + 1].push_back(key);
          }
        });
        progress(ctl, "layer " + std::to_string(d));
      }
      std::vector<uint32_t>().swap(layers_[d]);
    }
  }

  /// One past the last layer with positions (0 if none).
  uint64_t live_layers() const {
    for (size_t i = layers_.size(); i > 0; --i)
      if (!layers_[i - 1].empty()) return i;
    return 0;
  }

  /// A child of the position at rank r has value jcode for its mover and
  /// was decided at layer d: true if that decides the position.
  bool update(uint32_t r, uint8_t jcode, uint64_t d) {
    if (Base::code_in(cell_[r]) != kUnknown) return false;
    bool decided;
    cell_[r] = Base::counter_step(cell_[r], jcode, decided);
    if (decided) dist_[r] = static_cast<uint8_t>(d + 1);
    return decided;
  }

  // --- layered solve (no retrograde moves) -----------------------------------

  void solve_layers(RunControl& ctl) {
    Scratch sc;
    for (int b = static_cast<int>(step_); b >= 0; --b) {
      step_ = static_cast<uint32_t>(b);
      step_boundary(ctl);
      // Positions with a placement first (their successors have more
      // stones), then those that must pass (their successor has the same
      // stones and a placement, or is an end).
      std::vector<uint32_t> deferred;
      settle_all(buckets_[b], true, deferred, sc, ctl, b);
      std::vector<uint32_t> none;
      settle_all(deferred, false, none, sc, ctl, b);
      std::vector<uint32_t>().swap(buckets_[b]);
    }
  }

  /// Settles the listed owned positions from their successors' values
  /// (asked of their owners), in rounds; with `defer`, positions whose only
  /// move is a pass go to `deferred` instead.
  void settle_all(const std::vector<uint32_t>& list, bool defer, std::vector<uint32_t>& deferred,
                  Scratch& sc, RunControl& ctl, int b) {
    std::vector<std::vector<uint64_t>> send(k_), reply(k_);
    std::vector<uint64_t> recv, from, answers, afrom;
    struct Pending {
      uint32_t key;
      uint32_t first, count;  // its successors in vals
    };
    std::vector<Pending> pend;
    std::vector<std::pair<uint8_t, uint8_t>> vals;  // (code, dist) of each successor
    std::vector<std::vector<uint32_t>> slot(k_);    // where each query's answer goes
    size_t begin = 0;
    while (ex_.sum(list.size() - begin) > 0) {
      const size_t end = std::min<size_t>(list.size(), begin + cfg_.round);
      pend.clear();
      vals.clear();
      for (auto& v : slot) v.clear();
      guarded([&] {
        for (size_t i = begin; i < end; ++i) {
          this->children(this->decode(list[i]), sc);
          if (defer && sc.pass_only) {
            deferred.push_back(list[i]);
            continue;
          }
          Pending p{list[i], static_cast<uint32_t>(vals.size()),
                    static_cast<uint32_t>(sc.kids.size())};
          for (const Child& k : sc.kids) {
            if (k.code == kUnknown) {
              const uint32_t o = owner(k.key);
              slot[o].push_back(static_cast<uint32_t>(vals.size()));
              send[o].push_back(k.key);
            }
            vals.push_back({k.code, k.dist});
          }
          pend.push_back(p);
        }
      });
      handled_ += end - begin;
      begin = end;
      exchange(send, recv, from);
      guarded([&] {
        for (uint32_t src = 0; src < k_; ++src)
          for (uint64_t j = from[src]; j < from[src + 1]; ++j)
            reply[src].push_back(answer(static_cast<uint32_t>(recv[j])));
      });
      exchange(reply, answers, afrom);
      guarded([&] {
        for (uint32_t o = 0; o < k_; ++o) {
          if (afrom[o + 1] - afrom[o] != slot[o].size())
            throw std::logic_error("dense: answers do not match the questions");
          for (size_t j = 0; j < slot[o].size(); ++j) {
            const uint64_t a = answers[afrom[o] + j];
            const uint8_t code = static_cast<uint8_t>(a & 3);
            if (a == 0 || code == kUnknown)
              throw std::logic_error("--method dense: a successor is not solved yet");
            vals[slot[o][j]] = {code, static_cast<uint8_t>((a >> 8) & 0xff)};
          }
        }
        for (const Pending& p : pend) settle(p.key, &vals[p.first], p.count);
      });
      progress(ctl, "solving the positions of " + std::to_string(b) + " stones");
    }
  }

  void settle(uint32_t key, const std::pair<uint8_t, uint8_t>* v, uint32_t n) {
    if (n == 0) throw std::logic_error("a stored position has no move");
    Fold f;
    for (uint32_t i = 0; i < n; ++i) f.add(v[i].first, v[i].second);
    const uint32_t r = set_.rank(local(key));
    cell_[r] = static_cast<uint8_t>(f.code() << kCodeShift);
    dist_[r] = f.dist();
    max_dist_ = std::max<uint32_t>(max_dist_, dist_[r]);
  }

  // --- totals -----------------------------------------------------------------

  void finish_totals() {
    // The neutral value: the ends every rank saw must agree.
    Value::Kind seen = this->neutral_seen();
    std::vector<uint64_t> v{set_.size(), moves_, ends_, seen == Value::Kind::kDraw ? 1u : 0u,
                            seen == Value::Kind::kStall ? 1u : 0u};
    ex_.sum(v);
    tot_positions_ = v[0];
    tot_moves_ = v[1];
    tot_ends_ = v[2];
    if (v[3] && v[4]) throw InputError("--method dense: both drawn ends and stalls occur");
    neutral_ = v[3] ? Value::Kind::kDraw : v[4] ? Value::Kind::kStall : Value::Kind::kUnknown;
    tot_sweeps_ = static_cast<uint32_t>(ex_.max(max_dist_));
    constexpr uint32_t kStats = 5;
    std::vector<uint64_t> s(kStats * k_, 0);
    uint64_t* m = &s[kStats * me_];
    m[0] = set_.size();
    m[1] = handled_;
    m[2] = ex_.messages();
    m[3] = ex_.bytes_sent();
    m[4] = bytes();
    ex_.sum(s);
    ranks_.assign(k_, {});
    for (uint32_t r = 0; r < k_; ++r)
      ranks_[r] = {s[kStats * r], s[kStats * r + 1], s[kStats * r + 2], s[kStats * r + 3],
                   s[kStats * r + 4]};
  }

  // --- checkpoints ------------------------------------------------------------

  static constexpr const char* kKind = "dense-partitioned";
  static constexpr const char* kManifestKind = "dense-partitioned-manifest";

  std::string slot_path(uint32_t rank, uint64_t seq) const {
    // Beside the manifest: through a symbolic link, beside its target.
    return checkpoint_target(cfg_.checkpoint) + ".rank" + std::to_string(rank) +
           (seq % 2 ? ".a" : ".b");
  }
  std::string rank_signature() const {
    return cfg_.signature + "; ranks=" + std::to_string(k_) + "; rank=" + std::to_string(me_);
  }

  template <class T>
  static void write_lists(CheckpointWriter& w, const std::vector<std::vector<T>>& v) {
    w.u64(v.size());
    for (const auto& x : v) w.array(x);
  }
  template <class T>
  static void read_lists(CheckpointReader& rd, std::vector<std::vector<T>>& v, uint64_t max_keys) {
    v.assign(rd.u64(4096, "a list count"), {});
    for (auto& x : v) rd.array(x, max_keys);
  }

  void save() {
    guarded([&] {
      ++seq_;
      CheckpointWriter w(slot_path(me_, seq_), kKind, rank_signature());
      w.u64(seq_);
      w.u64(phase_);
      w.u64(step_);
      w.u64(max_dist_);
      w.u64(moves_);
      w.u64(ends_);
      w.u64(static_cast<uint64_t>(this->neutral_seen()));
      w.u64(set_.words());
      w.bytes(set_.data(), set_.words() * 8);
      write_lists(w, buckets_);
      write_lists(w, first_);
      write_lists(w, dist_list_);
      write_lists(w, layers_);
      w.array(cell_);
      w.array(dist_);
      w.commit();
    });
    ex_.sum(0);  // every rank's save is done before any rank goes on
    // The manifest, once every rank has a part: a run killed before this
    // point left no usable checkpoint and starts afresh.
    if (!manifest_written_) {
      guarded([&] {
        if (me_ != 0) return;
        CheckpointWriter w(cfg_.checkpoint, kManifestKind, cfg_.signature);
        w.u64(k_);
        w.commit();
      });
      manifest_written_ = true;
    }
  }

  /// The sequence number of a slot file, or 0 if it does not exist.
  uint64_t slot_seq(uint64_t parity) const {
    std::string p = slot_path(me_, parity);
    if (!CheckpointReader::exists(p)) return 0;
    CheckpointReader rd(p, kKind, rank_signature());
    return rd.u64();
  }

  void resume() {
    uint64_t have = 0;
    guarded([&] {
      if (!CheckpointReader::exists(cfg_.checkpoint)) {
        // No manifest: nothing usable was saved, and a part a run of this
        // job left before its manifest is written over. A part of another
        // job (or a damaged one) is refused here, not destroyed.
        // Both parts are read, so that one message names both when both
        // are refused (clearing them takes one run, not two).
        std::string refused, also;
        for (uint64_t parity : {1, 0}) {  // FILE.rank<r>.a, then .b
          if (!CheckpointReader::exists(slot_path(me_, parity))) continue;
          try {
            CheckpointReader(slot_path(me_, parity), kKind, rank_signature());
          } catch (const InputError& e) {
            if (refused.empty())
              refused = e.what();
            else
              also = slot_path(me_, parity);
          }
        }
        if (!refused.empty())
          throw InputError(also.empty() ? refused
                                        : refused + " (" + clip_token(also, 200) +
                                              " beside it is refused too)");
        return;
      }
      CheckpointReader m(cfg_.checkpoint, kManifestKind, cfg_.signature);
      uint64_t k = m.u64(1u << 20, "the number of ranks");
      m.finish();
      if (k != k_)
        throw InputError("--checkpoint " + cfg_.checkpoint + " was written by a run on " +
                         std::to_string(k) + (k == 1 ? " rank" : " ranks") +
                         "; resume it with mpirun -np " + std::to_string(k) + " (this run has " +
                         std::to_string(k_) + ")");
      have = 1;
    });
    manifest_written_ = ex_.max(have) != 0;
    if (!manifest_written_) return;
    uint64_t newest = 0;
    guarded([&] {
      newest = std::max(slot_seq(0), slot_seq(1));
      if (newest == 0)
        throw InputError("--checkpoint " + cfg_.checkpoint + ": the part of rank " +
                         std::to_string(me_) + " (" + slot_path(me_, 1) + ") is missing");
    });
    // The newest step every rank saved: max of the complement is the min.
    const uint64_t target = ~ex_.max(~newest);
    guarded([&] {
      if (slot_seq(target % 2) != target)
        throw InputError("--checkpoint " + cfg_.checkpoint + ": rank " + std::to_string(me_) +
                         " has no save of step " + std::to_string(target));
      CheckpointReader rd(slot_path(me_, target), kKind, rank_signature());
      seq_ = rd.u64();
      phase_ = static_cast<uint32_t>(rd.u64(2, "the phase"));
      step_ = static_cast<uint32_t>(rd.u64(4096, "the step"));
      max_dist_ = static_cast<uint32_t>(rd.u64(kNoDist, "a distance"));
      moves_ = rd.u64();
      ends_ = rd.u64();
      const auto seen = static_cast<Value::Kind>(rd.u64(255, "the neutral value"));
      if (seen != Value::Kind::kUnknown) this->neutral_seen_.store(seen);
      if (rd.u64() != set_.words()) rd.mismatch("its bitmap has another size");
      rd.bytes(set_.data(), set_.words() * 8);
      const uint64_t max_keys = set_.words() * 64;
      read_lists(rd, buckets_, max_keys);
      read_lists(rd, first_, max_keys);
      read_lists(rd, dist_list_, max_keys);
      read_lists(rd, layers_, max_keys);
      rd.array(cell_, max_keys);
      rd.array(dist_, max_keys);
      rd.finish();
      if (phase_ >= 1) {
        set_.build_rank();
        if (cell_.size() != set_.size() || dist_.size() != set_.size())
          rd.corrupt("its value arrays do not match its positions");
      }
    });
    resumed_ = true;
  }

  Config cfg_;
  Exchange& ex_;
  uint32_t k_, me_;
  DenseSet set_;
  uint32_t root_key_ = 0;
  uint32_t phase_ = 0, step_ = 0;  // 0 enumerate, 1 solve, 2 done; the step to start
  uint64_t seq_ = 0;
  std::vector<std::vector<uint32_t>> buckets_, layers_;
  std::vector<std::vector<uint8_t>> first_, dist_list_;
  std::vector<uint8_t> cell_, dist_;
  uint64_t moves_ = 0, ends_ = 0, handled_ = 0;
  uint32_t max_dist_ = 0;
  bool resumed_ = false, manifest_written_ = false;
  std::string save_error_;  // the final save's failure (save_error())
  uint64_t tot_positions_ = 0, tot_moves_ = 0, tot_ends_ = 0;
  uint32_t tot_sweeps_ = 0;
  Value::Kind neutral_ = Value::Kind::kUnknown;
  std::vector<RankStats> ranks_;
};

}  // namespace loom::solver
