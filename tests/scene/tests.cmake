# tilerast-render refuses hostile scene files with a message and a non-zero
# status (render_rejects.sh writes the files).
if(TARGET tilerast-render)
  add_test(NAME scene_render_rejects_bad_files
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/render_rejects.sh $<TARGET_FILE:tilerast-render>)
endif()

# tilerast-render with fragment density maps: --density-map, --fdm-png and
# --device, their errors, and an all-255 map rendering the bytes of no map.
if(TARGET tilerast-render)
  add_test(NAME scene_render_fdm
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/render_fdm.sh $<TARGET_FILE:tilerast-render>)
endif()

# tilerast-render --samples: equal bytes for every thread count and GMEM
# budget, 1 sample equal to none, and its errors.
if(TARGET tilerast-render)
  add_test(NAME scene_render_samples
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/render_samples.sh $<TARGET_FILE:tilerast-render>)
endif()

# tilerast-render --compare: exact counts and largest differences against
# goldens the tool renders itself, --tolerance, --diff's picture, the
# comparison in --stats, and exit status 4 for goldens it cannot compare.
if(TARGET tilerast-render)
  add_test(NAME scene_render_compare
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/render_compare.sh $<TARGET_FILE:tilerast-render>)
endif()

# tilerast-render on real models through assimp (render_models.sh): glTF
# and OBJ from assimp-testmodels, the same bytes for every thread count and
# GMEM budget, and bad content refused by name.  Skips (77) without the
# package or without assimp.
if(TARGET tilerast-render)
  add_test(NAME scene_render_models
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/render_models.sh $<TARGET_FILE:tilerast-render>)
  set_tests_properties(scene_render_models PROPERTIES SKIP_RETURN_CODE 77)
endif()

# tilerast-render --density-map radial on real models (render_fdm_model.sh):
# exact fragments shaded against full density, the FDM and subsampled
# pictures, --views 2 with a map per view, the same bytes for 1 and 2
# threads, PNG maps on models, radial on a scene, and bad parameters.
# Skips (77) without assimp-testmodels or without assimp.
if(TARGET tilerast-render)
  add_test(NAME scene_render_fdm_model
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/render_fdm_model.sh $<TARGET_FILE:tilerast-render>)
  set_tests_properties(scene_render_fdm_model PROPERTIES SKIP_RETURN_CODE 77)
endif()
