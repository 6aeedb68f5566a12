// The ember_run command: the runner with the backends this build links.
#include "tools/ember_run.h"

int main(int argc, char** argv) { return ember::ember_run_main(argc, argv); }
