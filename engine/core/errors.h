#pragma once

#include <stdexcept>
#include <string>

namespace evx {

// A scenario refuses its inputs; the message is shown to the user as it is.
class InvalidParameter : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A computation could not produce a trustworthy number (e.g. a density that
// vanishes on the whole grid); the message is shown to the user as it is.
class NumericalError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Thrown by RunContext::checkCancelled() so a long run unwinds promptly.
class Cancelled : public std::exception {
public:
    const char* what() const noexcept override { return "run cancelled"; }
};

} // namespace evx
