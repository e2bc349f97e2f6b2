// Exhaustive property checks (termination, drawless): not implemented yet
// (issue 7). Replace this file when the solver lands.
#include "app/registry.h"
#include "app/verify.h"
#include "model/common/errors.h"

namespace loom {

void run_property_check(const VerifyArgs& args, std::ostream&, std::ostream&) {
  find_game(args.game);
  throw InputError("verify --property is not yet available in this build");
}

}  // namespace loom
