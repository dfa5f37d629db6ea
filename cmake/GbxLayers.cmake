# gbx's layers, bottom to top (docs/architecture.md). Each is a folder that builds one static library,
# gbx_<folder>, whose sources may include and link only the layers before it in this list. The
# top-level CMakeLists.txt adds them in this order, and the test layers.order (tests/style) reads this
# same list to fail on any include or link that runs up it.
#   stats        statistics: summaries, intervals, bootstrap, comparison, change points, queueing
#   record       the record file: strict parsing, schema, seal, atomic writes, the one reader
#   model        the plain data types of a run: protocol and flags, samples, observations, peaks
#   text         formatting and escaping for the console, HTML and Markdown
#   analysis     what a run's samples say (flags, throughput), Pareto, the comparison of two records
#   writer       the record built from runs and processes, and its one finisher
#   processes    child processes from the parent's side: spawn, isolate faults, progress, shards
#   extensions   the measurement: fixtures, timers, cache flushes, the load engine (Google Benchmark, CUDA)
#   environment  the machine: host, versions, GPUs, peaks, clocks and energy
#   kernels      gbx's own kernel families and their CPU twins
#   reporters    the Google Benchmark reporter, run patching and the console table
#   runner       a bench binary's runs inside one process: in-process, as a child, as a worker
#   main         a bench binary's entry point: main(), its flags, the choice of path, the --gbx_processes parent
#   report       the HTML and Markdown report
#   ab           gbx ab's engine: its designs, their paired analysis and both sides' records
#   cli          the gbx command-line tool (no Google Benchmark, no CUDA)
set(GBX_LAYERS stats record model text analysis writer processes extensions environment kernels reporters runner
               main report ab cli)
