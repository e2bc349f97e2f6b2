#include "solver/value.h"

namespace loom::solver {

std::string margin_text(int32_t m2) {
  std::string sign = m2 < 0 ? "-" : "";
  int32_t a = m2 < 0 ? -m2 : m2;
  return sign + std::to_string(a / 2) + (a % 2 ? ".5" : "");
}

std::string Value::text() const {
  switch (kind) {
    case Kind::kUnknown:
      return "unknown";
    case Kind::kBlack:
      return "black";
    case Kind::kWhite:
      return "white";
    case Kind::kDraw:
      return "draw";
    case Kind::kStall:
      return "stall";
    case Kind::kMargin:
      return margin_text(margin2);
  }
  return "?";
}

Value::Kind Value::winner() const {
  if (kind == Kind::kMargin)
    return margin2 > 0 ? Kind::kBlack : margin2 < 0 ? Kind::kWhite : Kind::kDraw;
  if (kind == Kind::kBlack || kind == Kind::kWhite) return kind;
  return kind == Kind::kUnknown ? Kind::kUnknown : Kind::kDraw;
}

}  // namespace loom::solver
