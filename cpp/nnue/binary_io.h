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
  // Reads the file's four letters and version from its start and returns the version; `Error`
  // unless they are `magic` (`description`: what such a file is) and a version from `oldest` to
  // `newest`.
  uint32_t expect_signature(const char (&magic)[5], uint32_t oldest, uint32_t newest, const char* description) {
    if (in.size() < 4 || std::memcmp(in.data(), magic, 4) != 0)
      throw Error(std::string("not ") + description + " (it does not begin with \"" + magic + "\")");
    at = 4;
    const uint32_t found = get<uint32_t>("the version");
    if (found < oldest || found > newest)
      throw Error(std::string(kind) + " version " + std::to_string(found) + " is not " +
                  (oldest == newest
                       ? std::to_string(newest) + ", the one"
                       : "one of " + std::to_string(oldest) + " to " + std::to_string(newest) + ", those") +
                  " this polychess reads");
    return found;
  }
  // A u16 length and that many bytes of UTF-8 (what every text field of these files is).
  std::string get_text(const char* what) {
    const uint16_t length = get<uint16_t>(what);
    if (left() < length) truncated(what);
    std::string text = in.substr(at, length);
    if (!valid_utf8(text)) throw Error(std::string(kind) + " corrupted: " + what + " is not UTF-8 text");
    at += length;
    return text;
  }

  static bool valid_utf8(const std::string& text) {
    for (size_t i = 0; i < text.size();) {
      const auto byte = static_cast<unsigned char>(text[i]);
      const size_t length = byte < 0x80           ? 1
                            : (byte >> 5) == 0x6  ? 2
                            : (byte >> 4) == 0xE  ? 3
                            : (byte >> 3) == 0x1E ? 4
                                                  : 0;
      if (length == 0 || i + length > text.size()) return false;
      uint32_t code = length == 1 ? byte : byte & (0x7F >> length);
      for (size_t k = 1; k < length; ++k) {
        const auto next = static_cast<unsigned char>(text[i + k]);
        if ((next & 0xC0) != 0x80) return false;
        code = code << 6 | (next & 0x3F);
      }
      // no overlong forms, no surrogates, nothing beyond U+10FFFF
      static constexpr uint32_t LEAST[] = {0, 0, 0x80, 0x800, 0x10000};
      if (code < LEAST[length] || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) return false;
      i += length;
    }
    return true;
  }
};

}  // namespace polychess
