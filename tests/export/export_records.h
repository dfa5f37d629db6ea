#pragma once

// The record the export tests and docs/dashboards.md's recipes export (export_record.cc writes it).
// Every case a dashboard can get wrong is in it, each named for what it checks:
// - a CPU GEMM with declared FLOP and bytes and RAPL energy with its interval: every metric;
// - a device reduction over 4 processes with its process-level estimate (gbx.stats.hierarchical),
//   GPU energy and axes (gbx.axes), one of which (block) its name does not carry: the process-level
//   latency, and that axis added to the name;
// - a variant without accuracy, memory, throughput or energy: those metrics absent, never 0;
// - a failed benchmark (error_occurred), an old record's skipped entry (gbx.skipped) and two gbx.not_run
//   benchmarks: none exported;
// - a plain Google Benchmark benchmark (gbx.harness "google_benchmark", timed on CPU time as
//   Google Benchmark's default is) with items_per_second, a user counter and a counter that was not
//   finite (null): an item rate, never a FLOP rate, the counter, and nothing for the null one;
// - a user counter on the reduction too, and gbx's own counters (samples, batch, items_per_second) on
//   the GEMM, which are not user counters.

#include "tests/report/records.h"

namespace export_test {

using report_test::json;

inline json hierarchical(double median, double lower, double upper, std::size_t processes) {
  return {{"processes", processes},
          {"samples_per_process", json::array()},
          {"median", median},
          {"lower", lower},
          {"upper", upper},
          {"level", 0.95},
          {"method", "log-t-process-medians"},
          {"single_process", false}};
}

// The record, sealed.
inline json export_record() {
  using report_test::entry;
  using report_test::samples_around;
  std::vector<report_test::Entry> entries;
  entries.push_back(entry("gemm/openblas_sgemm/m:1024/n:1024/k:1024/iterations:1/manual_time",
                          "gemm/m=1024,n=1024,k=1024", "openblas_sgemm", samples_around(2e-3, 40)));
  entries.back().gflops = 1073.7;
  entries.back().gbytes = 6.3;
  entries.push_back(entry("reduce/cuda_pairwise/n:4096/iterations:1/manual_time", "reduce/n=4096", "cuda_pairwise",
                          samples_around(5e-6, 40)));
  entries.back().processes = 4;
  entries.push_back(entry("gemm/cpu_naive/m:1024/n:1024/k:1024/iterations:1/manual_time", "gemm/m=1024,n=1024,k=1024",
                          "cpu_naive", samples_around(0.2, 20)));
  entries.back().error = std::nullopt;
  entries.back().memory = std::nullopt;
  entries.push_back(entry("gemm/failed/m:1024/n:1024/k:1024/iterations:1/manual_time", "gemm/m=1024,n=1024,k=1024",
                          "failed", samples_around(1e-3, 20)));
  entries.push_back(entry("BM_items/1024", "BM_items/1024", "", samples_around(2e-6, 30)));
  entries.back().error = std::nullopt;
  entries.back().memory = std::nullopt;

  json record = report_test::gbx_record(entries, "export", "2026-12-01T10:00:00Z");
  json& gemm = record["benchmarks"][0];
  gemm["gbx"]["declared"] = {{"flops_per_run", 2.0 * 1024 * 1024 * 1024}, {"bytes_per_run", 12.0 * 1024 * 1024}};
  gemm["gbx"]["energy"] = {{"cpu", {{"source", "rapl"}, {"joules_per_run", 0.031}, {"lower", 0.029}, {"upper", 0.034}}},
                           {"gpu", nullptr}};
  json& reduce = record["benchmarks"][1];
  reduce["gbx"]["region"] = "device";
  reduce["gbx"]["memory"] = {{"host_peak_bytes", nullptr}, {"device_peak_bytes", 65536}};
  reduce["gbx"]["stats"]["hierarchical"] = hierarchical(5.1e-6, 4.9e-6, 5.4e-6, 4);
  reduce["gbx"]["energy"] = {{"gpu", {{"source", "nvml"}, {"joules_per_run", 2.5e-4}}}, {"cpu", nullptr}};
  reduce["gbx"]["axes"] = {{"n", 4096}, {"block", 256}};
  reduce["gbx"]["declared"] = {{"bytes_per_run", 4096.0 * 4}};
  gemm["samples"] = 40;
  gemm["batch"] = 1;
  gemm["items_per_second"] = 2.0 * 1024 * 1024 * 1024 / 2e-3;  // gbx's FLOP/s, not a user counter
  reduce["blocks"] = 16;
  json& plain = record["benchmarks"][4];
  plain["gbx"]["harness"] = "google_benchmark";
  plain["gbx"]["region"] = "end_to_end";
  plain["gbx"].erase("precision");
  plain["gbx"]["axes"] = {{"arg0", 1024}};
  plain["gbx"]["declared"] = {{"bytes_per_run", 0.0}, {"flops_per_run", 0.0}};
  plain["cpu_time"] = 1.5;                      // us: Google Benchmark divided its rates by this
  plain["items_per_second"] = 1024.0 / 1.5e-6;  // 1024 items per iteration
  plain["elements"] = 2048;                     // a user counter
  plain["broken"] = nullptr;                    // a counter that was not finite
  plain["samples"] = 30;
  plain["batch"] = 1000;
  json& failed = record["benchmarks"][3];
  failed["error_occurred"] = true;
  failed["error_message"] = "process 2 died: SIGSEGV";
  failed["gbx"]["samples"] = json::array();
  failed["gbx"].erase("stats");
  record["gbx"]["environment"]["gpus"] = json::array({{{"index", 0}, {"name", "NVIDIA H200"}}});
  record["gbx"]["environment"]["host"]["physical_cores"] = 4;
  record["gbx"]["environment"]["host"]["memory_total_bytes"] = 34359738368.0;
  record["gbx"]["environment"]["host"]["machine"] = "x86_64";
  record["gbx"].erase("checksum");
  record = report_test::with_not_run(
      record, {{"gemm/cublas_sgemm/m:1024/n:1024/k:1024/iterations:1/manual_time", "gemm/m=1024,n=1024,k=1024",
                "cublas_sgemm", "no CUDA device", "no_cuda_device"},
               {"reduce/cuda_naive/n:4096/iterations:1/manual_time", "reduce/n=4096", "cuda_naive", "no CUDA device",
                "no_cuda_device"}});
  record = report_test::with_skipped_entry(record, {"reduce/cuda_old/n:4096/iterations:1/manual_time", "reduce/n=4096",
                                                    "cuda_old", "no CUDA device", "no_cuda_device"});
  return record;
}

}  // namespace export_test
