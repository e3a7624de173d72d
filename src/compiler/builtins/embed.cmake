# cmake -DIN=<file> -DOUT=<file.c> -DNAME=<symbol> -P embed.cmake: a C array of IN's bytes.
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" len)
math(EXPR size "${len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE ${OUT} "/* Generated from ${IN} at build time. */\n#include <stddef.h>\n"
  "const unsigned char ${NAME}[] = {\n${bytes}0};\nconst size_t ${NAME}_size = ${size};\n")
