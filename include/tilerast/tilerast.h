/* tilerast: a tiling GPU done on the CPU.  The umbrella header. */
#ifndef TILERAST_H
#define TILERAST_H

#include "result.h"
#include "context.h"
#include "fdm.h"
#include "feedback.h"
#include "geometry.h"
#include "image.h"
#include "instancing.h"
#include "lrz.h"
#include "multisample.h"
#include "pipeline.h"
#include "renderpass.h"
#include "scene.h"
#include "shader.h"
#include "subsample.h"
#include "texture.h"

#define TILERAST_VERSION_MAJOR 0
#define TILERAST_VERSION_MINOR 1
#define TILERAST_VERSION_PATCH 0

#endif
