// main() of a program linked with gbx::main (gbx_main in gbx's tree). It is compiled inside that
// program's own target, not kept in a library, so that a second main() cannot silently win: a file
// that ends with BENCHMARK_MAIN(), or has a main() of its own, stops the link with "multiple
// definition of `main'" naming this file.
//
// To keep your own main(): link gbx::gbx instead of gbx::main, and end your main() with
//   return gbx::run_main(argc, argv);   // declared in <gbx/gbx.h>
// (docs/adding-a-kernel.md, "Your own main()"). To run plain Google Benchmark, link benchmark::benchmark_main
// and not gbx.

namespace gbx {
int run_main(int argc, char** argv);  // <gbx/gbx.h>; repeated here so that main() parses no header
}

int main(int argc, char** argv) { return gbx::run_main(argc, argv); }  // see the comment above
