# test_texture_api.c makes its JPEG file with stb_image_write, whose encoder
# shifts ints past their range; the sanitizer build would stop there, in
# the test's own code, before the library decodes anything.
if(TILERAST_SANITIZE)
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/test_texture_api.c PROPERTIES COMPILE_OPTIONS -fno-sanitize=shift)
endif()
