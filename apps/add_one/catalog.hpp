#pragma once
// The add-one methods this program knows, whether this build can run each, and the
// document's own figures for the ones it has a counterpart of.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nbk/add_one_variants.hpp"

namespace nbk::add_one {

struct CatalogEntry {
  std::string name;           // command-line name, e.g. "cuda-explicit"
  std::string space;          // execution space that runs the kernel
  std::string transfers;      // what moves between host and device, and how
  std::string first_call;     // what the first call pays that the second does not
  std::string document;       // the document's figures (first / second), or "-"
  std::string unavailable;    // why this build cannot run it; empty when it can
  std::function<std::unique_ptr<Variant>()> make;
};

std::vector<CatalogEntry> catalog();

}  // namespace nbk::add_one
