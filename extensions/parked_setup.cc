#include "extensions/parked_setup.h"

#include <utility>

namespace gbx::detail {

ParkedSetup::~ParkedSetup() { release(); }

std::exception_ptr ParkedSetup::take_turn_back(std::unique_lock<std::mutex>& lock) {
  turn_changed_.wait(lock, [this] { return !body_turn_; });
  std::exception_ptr error = std::exchange(error_, nullptr);
  const bool ended = !parked_;  // the caller's turn comes back when the body parks or ends
  lock.unlock();
  if (ended && thread_.joinable()) thread_.join();
  return error;
}

std::exception_ptr ParkedSetup::order(bool again) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!parked_) return nullptr;
  again_ = again;
  body_turn_ = true;
  turn_changed_.notify_all();
  return take_turn_back(lock);
}

void ParkedSetup::start(std::function<void()> body) {
  std::unique_lock<std::mutex> lock(mutex_);
  body_turn_ = true;
  parked_ = false;
  thread_ = std::thread([this, body = std::move(body)] {
    { const std::lock_guard<std::mutex> started(mutex_); }  // thread_ is assigned: park() may compare ids
    std::exception_ptr error;
    try {
      body();
    } catch (...) {
      error = std::current_exception();
    }
    const std::lock_guard<std::mutex> ended(mutex_);
    error_ = error;
    parked_ = false;
    body_turn_ = false;
    turn_changed_.notify_all();
  });
  if (const std::exception_ptr error = take_turn_back(lock)) std::rethrow_exception(error);
}

bool ParkedSetup::park() {
  if (!on_parked_thread()) return false;
  std::unique_lock<std::mutex> lock(mutex_);
  parked_ = true;
  body_turn_ = false;
  turn_changed_.notify_all();
  turn_changed_.wait(lock, [this] { return body_turn_; });
  parked_ = false;
  return again_;
}

void ParkedSetup::resume() {
  if (const std::exception_ptr error = order(true)) std::rethrow_exception(error);
}

std::exception_ptr ParkedSetup::release() noexcept { return order(false); }

bool ParkedSetup::parked() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return parked_;
}

bool ParkedSetup::on_parked_thread() const { return thread_.get_id() == std::this_thread::get_id(); }

}  // namespace gbx::detail
