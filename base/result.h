// Result<T>: a value, or the Error saying why there is none. The one error type of opcts's C++
// (spec, conformance, reports, fuzz and the backends' C++ sides); no exceptions cross a module.
//
//   Result<Journal> ReadJournal(const std::string& path);    // "run.jsonl:12: status: unknown
//   'Passs'" Result<void> WriteFile(const std::string& path, std::string_view text);
//
//   OPCTS_TRY(WriteFile(path, text));                          // returns its Error on failure
//   OPCTS_ASSIGN_OR_RETURN(Journal journal, ReadJournal(path));
//   if (Result<Journal> j = ReadJournal(path); !j) std::cerr << j.error().message;
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace opcts {

enum class ErrorCode {
  kInvalidInput,  // bad input (a file, a field, a descriptor); the message names which
  kNotSupported,  // well-formed, but not available here
  kUnavailable,   // a device or resource is absent or was lost
  kIo,            // reading or writing failed
  kInternal,      // a bug in opcts or in a backend
};

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
  int64_t native_code = 0;  // the failing API's own code (a VkResult, an errno); 0 if none
};

inline Error InvalidInput(std::string message) {
  return {ErrorCode::kInvalidInput, std::move(message)};
}
inline Error NotSupported(std::string message) {
  return {ErrorCode::kNotSupported, std::move(message)};
}
inline Error Unavailable(std::string message) {
  return {ErrorCode::kUnavailable, std::move(message)};
}
inline Error IoError(std::string message) { return {ErrorCode::kIo, std::move(message)}; }
inline Error InternalError(std::string message) {
  return {ErrorCode::kInternal, std::move(message)};
}

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value)
      : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Error error)
      : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }
  // Only on failure.
  const Error& error() const& { return std::get<1>(state_); }
  Error&& error() && { return std::get<1>(std::move(state_)); }
  // Only on success (std::bad_variant_access otherwise).
  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Error> state_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error)
      : error_(std::move(error)), ok_(false) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const& { return error_; }
  Error&& error() && { return std::move(error_); }

 private:
  Error error_;
  bool ok_ = true;
};

}  // namespace opcts

#define OPCTS_RESULT_CONCAT_INNER(a, b) a##b
#define OPCTS_RESULT_CONCAT(a, b) OPCTS_RESULT_CONCAT_INNER(a, b)

// Returns the Error of a failed Result (of any T) from the enclosing function.
#define OPCTS_TRY(expression)                                             \
  do {                                                                    \
    if (auto opcts_try_result_ = (expression); !opcts_try_result_.ok()) { \
      return std::move(opcts_try_result_).error();                        \
    }                                                                     \
  } while (false)

// `declaration` = the value of a successful Result; otherwise returns its Error.
// NOLINTBEGIN(bugprone-macro-parentheses): `declaration` is a declaration (`const int n`).
#define OPCTS_ASSIGN_OR_RETURN(declaration, expression)                     \
  auto OPCTS_RESULT_CONCAT(opcts_result_, __LINE__) = (expression);         \
  if (!OPCTS_RESULT_CONCAT(opcts_result_, __LINE__).ok())                   \
    return std::move(OPCTS_RESULT_CONCAT(opcts_result_, __LINE__)).error(); \
  declaration = std::move(OPCTS_RESULT_CONCAT(opcts_result_, __LINE__)).value()
// NOLINTEND(bugprone-macro-parentheses)
