// ember_run as a function, so that a runner with extra backends registered
// (the test backend's, an application's) is one main() away.
#pragma once

namespace ember {

// Parses the command line of `ember_run` and runs the program; returns the
// process exit status. Backends must be registered before the call.
int ember_run_main(int argc, char** argv);

}  // namespace ember
