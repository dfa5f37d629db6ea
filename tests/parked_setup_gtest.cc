// The parked thread's turns (extensions/parked_setup.h): the body and its caller never run at once,
// and what the body throws reaches the caller at the turn it is thrown in.
#include "extensions/parked_setup.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>
#include <vector>

namespace {

using gbx::detail::ParkedSetup;

TEST(ParkedSetup, TheBodyMeasuresOnItsOwnThreadUntilReleased) {
  ParkedSetup parked;
  std::vector<int> events;  // unsynchronised on purpose: the turns must order them
  std::thread::id body_thread;
  parked.start([&] {
    body_thread = std::this_thread::get_id();
    int measured = 0;
    do {
      events.push_back(++measured);
    } while (parked.park());
    events.push_back(-1);  // returned
  });
  EXPECT_TRUE(parked.parked());
  EXPECT_NE(body_thread, std::this_thread::get_id());
  EXPECT_FALSE(parked.park());  // the caller's thread is not the parked one: no wait
  parked.resume();
  parked.resume();
  EXPECT_EQ(events, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(parked.release(), nullptr);
  EXPECT_FALSE(parked.parked());
  EXPECT_EQ(events, (std::vector<int>{1, 2, 3, -1}));
  parked.resume();  // nothing parked: nothing happens
  EXPECT_EQ(events.size(), 4u);
}

TEST(ParkedSetup, WhatTheBodyThrowsReachesTheTurnItIsThrownIn) {
  ParkedSetup before;
  EXPECT_THROW(before.start([] { throw std::runtime_error("setup failed"); }), std::runtime_error);
  EXPECT_FALSE(before.parked());

  ParkedSetup later;
  int turns = 0;
  later.start([&] {
    while (later.park()) {
      if (++turns == 2) throw std::invalid_argument("second measurement failed");
    }
  });
  later.resume();
  EXPECT_THROW(later.resume(), std::invalid_argument);
  EXPECT_FALSE(later.parked());
  EXPECT_EQ(later.release(), nullptr);

  ParkedSetup on_return;
  on_return.start([&] {
    while (on_return.park()) {
    }
    throw std::runtime_error("after the measurements");
  });
  const std::exception_ptr error = on_return.release();
  ASSERT_NE(error, nullptr);
  EXPECT_THROW(std::rethrow_exception(error), std::runtime_error);
}

TEST(ParkedSetup, ABodyThatReturnsWithoutParkingEndsTheStart) {
  ParkedSetup parked;
  bool ran = false;
  parked.start([&] { ran = true; });
  EXPECT_TRUE(ran);
  EXPECT_FALSE(parked.parked());
  parked.start([&] {  // and it may start again
    while (parked.park()) {
    }
  });
  EXPECT_TRUE(parked.parked());
}  // the destructor releases it

}  // namespace
