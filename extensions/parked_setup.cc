#include "extensions/parked_setup.h"

#include <utility>

namespace gbx::detail {

ParkedSetup::~ParkedSetup() { release(); }

void ParkedSetup::wait_for_caller_turn(std::unique_lock<std::mutex>& lock) {
  turn_changed_.wait(lock, [this] { return !body_turn_; });
  if (error_) {
    std::exception_ptr error = std::exchange(error_, nullptr);
    lock.unlock();
    if (thread_.joinable()) thread_.join();
    std::rethrow_exception(error);
  }
  if (ended_ && thread_.joinable()) {
    lock.unlock();
    thread_.join();
  }
}

void ParkedSetup::start(std::function<void()> body) {
  std::unique_lock<std::mutex> lock(mutex_);
  body_turn_ = true;
  ended_ = false;
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
    ended_ = true;
    parked_ = false;
    body_turn_ = false;
    turn_changed_.notify_all();
  });
  wait_for_caller_turn(lock);
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
  std::unique_lock<std::mutex> lock(mutex_);
  if (!parked_) return;
  again_ = true;
  body_turn_ = true;
  turn_changed_.notify_all();
  wait_for_caller_turn(lock);
}

std::exception_ptr ParkedSetup::release() noexcept {
  std::unique_lock<std::mutex> lock(mutex_);
  if (parked_) {
    again_ = false;
    body_turn_ = true;
    turn_changed_.notify_all();
    turn_changed_.wait(lock, [this] { return !body_turn_; });
  }
  std::exception_ptr error = std::exchange(error_, nullptr);
  lock.unlock();
  if (thread_.joinable()) thread_.join();
  return error;
}

bool ParkedSetup::parked() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return parked_;
}

bool ParkedSetup::on_parked_thread() const { return thread_.get_id() == std::this_thread::get_id(); }

}  // namespace gbx::detail
