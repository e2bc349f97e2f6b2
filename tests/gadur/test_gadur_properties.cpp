// The shared conformance properties (properties/conformance) run on Gadur,
// plus Gadur's own bookkeeping: a placement adds one stone for the mover and
// removes 0 or |G| enemy stones.
#include <catch2/catch.hpp>

#include "properties/conformance/conformance.h"
#include "tests/gadur/gadur_fixture.h"

using namespace loom;

namespace {

template <int W>
std::string bookkeeping(const gadur::State<W>& before, const typename gadur::State<W>::Move& m,
                        const gadur::State<W>& after) {
  Color me = before.to_move(), them = other(me);
  if (after.to_move() != them) return "side to move did not change";
  if (after.stones(me).count() != before.stones(me).count() + 1)
    return "mover did not gain one stone";
  if (!after.stones(me).test(m.site)) return "placed stone missing";
  int removed = before.stones(them).count() - after.stones(them).count();
  int g = before.analyse(m.site).group.count();
  if (removed != 0 && removed != g) return "captured count is neither 0 nor |G|";
  if (after.stones(them).andnot(before.stones(them)).any()) return "enemy stones appeared";
  return "";
}

template <int W>
void run_conformance(int side, gadur::Options opt, conformance::Options copt) {
  auto board = std::make_shared<testing::GadurBoard<W>>(side, opt);
  std::function<gadur::State<W>()> start = [board] { return board->start(); };
  conformance::run_all<gadur::State<W>>(start, copt, &bookkeeping<W>);
}

}  // namespace

TEST_CASE("gadur conformance, side 4", "[gadur][conformance]") {
  run_conformance<1>(4, {}, {});
}

// One test case per rule set: Catch tells sections apart by name, so a second
// run_all in the same test case would silently not run.
TEST_CASE("gadur conformance, side 3, exception=subset", "[gadur][conformance]") {
  run_conformance<1>(3, gadur::Options{.subset = true, .merge_only = false}, {});
}

TEST_CASE("gadur conformance, side 3, capture=merge-only", "[gadur][conformance]") {
  run_conformance<1>(3, gadur::Options{.subset = false, .merge_only = true}, {});
}

TEST_CASE("gadur conformance, side 7 (three-word bitboards)", "[gadur][conformance]") {
  conformance::Options o;
  o.max_prefix = 80;
  run_conformance<3>(7, {}, o);
}

TEST_CASE("gadur conformance, side 13 (ten-word bitboards)", "[gadur][conformance]") {
  conformance::Options o;
  o.max_prefix = 60;
  run_conformance<10>(13, {}, o);
}
