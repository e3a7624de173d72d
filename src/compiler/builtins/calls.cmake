# cmake -DNM=<llvm-nm> -DIN=<a.bc;b.bc> -DOUT=<file.c> -P calls.cmake: the functions culvert's
# builtins libraries call but do not define (libclc's, e.g. barrier), as one C string, one mangled
# name per line. cvc_libclc.c links them from libclc whatever the program names. A call of a name
# the libraries also define overloads of (half sin calls float sin) is left out: a program that
# calls one names the other, and the scan of its source finds it.
cmake_policy(SET CMP0057 NEW)
set(names "")
if(NM)
  execute_process(COMMAND ${NM} --undefined-only -j ${IN} OUTPUT_VARIABLE undefined
                  RESULT_VARIABLE rc1 ERROR_QUIET)
  execute_process(COMMAND ${NM} --defined-only -j ${IN} OUTPUT_VARIABLE defined
                  RESULT_VARIABLE rc2 ERROR_QUIET)
  if(rc1 EQUAL 0 AND rc2 EQUAL 0)
    # _Z<length><name>...: the OpenCL C name of each defined function.
    set(bases "")
    string(REGEX MATCHALL "_Z[0-9]+[A-Za-z_][A-Za-z0-9_]*" mangled "${defined}")
    foreach(m IN LISTS mangled)
      string(REGEX MATCH "^_Z([0-9]+)" _ "${m}")
      set(len ${CMAKE_MATCH_1})
      string(LENGTH "_Z${len}" start)
      string(SUBSTRING "${m}" ${start} ${len} base)
      list(APPEND bases "${base}")
    endforeach()
    list(REMOVE_DUPLICATES bases)
    string(REGEX MATCHALL "_Z[0-9]+[A-Za-z_][A-Za-z0-9_]*" found "${undefined}")
    list(REMOVE_DUPLICATES found)
    list(SORT found)
    foreach(n IN LISTS found)
      string(REGEX MATCH "^_Z([0-9]+)" _ "${n}")
      set(len ${CMAKE_MATCH_1})
      string(LENGTH "_Z${len}" start)
      string(SUBSTRING "${n}" ${start} ${len} base)
      if(NOT base IN_LIST bases)
        string(APPEND names "${n}\\n")
      endif()
    endforeach()
  endif()
endif()
file(WRITE ${OUT} "/* Generated at build time by calls.cmake. */\n"
  "const char cvc_builtins_calls[] = \"${names}\";\n")
