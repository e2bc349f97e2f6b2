#include "model/common/game.h"

namespace loom {

const char* outcome_name(Outcome::Kind k) {
  switch (k) {
    case Outcome::Kind::kOngoing:
      return "ongoing";
    case Outcome::Kind::kBlackWins:
      return "black";
    case Outcome::Kind::kWhiteWins:
      return "white";
    case Outcome::Kind::kDraw:
      return "draw";
    case Outcome::Kind::kUnresolved:
      return "unresolved";
  }
  return "?";
}

}  // namespace loom
