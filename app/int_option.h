// Strict number options for every `loom` command (issue 17): one parser, so
// that every integer option accepts and refuses the same texts.
//
// Accepted: decimal digits, no leading zeros ("0" itself is fine), a leading
// '-' only where the option allows negative values; nothing else (no '+',
// no whitespace, no hex "0x", no octal-looking "010", no empty text). The
// value must lie in the option's bounds, which the error names. Errors are
// InputError (exit status 2), one line, long texts clipped.
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "model/common/errors.h"

namespace loom {

/// Parses `text` as an integer of type T in [min, max]; `option` names the
/// option in the error ("--depth").
template <class T>
T parse_int_option(std::string_view text, std::string_view option, T min, T max) {
  static_assert(std::is_integral_v<T>);
  const std::string range = std::to_string(min) + ".." + std::to_string(max);
  auto fail = [&](const std::string& why) -> InputError {
    return InputError(std::string(option) + ": " + why + " (expected an integer " + range + ")");
  };
  if (text.empty()) throw fail("empty value");
  bool neg = text[0] == '-';
  std::string_view digits = neg ? text.substr(1) : text;
  bool all_digits = !digits.empty();
  for (char c : digits)
    if (c < '0' || c > '9') all_digits = false;
  if (!all_digits) throw fail("'" + clip_token(text) + "' is not a decimal integer");
  if (digits.size() > 1 && digits[0] == '0')
    throw fail("'" + clip_token(text) + "' has a leading zero");
  if (neg && (digits == "0" || min >= 0)) {
    if (min >= 0) throw fail("'" + clip_token(text) + "' is negative");
    throw fail("'-0' is not a canonical integer");
  }
  T v{};
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc::result_out_of_range || (ec == std::errc() && (v < min || v > max)))
    throw fail("'" + clip_token(text) + "' is out of range");
  if (ec != std::errc() || p != text.data() + text.size())
    throw fail("'" + clip_token(text) + "' is not a decimal integer");
  return v;
}

/// Parses `text` as a plain decimal number ("60", "0.25"; digits with at
/// most one '.', no sign, exponent, "inf" or "nan") in [min, max];
/// `expected` says what the option takes ("seconds 0.001..1e+09, e.g. 60").
inline double parse_decimal_option(std::string_view text, std::string_view option, double min,
                                   double max, const std::string& expected) {
  auto fail = [&](const std::string& why) -> InputError {
    return InputError(std::string(option) + ": " + why + " (expected " + expected + ")");
  };
  if (text.empty()) throw fail("empty value");
  if (text[0] == '-' && text.size() > 1) throw fail("'" + clip_token(text) + "' is negative");
  int dots = 0, digits = 0;
  for (char c : text) {
    if (c == '.')
      ++dots;
    else if (c >= '0' && c <= '9')
      ++digits;
    else
      digits = -1000;
  }
  if (dots > 1 || digits <= 0) throw fail("'" + clip_token(text) + "' is not a decimal number");
  if (text.size() > 32) throw fail("'" + clip_token(text) + "' has more than 32 characters");
  double v = std::stod(std::string(text));
  if (!(v >= min && v <= max)) throw fail("'" + clip_token(text) + "' is out of range");
  return v;
}

/// parse_decimal_option for seconds.
inline double parse_seconds_option(std::string_view text, std::string_view option, double min,
                                   double max) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "seconds %g..%g, e.g. 60 or 0.25", min, max);
  return parse_decimal_option(text, option, min, max, buf);
}

/// Declares an integer option bound to `target` that is parsed by
/// parse_int_option with the bounds [min, max] (shown in the help).
template <class T>
CLI::Option* add_int_option(CLI::App* cmd, const std::string& name, T& target,
                            const std::string& help, T min, T max) {
  std::string flag = name.substr(0, name.find(','));
  auto* opt = cmd->add_option_function<std::string>(
      name,
      [&target, flag, min, max](const std::string& text) {
        target = parse_int_option<T>(text, flag, min, max);
      },
      help);
  opt->type_name("INT");
  return opt;
}

/// Declares a seconds option (parse_seconds_option) bound to `target`.
inline CLI::Option* add_seconds_option(CLI::App* cmd, const std::string& name, double& target,
                                       const std::string& help, double min, double max) {
  std::string flag = name.substr(0, name.find(','));
  auto* opt = cmd->add_option_function<std::string>(
      name,
      [&target, flag, min, max](const std::string& text) {
        target = parse_seconds_option(text, flag, min, max);
      },
      help);
  opt->type_name("SECONDS");
  return opt;
}

/// Declares a plain decimal option (parse_decimal_option) bound to `target`.
inline CLI::Option* add_decimal_option(CLI::App* cmd, const std::string& name, double& target,
                                       const std::string& help, double min, double max,
                                       const std::string& expected) {
  std::string flag = name.substr(0, name.find(','));
  auto* opt = cmd->add_option_function<std::string>(
      name,
      [&target, flag, min, max, expected](const std::string& text) {
        target = parse_decimal_option(text, flag, min, max, expected);
      },
      help);
  opt->type_name("NUMBER");
  return opt;
}

/// For a name option (a directory, a file): an empty value is refused, where
/// it would have fallen back to the default without a word.
inline CLI::Validator non_empty_name(const std::string& what) {
  return CLI::Validator(
      [what](std::string& v) -> std::string {
        return v.empty() ? "needs " + what + " (got an empty one)" : "";
      },
      "");
}

}  // namespace loom
