// Whether the machine is a guest, and the kernel settings that change timings: from stand-in /proc and
// /sys trees and from hand-written facts.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "environment/kernel_settings.h"
#include "environment/virtualization.h"
#include "tests/support/fake_tree.h"

namespace gbx {
namespace {

using Json = nlohmann::json;

// A real /proc/cmdline of a PVM guest under Firecracker, init's part cut short.
const char* const kPvmCommandLine =
    "mitigations=auto,no_guest_host,no_guest_guest console=ttyS0 quiet reboot=k panic=1 nomodule "
    "random.trust_cpu=1 swiotlb=noforce psi=1 clocksource=kvm-clock pti=on no_timer_check tsc=reliable "
    "pvm_no_zero_page=1 tsc=unstable sched_vcpu_pack=15 rdinit=/process_api -- --firecracker-init --addr "
    "0.0.0.0:2024 --auth-required isolcpus=1";

TEST(TimingKernelParameters, KeepsTheOnesThatChangeTimingsInOrderAndStopsAtInitsArguments) {
  const std::vector<std::string> expected = {"mitigations=auto,no_guest_host,no_guest_guest",
                                             "clocksource=kvm-clock",
                                             "pti=on",
                                             "tsc=reliable",
                                             "pvm_no_zero_page=1",
                                             "tsc=unstable",
                                             "sched_vcpu_pack=15"};
  EXPECT_EQ(timing_kernel_parameters(kPvmCommandLine), expected);
  EXPECT_EQ(timing_kernel_parameters("BOOT_IMAGE=/vmlinuz root=UUID=1 ro isolcpus=2-3 nohz_full=2-3 nosmt"),
            (std::vector<std::string>{"isolcpus=2-3", "nohz_full=2-3", "nosmt"}));
  EXPECT_TRUE(timing_kernel_parameters("").empty());
}

TEST(KernelSettings, ReadsTheCommandLineTheClockAndHugePagesFromTheTrees) {
  gbx_test::FakeTree tree;
  tree.write("proc/cmdline", kPvmCommandLine);
  tree.write("sys/devices/system/clocksource/clocksource0/current_clocksource", "kvm-clock");
  tree.write("sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never");
  const Json settings = kernel_settings_json(tree.root() + "/proc", tree.root() + "/sys");
  EXPECT_EQ(settings["kernel_parameters"].size(), 7u);
  EXPECT_EQ(settings["kernel_parameters"][4], "pvm_no_zero_page=1");
  EXPECT_EQ(settings["clocksource"], "kvm-clock");
  EXPECT_EQ(settings["transparent_hugepage"], "madvise");
}

TEST(KernelSettings, WhatCannotBeReadIsNullWithTheFileAndTheFault) {
  gbx_test::FakeTree tree;
  tree.write("sys/kernel/mm/transparent_hugepage/enabled", "madvise");
  const Json settings = kernel_settings_json(tree.root() + "/proc", tree.root() + "/sys");
  EXPECT_TRUE(settings["kernel_parameters"].is_null());
  EXPECT_NE(settings["kernel_parameters_unavailable"].get<std::string>().find("proc/cmdline"), std::string::npos);
  EXPECT_TRUE(settings["clocksource"].is_null());
  EXPECT_NE(settings["clocksource_unavailable"].get<std::string>().find("current_clocksource"), std::string::npos);
  EXPECT_TRUE(settings["transparent_hugepage"].is_null());
  EXPECT_NE(settings["transparent_hugepage_unavailable"].get<std::string>().find("no [choice] in \"madvise\""),
            std::string::npos);
}

TEST(Virtualization, AGuestIsSeenInTheFlagsAndInDmi) {
  gbx_test::FakeTree tree;
  tree.write("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu sse2 avx2 hypervisor lahf_lm\n");
  tree.write("sys/class/dmi/id/sys_vendor", "QEMU");
  tree.write("sys/class/dmi/id/product_name", "Standard PC (Q35 + ICH9, 2009)");
  const VirtualizationFacts facts = read_virtualization_facts(tree.root() + "/proc", tree.root() + "/sys");
  ASSERT_TRUE(facts.cpu_flags);
  EXPECT_EQ(*facts.cpu_flags, "fpu sse2 avx2 hypervisor lahf_lm");
  EXPECT_EQ(facts.dmi_vendor, "QEMU");
  EXPECT_FALSE(facts.sys_hypervisor_type);
  EXPECT_NE(facts.unknown.at("sys_hypervisor_type").find("hypervisor/type"), std::string::npos);

  VirtualizationFacts without_cpuid = facts;
  without_cpuid.cpuid_hypervisor.reset();
  const Json out = virtualization_json(without_cpuid);
  EXPECT_EQ(out["guest"], true);
  EXPECT_EQ(out["evidence"], Json({"/proc/cpuinfo flags: hypervisor", "DMI: QEMU Standard PC (Q35 + ICH9, 2009)"}));
  EXPECT_EQ(out["dmi_product"], "Standard PC (Q35 + ICH9, 2009)");
  EXPECT_TRUE(out["sys_hypervisor_type"].is_null());
  EXPECT_FALSE(out["sys_hypervisor_type_unavailable"].get<std::string>().empty());
}

TEST(Virtualization, BareMetalX86IsNotAGuest) {
  VirtualizationFacts facts;
  facts.cpu_flags = "fpu sse2 avx2 avx512f";
  facts.dmi_vendor = "Dell Inc.";
  facts.dmi_product = "PowerEdge R750";
  facts.unknown["cpuid_hypervisor"] = "cpuid's hypervisor bit is clear";
  const Json out = virtualization_json(facts);
  EXPECT_EQ(out["guest"], false);
  EXPECT_TRUE(out["evidence"].empty());
  EXPECT_EQ(out["cpuid_hypervisor_unavailable"], "cpuid's hypervisor bit is clear");
}

TEST(Virtualization, WithoutFlagsOnlyDmiOrXenCanTell) {
  VirtualizationFacts metal;
  metal.dmi_vendor = "Amazon EC2";
  metal.dmi_product = "c6g.metal";
  const Json unknown = virtualization_json(metal);
  EXPECT_TRUE(unknown["guest"].is_null());
  EXPECT_NE(unknown["guest_unavailable"].get<std::string>().find("not x86"), std::string::npos);

  VirtualizationFacts instance = metal;
  instance.dmi_product = "c6g.large";
  EXPECT_EQ(virtualization_json(instance)["guest"], true);

  VirtualizationFacts hyperv;
  hyperv.dmi_vendor = "Microsoft Corporation";
  hyperv.dmi_product = "Virtual Machine";
  EXPECT_EQ(virtualization_json(hyperv)["guest"], true);
  hyperv.dmi_product = "Surface Laptop";
  EXPECT_TRUE(virtualization_json(hyperv)["guest"].is_null());

  VirtualizationFacts xen;
  xen.sys_hypervisor_type = "xen";
  EXPECT_EQ(virtualization_json(xen)["evidence"], Json({"/sys/hypervisor/type: xen"}));
}

}  // namespace
}  // namespace gbx
