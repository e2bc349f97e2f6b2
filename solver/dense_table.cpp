#include "solver/dense_table.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "solver/checkpoint.h"

namespace loom::solver {

namespace {

constexpr std::string_view kKind = "dense-table";
constexpr uint64_t kFormat = 2;  // 1 (2026-12-06): the position count and bytes too

void put_varint(std::vector<uint8_t>& out, uint32_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}

/// Reads a varint at p (below end); false if it overruns end or 32 bits.
bool get_varint(const uint8_t*& p, const uint8_t* end, uint32_t& v) {
  v = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    if (p == end) return false;
    const uint8_t b = *p++;
    if (shift == 28 && (b & 0x70)) return false;
    v |= static_cast<uint32_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

}  // namespace

void DenseTable::add(uint32_t key, uint8_t code, uint8_t plies) {
  if (n_ > 0 && key <= last_) throw std::logic_error("dense table: keys out of order");
  if (n_ % kBlock == 0) {
    first_.push_back(key);
    offset_.push_back(gaps_.size());
  } else {
    put_varint(gaps_, key - last_ - 1);
  }
  if (n_ % 4 == 0) values_.push_back(0);
  values_.back() |= static_cast<uint8_t>((code & 3) << (2 * (n_ % 4)));
  plies_.push_back(plies);
  last_ = key;
  ++n_;
}

void DenseTable::save(const std::string& path, std::string_view signature) const {
  CheckpointWriter w(path, kKind, signature, "table");
  w.u64(kFormat);
  w.str(root_record);
  w.u64(stats.moves);
  w.u64(stats.ends);
  w.u64(stats.layers);
  w.u64(static_cast<uint64_t>(neutral));
  w.u64(n_);
  w.array(first_);
  w.array(offset_);
  w.array(gaps_);
  w.array(values_);
  w.array(plies_);
  w.commit();
}

DenseTable::DenseTable(const std::string& path, std::string_view signature, uint64_t key_limit) {
  CheckpointReader rd(path, kKind, signature, "table");
  const uint64_t format = rd.u64();
  if (format != kFormat)
    rd.mismatch("it holds table format " + std::to_string(format) + "; this loom reads format " +
                std::to_string(kFormat));
  root_record = rd.str();
  stats.moves = rd.u64();
  stats.ends = rd.u64();
  stats.layers = rd.u64(254, "layer count");
  const uint64_t nk = rd.u64(static_cast<uint64_t>(Value::Kind::kStall), "neutral value");
  neutral = static_cast<Value::Kind>(nk);
  if (neutral != Value::Kind::kUnknown && neutral != Value::Kind::kDraw &&
      neutral != Value::Kind::kStall)
    rd.corrupt("bad neutral value");
  n_ = rd.u64(key_limit, "position count");
  const uint64_t blocks = (n_ + kBlock - 1) / kBlock;
  rd.array(first_, blocks);
  rd.array(offset_, blocks);
  rd.array(gaps_, n_ * 5);
  rd.array(values_, (n_ + 3) / 4);
  rd.array(plies_, n_);
  rd.finish();
  if (first_.size() != blocks || offset_.size() != blocks || values_.size() != (n_ + 3) / 4 ||
      plies_.size() != n_)
    rd.corrupt("the arrays do not fit the position count");
  // Every key decoded once: increasing, below the limit, each block's gaps
  // where its offset says, the gaps used up exactly.
  const uint8_t* p = gaps_.data();
  const uint8_t* const end = p + gaps_.size();
  uint64_t prev = 0;
  for (uint64_t b = 0; b < blocks; ++b) {
    if (offset_[b] != static_cast<uint64_t>(p - gaps_.data()))
      rd.corrupt("a block offset is wrong");
    uint64_t key = first_[b];
    if ((b > 0 && key <= prev) || key >= key_limit) rd.corrupt("the keys are not in order");
    const uint64_t in_block = std::min<uint64_t>(kBlock, n_ - b * kBlock);
    for (uint64_t i = 1; i < in_block; ++i) {
      uint32_t gap;
      if (!get_varint(p, end, gap)) rd.corrupt("a key overruns its block");
      key += uint64_t{gap} + 1;
      if (key >= key_limit) rd.corrupt("a key is out of range");
    }
    prev = key;
  }
  if (p != end) rd.corrupt("key data is left over");
  if (n_ % 4 != 0 && (values_.back() >> (2 * (n_ % 4))) != 0) rd.corrupt("stray value bits");
  bool neutral_seen = false;
  for (uint64_t i = 0; i < n_; ++i) {
    const uint8_t c = code(i), d = plies_[i];
    // A draw has no plies; a decided position was not an end (ends are not
    // stored), so at least one ply, at most the layers.
    if (c == kDraw ? d != kNoPlies : d == 0 || d > stats.layers) rd.corrupt("bad plies");
    neutral_seen |= c == kNeutral;
  }
  if (neutral_seen && neutral == Value::Kind::kUnknown)
    rd.corrupt("a neutral value without its kind");
  last_ = static_cast<uint32_t>(prev);
}

std::string DenseTable::solved_from(std::string_view record) {
  return record.empty() ? std::string("the start")
                        : "the position after \"" + clip_token(record, 80) + "\"";
}

std::string DenseTable::why_not_replace(const std::string& path, std::string_view signature,
                                        std::string_view root_record) {
  const std::string target = checkpoint_target(path);
  std::error_code ec;
  if (!std::filesystem::exists(target, ec)) return "";
  if (std::filesystem::is_regular_file(target, ec) && std::filesystem::file_size(target, ec) == 0 &&
      !ec)
    return "";  // a name made beforehand (mktemp): nothing in it to lose
  try {
    CheckpointReader rd(target, kKind, signature, "table");
    // This job's table in another format (another loom's): written anew.
    if (rd.u64() != kFormat) return "";
    const std::string theirs = rd.str();
    if (theirs != root_record)
      return "table " + clip_token(path, 200) + " holds this game's table solved from " +
             solved_from(theirs) + ", not from " + solved_from(root_record) +
             (theirs.empty() ? " (answer this position from it with --table)" : "");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

int64_t DenseTable::find(uint32_t key) const {
  if (n_ == 0) return -1;
  const auto it = std::upper_bound(first_.begin(), first_.end(), key);
  if (it == first_.begin()) return -1;
  const uint64_t b = static_cast<uint64_t>(it - first_.begin()) - 1;
  uint64_t k = first_[b];
  uint64_t i = b * kBlock;
  const uint64_t stop = std::min<uint64_t>(n_, i + kBlock);
  const uint8_t* p = gaps_.data() + offset_[b];
  const uint8_t* const end = gaps_.data() + gaps_.size();
  while (k < key && ++i < stop) {
    uint32_t gap;
    if (!get_varint(p, end, gap)) return -1;  // checked when read: not reached
    k += uint64_t{gap} + 1;
  }
  return k == key && i < stop ? static_cast<int64_t>(i) : -1;
}

uint32_t DenseTable::block_keys(uint64_t b, uint32_t* out) const {
  const auto count = static_cast<uint32_t>(std::min<uint64_t>(kBlock, n_ - b * kBlock));
  const uint8_t* p = gaps_.data() + offset_[b];
  const uint8_t* const end = gaps_.data() + gaps_.size();
  out[0] = first_[b];
  for (uint32_t i = 1; i < count; ++i) {
    uint32_t gap = 0;
    get_varint(p, end, gap);  // checked when read
    out[i] = out[i - 1] + gap + 1;
  }
  return count;
}

}  // namespace loom::solver
