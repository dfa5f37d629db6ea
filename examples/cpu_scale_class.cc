// The class form of examples/cpu_scale.cc, for what needs a class (state kept across calls, a load
// sweep): counted and seeded inputs, the run, its problem, variant, work per run, and a float64
// reference that its output is checked against.
#include <string>
#include <vector>

#include <gbx/gbx.h>

namespace {

// The kernel under test: y = a * x.
void scale(const float* x, float* y, std::size_t n, float a) {
  for (std::size_t i = 0; i < n; ++i) y[i] = a * x[i];
}

constexpr float kFactor = 1.5f;

class Scale : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State& state) override {
    n_ = static_cast<std::size_t>(state.range(0));
    x_ = host_array<float>(n_);
    y_ = host_array<float>(n_);
    fill_random(x_);
    declare_problem("scale/n=" + std::to_string(n_));
    declare_flops_per_run(static_cast<double>(n_));
    declare_bytes_per_run(2.0 * static_cast<double>(n_ * sizeof(float)));
    reference_ = &gbx::cached_reference("scale/n=" + std::to_string(n_) + "/seed=" + std::to_string(seed()), [this] {
      std::vector<double> y(n_);
      for (std::size_t i = 0; i < n_; ++i) y[i] = static_cast<double>(kFactor) * static_cast<double>(x_[i]);
      return y;
    });
    declare_accuracy("float64 product on the CPU", gbx::tolerance_for("fp32", 1));
  }
  void run() override { scale(x_.data, y_.data, n_, kFactor); }
  void poison_outputs() override { gbx::poison(y_); }
  gbx::Accuracy check_output() override { return gbx::compare_to_reference(y_.data, reference_->data(), n_); }

 private:
  std::size_t n_ = 0;
  gbx::Span<float> x_;
  gbx::Span<float> y_;
  const std::vector<double>* reference_ = nullptr;
};

}  // namespace

GBX_BENCHMARK(Scale, "scale", "loop")->ArgName("n")->Arg(1 << 20);
