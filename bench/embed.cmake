# cmake -DIN=file -DOUT=header -DNAME=symbol -P embed.cmake: the file as a C string constant.
file(READ ${IN} text)
string(REPLACE "\\" "\\\\" text "${text}")
string(REPLACE "\"" "\\\"" text "${text}")
string(REPLACE "\n" "\\n\"\n\"" text "${text}")
file(WRITE ${OUT} "/* generated from ${IN} */\nstatic const char ${NAME}[] =\n\"${text}\";\n")
