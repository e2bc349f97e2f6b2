// Enfargar is not implemented yet (its issue is open): the command line answers
// with a clear "not yet available" error. Replace this file when it lands.
#include "app/registry.h"

namespace loom {

GameInfo enfargar_info() {
  GameInfo g;
  g.name = "enfargar";
  g.title = "Enfargar (not yet available)";
  g.available = false;
  return g;
}

}  // namespace loom
