# Models (tools/tool_model*.c, through assimp).
# materials.sh: glTF's material features on materials.gltf (written by
# hand, here), each checked at a pixel whose bytes are worked out by hand.
# llvmpipe.sh: models drawn by tilerast and by llvmpipe (the same draws and
# GLSL through tilerast-bench --compare-llvmpipe) cover the same pixels.
# Both skip (77) without assimp or, for the second, OSMesa or the models.
if(TARGET tilerast-render)
  add_test(NAME models_materials
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/materials.sh $<TARGET_FILE:tilerast-render>
      ${CMAKE_CURRENT_LIST_DIR}/materials.gltf)
  set_tests_properties(models_materials PROPERTIES SKIP_RETURN_CODE 77)
endif()
if(TARGET tilerast-llvmpipe AND TARGET tilerast-bench)
  add_test(NAME models_match_llvmpipe
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/llvmpipe.sh $<TARGET_FILE:tilerast-bench>
      ${CMAKE_CURRENT_LIST_DIR}/materials.gltf)
  # Under LeakSanitizer, Mesa's own leak in OSMesa is suppressed.
  set_tests_properties(models_match_llvmpipe PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600
    ENVIRONMENT "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/bench/lsan.supp")
endif()
