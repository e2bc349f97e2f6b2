// Z3 queries: not implemented yet (issue 8). Replace this file when the
// specifications land.
#include "app/registry.h"
#include "app/verify.h"
#include "model/common/errors.h"

namespace loom {

void run_query(const VerifyArgs& args, std::ostream&, std::ostream&) {
  find_game(args.game);
  throw InputError("verify --query is not yet available in this build");
}

void list_queries(const VerifyArgs&, std::ostream&) {
  throw InputError("verify --list-queries is not yet available in this build");
}

}  // namespace loom
