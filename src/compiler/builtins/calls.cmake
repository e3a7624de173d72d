# cmake -DNM=<llvm-nm> -DIN=<a.bc;b.bc> -DOUT=<file.c> -P calls.cmake: the functions culvert's
# builtins libraries call but do not define (libclc's, e.g. barrier), as one C string, one mangled
# name per line. cvc_libclc.c links them from libclc whatever the program names.
set(names "")
if(NM)
  execute_process(COMMAND ${NM} --undefined-only -j ${IN} OUTPUT_VARIABLE out RESULT_VARIABLE rc
                  ERROR_QUIET)
  if(rc EQUAL 0)
    string(REGEX MATCHALL "_Z[A-Za-z0-9_]+" found "${out}")
    list(REMOVE_DUPLICATES found)
    list(SORT found)
    foreach(n IN LISTS found)
      string(APPEND names "${n}\\n")
    endforeach()
  endif()
endif()
file(WRITE ${OUT} "/* Generated at build time by calls.cmake. */\n"
  "const char cvc_builtins_calls[] = \"${names}\";\n")
