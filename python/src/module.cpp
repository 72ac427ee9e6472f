// The extension module `ptxmma._ptxmma`. Bad input (ptxmma::Error, ptx::PtxError) becomes a
// ValueError with the message the CLI prints after "ptxmma: error: ".
#include "python/src/bindings.hpp"

#include "sim/error.hpp"

NB_MODULE(_ptxmma, m) {
  namespace nb = nanobind;
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const ptxmma::Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  ptxmma::py::bind_numeric(m);
  ptxmma::py::bind_mma(m);
  ptxmma::py::bind_wgmma(m);
  ptxmma::py::bind_layout(m);
  ptxmma::py::bind_machine(m);
  ptxmma::py::bind_golden(m);
  ptxmma::py::bind_special(m);
}
