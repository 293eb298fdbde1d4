#pragma once
// Every study (a paper's table as one command, DESIGN.md "Studies"), by id: the one place a
// study is registered, as scenarios are in registry.cpp.

#include "core/study.h"

#include <string>
#include <vector>

namespace evx {

const std::vector<Study>& allStudies();
const Study* findStudy(const std::string& id); // nullptr when unknown

} // namespace evx
