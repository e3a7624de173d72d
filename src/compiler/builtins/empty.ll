; An empty module: what a stage started ahead (cvc_spare.c) links in the places of libraries a
; build does not need, so that its command line does not depend on how many it needs.
target triple = "nvptx64-nvidia-nvcl"
