// zlib (the system library): inflates Lightroom's look tables (crs:Table_…).
#include <zlib.h>
