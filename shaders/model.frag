#version 450
/* tilerast-render's model fragment shader (tools/tool_model.c; README.md,
 * "Models (glTF, OBJ)"): glTF 2.0's metallic-roughness material, lit by
 * the file's KHR_lights_punctual lights or by the default light, written
 * once for Vulkan (tilerast) and OpenGL 4.5 (the llvmpipe runner).
 *
 * The BRDF is the one the glTF 2.0 specification's appendix B gives:
 * Lambert diffuse (1 - F) c_diff / pi plus GGX specular F D Vis, with
 * F Schlick's Fresnel (f0 = 0.04 for dielectrics, the base colour for
 * metals), D the Trowbridge-Reitz distribution and Vis the height-
 * correlated Smith visibility, alpha = roughness^2.  Each light adds
 * radiance x N.L x BRDF; with no image-based lighting, the indirect light
 * is an ambient term: ambient x base colour x occlusion.  Emission is
 * added last.
 *
 * Textures (sampler bindings 1-5; a material without one gets a 1x1
 * white texture, or no normal map): 1 base colour and 5 emissive are
 * sRGB formats, so sampling returns linear values; 2 metallic-roughness
 * (G roughness, B metallic), 3 the tangent-space normal map, 4 occlusion
 * (R).  The colour attachment is sRGB, so the linear result is encoded
 * when it is stored: no gamma arithmetic here.
 *
 * The uniform block (tool_model_uniforms):
 *   base_color  the base colour factor (linear RGBA);
 *   emissive    rgb the emissive factor; w the alpha cutoff;
 *   material    metallic factor, roughness factor, normal scale,
 *               occlusion strength;
 *   mode        x the alpha mode: 0 OPAQUE (alpha written as 1), 1 MASK
 *               (discarded below the cutoff, else 1), 2 BLEND (the base
 *               colour's alpha; the pipeline blends); y the textures the
 *               material has, bit b for binding b + 1 (a texture it lacks
 *               is not sampled: the white default would multiply by 1.0,
 *               so the result is the same bits); z the light count (up to
 *               4); w the ambient;
 *   eye         the camera's position, world space;
 *   light[4i+k] light i: k = 0 xyz the position, or for a directional
 *               light the unit vector towards it, w the type (0
 *               directional, 1 point, 2 spot); k = 1 rgb colour x
 *               intensity; k = 2 xyz the spot's direction, w the cone
 *               scale; k = 3 x the cone offset (KHR_lights_punctual's
 *               smooth falloff: clamp(cos * scale + offset, 0, 1)^2).
 *               Point and spot lights fall off as 1 / d^2.
 * Back faces (drawn for double-sided materials) are shaded with the
 * normal turned towards the viewer, as glTF asks. */
layout(location = 0) in vec3 v_world;
layout(location = 1) in vec3 v_normal;
layout(location = 2) in vec4 v_tangent;
layout(location = 3) in vec2 v_uv;

layout(location = 0) out vec4 o_color;

layout(std140, binding = 0) uniform Model {
    mat4 clip_from_model;
    mat4 world_from_model;
    mat4 world_normal;
    vec4 base_color;
    vec4 emissive;
    vec4 material;
    vec4 mode;
    vec4 eye;
    vec4 light[16];
} u;

layout(binding = 1) uniform sampler2D t_base_color;
layout(binding = 2) uniform sampler2D t_metallic_roughness;
layout(binding = 3) uniform sampler2D t_normal;
layout(binding = 4) uniform sampler2D t_occlusion;
layout(binding = 5) uniform sampler2D t_emissive;

const float PI = 3.14159265;

/* v / |v|, or zero for a zero vector (degenerate file data): no NaN. */
vec3 safe_normalize(vec3 v)
{
    float len = length(v);
    return len > 0.0 ? v / len : vec3(0.0);
}

