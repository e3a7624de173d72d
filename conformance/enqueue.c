#include "ct.h"
static void todo(ct_env *e) { (void)e; CT_SKIP("not written yet"); }
static const ct_case cases[] = {{"todo", todo}};
CT_SECTION(ct_enqueue_section, "enqueue", cases);
