# Embeds the registry's English prose (core/prose/, see its README) in the C++ build.
#
#   include(cmake/prose.cmake)
#   vilab_embed_prose(<target> <name> [LEAVE_OUT <field>...])
#
# merges core/prose/<kind>/<id>.en.json into one compact JSON document,
# {"integrators": {<id>: {…}}, "systems": {<id>: {…}}}, without the entries' fields
# LEAVE_OUT names, writes it to <build dir>/embedded/<name>.json and embeds that with
# cmake/embed.cmake's generator as vilab::embedded::proseEnglish (+ proseEnglishSize,
# read by core/src/prose.cpp) in <build dir>/embedded/<name>.cpp, added to <target>'s
# sources. Both steps run at build time whenever a prose file (or a script) changes. A
# target given its own copy (the lean wasm) links it in place of its library's.
#
# The merge re-serializes every value, so the document holds no formatting, and it is
# ASCII (other characters as \u escapes), as embed.cmake's char array requires. Prose holds
# strings, lists and objects only; anything else, or a file that is not JSON, fails the
# build naming the file.

if(CMAKE_SCRIPT_MODE_FILE AND VILAB_PROSE_OUTPUT)
  # cmake -DVILAB_PROSE_DIR=… -DVILAB_PROSE_OUTPUT=… -DVILAB_PROSE_LEAVE_OUT=a,b -P prose.cmake
  # A JSON string literal of text, in ASCII: CMake's own JSON writer spells what is not
  # printable ASCII as \u escapes.
  function(vilab_prose_quote out text)
    string(REPLACE "\\" "\\\\" text "${text}")
    string(REPLACE "\"" "\\\"" text "${text}")
    string(REPLACE "\n" "\\n" text "${text}")
    string(REPLACE "\r" "\\r" text "${text}")
    string(REPLACE "\t" "\\t" text "${text}")
    set(text "\"${text}\"")
    string(REGEX MATCH "[^ -~]" other "${text}")
    if(other)
      string(JSON list SET "[]" 0 "${text}")
      string(FIND "${list}" "\"" first)
      string(FIND "${list}" "\"" last REVERSE)
      math(EXPR length "${last} - ${first} + 1")
      string(SUBSTRING "${list}" ${first} ${length} text)
    endif()
    set(${out} "${text}" PARENT_SCOPE)
  endfunction()

  # The compact JSON text of the value at <path…> of <json>, without the object members
  # named in <leaveOut> (top level only).
  function(vilab_prose_value out json where leaveOut)
    set(path ${ARGN})
    string(JSON type ERROR_VARIABLE error TYPE "${json}" ${path})
    if(error)
      message(FATAL_ERROR "${where}: ${error}")
    endif()
    if(type STREQUAL "STRING")
      string(JSON value GET "${json}" ${path})
      vilab_prose_quote(text "${value}")
    elseif(type STREQUAL "OBJECT" OR type STREQUAL "ARRAY")
      string(JSON n LENGTH "${json}" ${path})
      set(text "")
      set(sep "")
      if(n GREATER 0)
        math(EXPR last "${n} - 1")
        foreach(i RANGE ${last})
          if(type STREQUAL "OBJECT")
            string(JSON key MEMBER "${json}" ${path} ${i})
            list(FIND leaveOut "${key}" left)
            if(NOT path AND left GREATER -1)
              continue()
            endif()
            vilab_prose_value(item "${json}" "${where}" "" ${path} "${key}")
            vilab_prose_quote(name "${key}")
            string(APPEND text "${sep}${name}:${item}")
          else()
            vilab_prose_value(item "${json}" "${where}" "" ${path} ${i})
            string(APPEND text "${sep}${item}")
          endif()
          set(sep ",")
        endforeach()
      endif()
      if(type STREQUAL "OBJECT")
        set(text "{${text}}")
      else()
        set(text "[${text}]")
      endif()
    else()
      string(REPLACE ";" "." at "${path}")
      message(FATAL_ERROR "${where}: ${at} is ${type}; prose holds only strings, lists and objects")
    endif()
    set(${out} "${text}" PARENT_SCOPE)
  endfunction()

  string(REPLACE "," ";" leaveOut "${VILAB_PROSE_LEAVE_OUT}")
  set(document "")
  set(kindSep "")
  foreach(kind integrators systems)
    file(GLOB files "${VILAB_PROSE_DIR}/${kind}/*.en.json")
    set(entries "")
    set(sep "")
    foreach(file ${files})
      get_filename_component(name "${file}" NAME)
      string(REGEX REPLACE "\\.en\\.json$" "" id "${name}")
      file(READ "${file}" json)
      vilab_prose_value(value "${json}" "core/prose/${kind}/${name}" "${leaveOut}")
      string(APPEND entries "${sep}\"${id}\":${value}")
      set(sep ",")
    endforeach()
    string(APPEND document "${kindSep}\"${kind}\":{${entries}}")
    set(kindSep ",")
  endforeach()
  file(WRITE "${VILAB_PROSE_OUTPUT}" "{${document}}\n")
  return()
endif()

set(VILAB_PROSE_SCRIPT "${CMAKE_CURRENT_LIST_FILE}")
set(VILAB_EMBED_GENERATOR "${CMAKE_CURRENT_LIST_DIR}/embed.cmake")

function(vilab_embed_prose target name)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "LEAVE_OUT")
  set(dir "${CMAKE_SOURCE_DIR}/core/prose")
  file(GLOB inputs CONFIGURE_DEPENDS "${dir}/*/*.en.json")
  set(json "${CMAKE_CURRENT_BINARY_DIR}/embedded/${name}.json")
  set(output "${CMAKE_CURRENT_BINARY_DIR}/embedded/${name}.cpp")
  string(REPLACE ";" "," leaveOut "${arg_LEAVE_OUT}")
  set(what "core/prose (English)")
  if(leaveOut)
    string(REPLACE ";" ", " shown "${arg_LEAVE_OUT}")
    set(what "core/prose (English, without ${shown})")
  endif()
  add_custom_command(
    OUTPUT "${output}"
    BYPRODUCTS "${json}"
    COMMAND "${CMAKE_COMMAND}" "-DVILAB_PROSE_DIR=${dir}" "-DVILAB_PROSE_OUTPUT=${json}"
            "-DVILAB_PROSE_LEAVE_OUT=${leaveOut}" -P "${VILAB_PROSE_SCRIPT}"
    COMMAND "${CMAKE_COMMAND}" "-DVILAB_EMBED_INPUT=${json}" "-DVILAB_EMBED_OUTPUT=${output}"
            "-DVILAB_EMBED_SYMBOL=proseEnglish" "-DVILAB_EMBED_NAME=${what}" -P "${VILAB_EMBED_GENERATOR}"
    DEPENDS ${inputs} "${VILAB_PROSE_SCRIPT}" "${VILAB_EMBED_GENERATOR}"
    COMMENT "Embedding ${what}"
    VERBATIM)
  target_sources(${target} PRIVATE "${output}")
endfunction()
