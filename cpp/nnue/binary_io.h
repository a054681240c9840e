// Little-endian fields of the networks' and the training data's files: written to a string,
// read from one with every read checked against its end (a short file is `Error` naming the
// file's kind and the field it ends in).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace polychess {

struct BinaryWriter {
  std::string out;

  template <class T>
  void put(T value) {
    for (size_t i = 0; i < sizeof(T); ++i) out.push_back(char(uint64_t(value) >> (8 * i) & 0xFF));
  }
  template <class T>
  void put_all(const std::vector<T>& values) {
    for (T v : values) put(v);
  }
  void put_text(const std::string& text) {  // u16 length, then the bytes
    put(uint16_t(text.size()));
    out += text;
  }
  // How each of the files begins: its four letters, then its format's version.
  void put_signature(const char (&magic)[5], uint32_t version) {
    out.append(magic, 4);
    put(version);
  }
};

template <class Error>
struct BinaryReader {
  const std::string& in;
  size_t at;
  const char* kind;  // "network file", "training data"

  size_t left() const { return in.size() - at; }
  [[noreturn]] void truncated(const std::string& what) const {
    throw Error(std::string(kind) + " truncated: it ends inside " + what + " (" + std::to_string(in.size()) +
                " bytes)");
  }
  template <class T>
  T get(const char* what) {
    if (left() < sizeof(T)) truncated(what);
    uint64_t v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) v |= uint64_t(uint8_t(in[at + i])) << (8 * i);
    at += sizeof(T);
    return T(v);
  }
  template <class T>
  void get_all(std::vector<T>& values, size_t count, const char* what) {
    if (left() / sizeof(T) < count) truncated(what);
    values.resize(count);
    for (size_t i = 0; i < count; ++i) values[i] = get<T>(what);
  }
  // Reads the file's four letters and version from its start; `Error` unless they are
  // `magic` (`description`: what such a file is) and `version`.
  void expect_signature(const char (&magic)[5], uint32_t version, const char* description) {
    if (in.size() < 4 || std::memcmp(in.data(), magic, 4) != 0)
      throw Error(std::string("not ") + description + " (it does not begin with \"" + magic + "\")");
    at = 4;
    const uint32_t found = get<uint32_t>("the version");
    if (found != version)
      throw Error(std::string(kind) + " version " + std::to_string(found) + " is not " + std::to_string(version) +
                  ", the one this polychess reads");
  }
  std::string get_text(const char* what) {
    const uint16_t length = get<uint16_t>(what);
    if (left() < length) truncated(what);
    std::string text = in.substr(at, length);
    at += length;
    return text;
  }
};

}  // namespace polychess
