#include <lensfun.h>
