// Benchmarks that cannot run here (no CUDA device): why, in plain words, and where the record and
// the console put them (never among Google Benchmark's entries, which dashboards import as results).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "extensions/cuda_unavailable.h"
#include "model/protocol.h"
#include "reporters/console_table.h"
#include "reporters/gbx_reporter.h"
#include "tests/support/reporter_run.h"
#include "writer/json_record.h"

namespace {

gbx::CudaProbe probe(const std::string& status, int driver = 0, bool pci = false) {
  gbx::CudaProbe p;
  p.status_name = status;
  p.status_description = "the runtime's description";
  p.driver_version = driver;
  p.runtime_version = 13000;
  p.nvidia_pci_device = pci;
  return p;
}

TEST(CudaUnavailable, AMachineWithoutGpuOrDriverHasNoCudaDevice) {
  // What the runtime answers on this project's CPU machines: "insufficient driver", though none is there.
  const auto reason = gbx::classify_cuda_probe(probe("cudaErrorInsufficientDriver", 0, false));
  EXPECT_EQ(reason.code, "no_cuda_device");
  EXPECT_EQ(reason.text.rfind("no CUDA device (", 0), 0u) << reason.text;
  EXPECT_NE(reason.text.find("cudaErrorInsufficientDriver"), std::string::npos) << reason.text;
}

TEST(CudaUnavailable, AGpuWithoutDriverIsAMissingDriver) {
  const auto reason = gbx::classify_cuda_probe(probe("cudaErrorInsufficientDriver", 0, true));
  EXPECT_EQ(reason.code, "cuda_driver_missing");
  EXPECT_NE(reason.text.find("driver is not installed"), std::string::npos) << reason.text;
}

TEST(CudaUnavailable, AnOldDriverNamesBothVersions) {
  const auto reason = gbx::classify_cuda_probe(probe("cudaErrorInsufficientDriver", 12020, true));
  EXPECT_EQ(reason.code, "cuda_driver_too_old");
  EXPECT_NE(reason.text.find("supports CUDA 12.2, older than the CUDA runtime 13.0"), std::string::npos) << reason.text;
}

TEST(CudaUnavailable, EachRuntimeStatusHasItsCode) {
  EXPECT_EQ(gbx::classify_cuda_probe(probe("cudaErrorNoDevice")).code, "no_cuda_device");
  EXPECT_EQ(gbx::classify_cuda_probe(probe("cudaErrorStubLibrary")).code, "cuda_stub_library");
  EXPECT_EQ(gbx::classify_cuda_probe(probe("cudaErrorSystemDriverMismatch")).code, "cuda_driver_mismatch");
  EXPECT_EQ(gbx::classify_cuda_probe(probe("cudaErrorDevicesUnavailable")).code, "cuda_devices_busy");
  const auto other = gbx::classify_cuda_probe(probe("cudaErrorUnknown"));
  EXPECT_EQ(other.code, "cuda_error");
  EXPECT_NE(other.text.find("cudaErrorUnknown: the runtime's description"), std::string::npos) << other.text;
  gbx::CudaProbe none = probe("cudaSuccess");
  EXPECT_EQ(gbx::classify_cuda_probe(none).code, "no_cuda_device");
  none.device_count = 1;
  EXPECT_EQ(gbx::classify_cuda_probe(none).code, "") << "a usable device: nothing to report";
  EXPECT_EQ(gbx::cuda_version_text(12080), "12.8");
}

TEST(CudaUnavailable, ANvidiaDisplayControllerOnThePciBusIsFound) {
  const auto root = std::filesystem::path(testing::TempDir()) / "gbx_fake_pci";
  std::filesystem::remove_all(root);
  const auto device = [&root](const std::string& name, const std::string& vendor, const std::string& cls) {
    std::filesystem::create_directories(root / name);
    std::ofstream(root / name / "vendor") << vendor << "\n";
    std::ofstream(root / name / "class") << cls << "\n";
  };
  device("0000:00:1f.0", "0x8086", "0x060100");  // an Intel bridge
  device("0000:01:00.1", "0x10de", "0x040300");  // an NVIDIA GPU's audio function: not a GPU
  EXPECT_FALSE(gbx::nvidia_pci_device_present(root.string()));
  device("0000:01:00.0", "0x10de", "0x030200");  // an NVIDIA 3D controller (H100, H200)
  EXPECT_TRUE(gbx::nvidia_pci_device_present(root.string()));
  EXPECT_FALSE(gbx::nvidia_pci_device_present((root / "absent").string()));
  std::filesystem::remove_all(root);
}

TEST(NotRun, ProblemsAreNamedWithTheArgumentNames) {
  EXPECT_EQ(gbx::problem_with_arg_names("reduce", "n:4096"), "reduce/n=4096");
  EXPECT_EQ(gbx::problem_with_arg_names("gemm", "m:256/n:64/k:256"), "gemm/m=256,n=64,k=256");
  EXPECT_EQ(gbx::problem_with_arg_names("gemm", ""), "gemm");
  EXPECT_EQ(gbx::problem_with_arg_names("reduce", "4096"), "") << "unnamed arguments: keep the fixture's name";
}

gbx::detail::RunRecord skipped_record(const std::string& variant) {
  gbx::detail::RunRecord r;
  r.benchmark = "reduce/" + variant;
  r.problem = "reduce/n=4096";
  r.variant = variant;
  r.region = "device";
  r.skipped = true;
  r.skip_code = "no_cuda_device";
  r.error = "skipped: no CUDA device (the CUDA runtime said cudaErrorNoDevice)";
  return r;
}

std::string gb_json(const std::vector<std::string>& names) {
  nlohmann::json benchmarks = nlohmann::json::array();
  for (const auto& name : names) {
    benchmarks.push_back({{"name", name}, {"run_name", name}, {"run_type", "iteration"}, {"real_time", 0.0}});
  }
  return nlohmann::json{{"context", nlohmann::json::object()}, {"benchmarks", benchmarks}}.dump();
}

TEST(NotRun, TheRecordListsThemOutsideGoogleBenchmarksEntries) {
  gbx::detail::RunRecord measured = skipped_record("naive");
  measured.skipped = false;
  measured.skip_code.clear();
  measured.error = "kernel failed";  // a failure stays an entry: it is a result, a bad one
  const std::vector<std::optional<gbx::detail::RunRecord>> entries = {skipped_record("cub"), measured,
                                                                      skipped_record("cub")};
  gbx::RecordHeader header;
  const nlohmann::json record =
      gbx::build_record(gb_json({"reduce/cub/n:4096", "reduce/naive/n:4096", "reduce/cub/n:4096"}), entries, header);
  ASSERT_EQ(record["benchmarks"].size(), 1u) << record.dump(1);
  EXPECT_EQ(record["benchmarks"][0]["name"], "reduce/naive/n:4096");
  const nlohmann::json& not_run = record["gbx"]["not_run"];
  ASSERT_EQ(not_run.size(), 1u) << "a repeated skip is listed once: " << not_run.dump(1);
  EXPECT_EQ(not_run[0], (nlohmann::json{{"name", "reduce/cub/n:4096"},
                                        {"family", "reduce"},
                                        {"problem", "reduce/n=4096"},
                                        {"variant", "cub"},
                                        {"reason", "no CUDA device (the CUDA runtime said cudaErrorNoDevice)"},
                                        {"reason_code", "no_cuda_device"}}));
}

TEST(NotRun, ARecordWithEveryBenchmarkRunHasNoNotRunKey) {
  gbx::detail::RunRecord measured = skipped_record("naive");
  measured.skipped = false;
  measured.error = "failed";
  gbx::RecordHeader header;
  const nlohmann::json record = gbx::build_record(gb_json({"reduce/naive/n:4096"}), {measured}, header);
  EXPECT_FALSE(record["gbx"].contains("not_run"));
}

TEST(NotRun, TheConsoleCountsThemOnOneLineOrListsThem) {
  for (const bool list : {false, true}) {
    std::ostringstream out;
    gbx::ConsoleTable table(out, gbx::detail::Protocol{}, "run");
    table.set_list_not_run(list);
    for (const std::string variant : {"cub", "cuda_atomic"}) {
      gbx_test::GbRun run;
      run.run_name.function_name = "reduce/" + variant;
      run.run_name.args = "n:4096";
      run.iterations = 1;
      run.repetitions = 1;
      const gbx::detail::RunRecord r = skipped_record(variant);
      gbx_test::set_run_error(run, r.error);
      table.print_row(run, r, std::nullopt);
    }
    table.print_footer();
    const std::string line = "2 CUDA benchmarks not run: no CUDA device (the CUDA runtime said cudaErrorNoDevice)";
    EXPECT_NE(out.str().find(line + (list ? ":\n" : "; --gbx_list_not_run lists them\n")), std::string::npos)
        << out.str();
    EXPECT_EQ(out.str().find("  reduce/cub/n:4096\n  reduce/cuda_atomic/n:4096\n") != std::string::npos, list)
        << out.str();
    EXPECT_EQ(out.str().find("\nreduce/cub"), std::string::npos) << "no row in the table: " << out.str();
  }
}

TEST(NotRun, TheListFlagIsASwitch) {
  EXPECT_FALSE(gbx::detail::parse_command_line({}).list_not_run);
  EXPECT_TRUE(gbx::detail::parse_command_line({"--gbx_list_not_run"}).list_not_run);
  EXPECT_FALSE(gbx::detail::parse_command_line({"--gbx_list_not_run=false"}).list_not_run);
  EXPECT_THROW(gbx::detail::parse_command_line({"--gbx_list_not_run=yes"}), gbx::detail::FlagError);
}

}  // namespace
