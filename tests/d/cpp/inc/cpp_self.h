/* includes itself: for err.include_too_deep.d */
#include "cpp_self.h"