void main()
{
    int present = int(u.mode.y);
    vec4 base = u.base_color;
    if ((present & 1) != 0)
        base *= texture(t_base_color, v_uv);
    float alpha = 1.0;
    if (u.mode.x == 1.0) {
        if (base.a < u.emissive.w)
            discard;
    } else if (u.mode.x == 2.0) {
        alpha = base.a;
    }

    float metallic = u.material.x, roughness = u.material.y;
    if ((present & 2) != 0) {
        vec4 mr = texture(t_metallic_roughness, v_uv);
        metallic *= mr.b;
        roughness *= mr.g;
    }
    metallic = clamp(metallic, 0.0, 1.0);
    roughness = clamp(roughness, 0.0, 1.0);

    vec3 n = safe_normalize(v_normal);
    float facing = gl_FrontFacing ? 1.0 : -1.0;
    n *= facing;
    if ((present & 4) != 0) {
        vec3 tn = texture(t_normal, v_uv).xyz * 2.0 - 1.0;
        tn.xy *= u.material.z;
        /* Gram-Schmidt: the tangent made perpendicular to the normal. */
        vec3 t = safe_normalize(v_tangent.xyz - n * dot(n, v_tangent.xyz));
        vec3 b = cross(n, t) * v_tangent.w;
        vec3 mapped = safe_normalize(t * tn.x + b * tn.y + n * tn.z);
        if (dot(mapped, mapped) > 0.0)
            n = mapped;
    }

    vec3 v = safe_normalize(u.eye.xyz - v_world);
    vec3 c_diff = base.rgb * (1.0 - metallic);
    vec3 f0 = mix(vec3(0.04), base.rgb, metallic);
    float a = max(roughness * roughness, 0.002); /* roughness 0: a finite highlight, not 0 / 0 */
    float a2 = a * a;
    float n_v = max(dot(n, v), 0.0);

    vec3 color = vec3(0.0);
    int lights = int(u.mode.z);
    for (int i = 0; i < lights; i++) {
        vec4 p = u.light[4 * i];
        vec3 radiance = u.light[4 * i + 1].rgb;
        vec3 l;
        if (p.w == 0.0) {
            l = p.xyz;
        } else {
            vec3 to_light = p.xyz - v_world;
            float d2 = dot(to_light, to_light);
            l = safe_normalize(to_light);
            radiance /= max(d2, 1e-8);
            if (p.w == 2.0) {
                vec4 spot = u.light[4 * i + 2];
                float cone = clamp(dot(spot.xyz, -l) * spot.w + u.light[4 * i + 3].x, 0.0, 1.0);
                radiance *= cone * cone;
            }
        }
        float n_l = max(dot(n, l), 0.0);
        if (n_l <= 0.0)
            continue;
        vec3 h = safe_normalize(l + v);
        float n_h = max(dot(n, h), 0.0);
        float v_h = max(dot(v, h), 0.0);
        float k = 1.0 - v_h;
        vec3 f = f0 + (vec3(1.0) - f0) * (k * k * k * k * k);
        float vis_den = n_l * sqrt(n_v * n_v * (1.0 - a2) + a2) + n_v * sqrt(n_l * n_l * (1.0 - a2) + a2);
        float vis = vis_den > 0.0 ? 0.5 / vis_den : 0.0;
        float dd = n_h * n_h * (a2 - 1.0) + 1.0;
        float d = a2 / (PI * dd * dd);
        vec3 diffuse = (vec3(1.0) - f) * c_diff / PI;
        vec3 specular = f * (vis * d);
        color += radiance * n_l * (diffuse + specular);
    }

    vec3 ambient = u.mode.w * base.rgb;
    if ((present & 8) != 0)
        ambient *= 1.0 + u.material.w * (texture(t_occlusion, v_uv).r - 1.0);
    color += ambient;
    vec3 emissive = u.emissive.rgb;
    if ((present & 16) != 0)
        emissive *= texture(t_emissive, v_uv).rgb;
    color += emissive;
    o_color = vec4(color, alpha);
}
