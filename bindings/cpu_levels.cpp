// polychess._cpu: which x86-64 instruction-set levels this CPU (and its operating system) runs,
// for python/polychess/_core.py to load the core built for the best of them. Compiled for the
// family's baseline, with the plain C API (no pybind11, so that it stays small and quick to
// build): it must import on any CPU, before anything else of the core is loaded.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstdint>
#include <initializer_list>

#if defined(__x86_64__) || defined(_M_X64)
#define POLYCHESS_X86_64
#if defined(_MSC_VER)
#include <intrin.h>
#else
#include <cpuid.h>
#endif
#endif

namespace {

#ifdef POLYCHESS_X86_64

struct Registers {
  uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};

Registers cpuid(uint32_t leaf, uint32_t subleaf = 0) {
  Registers r;
#if defined(_MSC_VER)
  int out[4];
  __cpuidex(out, int(leaf), int(subleaf));
  r = {uint32_t(out[0]), uint32_t(out[1]), uint32_t(out[2]), uint32_t(out[3])};
#else
  __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
#endif
  return r;
}

// The register states the operating system saves on a task switch (XCR0): without them the
// wide registers cannot be used, whatever cpuid says.
uint64_t saved_states() {
#if defined(_MSC_VER)
  return _xgetbv(0);
#else
  uint32_t low, high;
  __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
  return uint64_t(high) << 32 | low;
#endif
}

bool all(uint32_t reg, std::initializer_list<int> bits) {
  for (int bit : bits)
    if (!(reg >> bit & 1)) return false;
  return true;
}

// The levels of the x86-64 psABI (x86-64-v2, -v3, -v4), as GCC and Clang's -march define them.
int x86_64_level() {
  const uint32_t max_leaf = cpuid(0).eax, max_extended = cpuid(0x80000000u).eax;
  if (max_leaf < 1) return 1;
  const Registers basic = cpuid(1);
  const Registers extended = max_extended >= 0x80000001u ? cpuid(0x80000001u) : Registers{};
  const Registers structured = max_leaf >= 7 ? cpuid(7, 0) : Registers{};
  // SSE3, SSSE3, CX16, SSE4.1, SSE4.2, POPCNT; LAHF/SAHF
  if (!all(basic.ecx, {0, 9, 13, 19, 20, 23}) || !all(extended.ecx, {0})) return 1;
  // FMA, MOVBE, OSXSAVE, AVX, F16C; LZCNT; BMI1, AVX2, BMI2; the SSE and AVX states saved
  if (!all(basic.ecx, {12, 22, 27, 28, 29}) || !all(extended.ecx, {5}) || !all(structured.ebx, {3, 5, 8})) return 2;
  const uint64_t states = saved_states();
  if ((states & 0x6) != 0x6) return 2;
  // AVX512F, DQ, CD, BW, VL; the opmask and the upper ZMM states saved
  if (!all(structured.ebx, {16, 17, 28, 30, 31}) || (states & 0xE0) != 0xE0) return 3;
  return 4;
}

#endif

PyObject* levels(PyObject*, PyObject*) {
#ifdef POLYCHESS_X86_64
  static const char* const names[] = {"x86_64", "x86_64_v2", "x86_64_v3", "x86_64_v4"};
  const int level = x86_64_level();
  PyObject* out = PyTuple_New(level);
  if (!out) return nullptr;
  for (int i = 0; i < level; ++i) {
    PyObject* name = PyUnicode_FromString(names[level - 1 - i]);
    if (!name) {
      Py_DECREF(out);
      return nullptr;
    }
    PyTuple_SET_ITEM(out, i, name);
  }
  return out;
#else
  return PyTuple_New(0);
#endif
}

PyMethodDef methods[] = {
    {"levels", levels, METH_NOARGS,
     "The x86-64 levels this CPU runs, best first ('x86_64_v4', ..., 'x86_64'); () on other CPUs."},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "_cpu",
    "Which instruction-set levels this CPU runs.",
    -1,
    methods,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
};

}  // namespace

PyMODINIT_FUNC PyInit__cpu() { return PyModule_Create(&module); }
