// The entry point of one level's module, polychess._core_<level>: the one file of the bindings
// compiled per level (CMakeLists.txt), and so written with Python's C API alone (pybind11's
// headers took 9 s a level to compile here).
#include <Python.h>

// The level's name, which polychess._core gives as LEVEL (bindings/module.cpp reads it).
extern "C" const char polychess_level[] = POLYCHESS_LEVEL;

// polychess._core's initialisation, compiled once (bindings/module.cpp).
extern "C" PyObject* PyInit__core();

#define POLYCHESS_CONCAT(a, b) a##b
#define POLYCHESS_PYINIT(module) POLYCHESS_CONCAT(PyInit_, module)

PyMODINIT_FUNC POLYCHESS_PYINIT(POLYCHESS_MODULE)() { return PyInit__core(); }
