# Post-link check of a Cortex-M image (cmake -DELF= -DNM= -DSIZE= -P): prints
# its size and fails when it links an allocator: Ember takes every byte from
# buffers the application gives it.
execute_process(COMMAND ${NM} ${ELF} OUTPUT_VARIABLE symbols COMMAND_ERROR_IS_FATAL ANY)
foreach(sym malloc free calloc realloc _sbrk sbrk _Znwj _Znaj)
  if(symbols MATCHES "[0-9a-f]+ [TtWw] ${sym}\n")
    message(FATAL_ERROR "${ELF} links ${sym}: something allocates from a heap")
  endif()
endforeach()
execute_process(COMMAND ${SIZE} ${ELF} COMMAND_ERROR_IS_FATAL ANY)
