"""The warp instructions whose answer depends on which lanes run them (activemask, shfl.sync,
vote.sync, bar.warp.sync) are called `nomerge`, for the generators of the sub-group builtins.
When both sides of a branch make the same call (`if (c) x = f(v); else x = f(v);`, as the
Khronos CTS writes its non-uniform tests), LLVM 16's SimplifyCFG hoists the two into one above
the branch (convergent calls too: moving them out of control flow is allowed), where every lane
runs it and activemask answers the whole warp; a nomerge call is never merged with another."""
import re

WARP_CALL = re.compile(r'(call [^@"\n]*(?:@llvm\.nvvm\.(?:shfl\.sync|vote|bar\.warp\.sync)'
                       r'[\w.]*\([^)\n]*\)|asm sideeffect "activemask\.b32 \$0;", "=r"\(\)))')


def nomerge(lines):
    """The IR lines with every call of a warp instruction marked nomerge."""
    return [WARP_CALL.sub(r"\1 nomerge", line) for line in lines]
