#include "main/driver.h"

int main(int argc, char** argv) { return gbx::run_main(argc, argv); }
