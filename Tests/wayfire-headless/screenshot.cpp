/*
 * For tests only, loaded into wayfire by scripts/wayfire-headless --screenshot-dir: pictures of
 * what wayfire composites, as PNGs in $WAYFIRE_HEADLESS_SHOTS. On the software GPU
 * (software-gpu.c) wlroots draws into a texture no one can read back through the output's buffer;
 * a post-processing hook makes wayfire render the output into a framebuffer of its own first,
 * which this reads. It writes NNNN.png every $WAYFIRE_HEADLESS_SHOT_INTERVAL ms (none when 0),
 * and the picture named in the file "request" of that directory when the file appears (the
 * script's end.png, as scripts/sway-headless takes with grim). Never part of the product.
 */
#include <wayfire/opengl.hpp>
#include <wayfire/output.hpp>
#include <wayfire/plugin.hpp>
#include <wayfire/render-manager.hpp>
#include <wayfire/util.hpp>

#include <png.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace
{
/* GL gives the rows from the bottom: a negative stride says so to libpng. */
bool write_png(const std::string& path, int width, int height, const std::vector<unsigned char>& pixels)
{
    std::string partial = path + ".partial";
    FILE *file = std::fopen(partial.c_str(), "wb");
    if (!file)
    {
        return false;
    }

    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    image.width   = width;
    image.height  = height;
    image.format  = PNG_FORMAT_RGBA;
    bool written = png_image_write_to_stdio(&image, file, 0, pixels.data(), -(png_int_32)width * 4, nullptr);
    written = (std::fclose(file) == 0) && written;
    return written && (std::rename(partial.c_str(), path.c_str()) == 0);
}
}

class screenshot_t : public wf::plugin_interface_t
{
    std::string directory;
    int interval = 0;
    int number   = 0;
    /* The names of the pictures the next frame is to give. */
    std::vector<std::string> wanted;
    wf::wl_timer numbered, requests;

    wf::post_hook_t hook = [this] (const wf::framebuffer_base_t& source,
                                   const wf::framebuffer_base_t& destination)
    {
        if (!wanted.empty() && (source.viewport_width > 0) && (source.viewport_height > 0))
        {
            int width  = source.viewport_width;
            int height = source.viewport_height;
            std::vector<unsigned char> pixels((size_t)width * height * 4);
            OpenGL::render_begin(source);
            GL_CALL(glPixelStorei(GL_PACK_ALIGNMENT, 1));
            GL_CALL(glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data()));
            OpenGL::render_end();
            for (const auto& name : wanted)
            {
                if (!write_png(directory + "/" + name, width, height, pixels))
                {
                    LOGE("screenshot: could not write ", directory, "/", name);
                }
            }

            wanted.clear();
        }

        OpenGL::render_begin(destination);
        OpenGL::render_transformed_texture(wf::texture_t{source.tex}, gl_geometry{-1, -1, 1, 1},
            gl_geometry{0, 0, 1, 1}, glm::mat4(1.0), glm::vec4(1.0), 0);
        OpenGL::render_end();
    };

    void take(const std::string& name)
    {
        wanted.push_back(name);
        output->render->damage_whole();
    }

  public:
    void init() override
    {
        const char *shots = std::getenv("WAYFIRE_HEADLESS_SHOTS");
        if (!shots)
        {
            return;
        }

        directory = shots;
        const char *every = std::getenv("WAYFIRE_HEADLESS_SHOT_INTERVAL");
        interval = every ? std::atoi(every) : 0;
        output->render->add_post(&hook);
        if (interval > 0)
        {
            numbered.set_timeout(interval, [this] ()
            {
                char name[32];
                std::snprintf(name, sizeof(name), "%04d.png", ++number);
                take(name);
                return true;
            });
        }

        requests.set_timeout(20, [this] ()
        {
            std::string request = directory + "/request";
            std::ifstream file(request);
            std::string name;
            if (file && std::getline(file, name) && !name.empty() &&
                (name.find('/') == std::string::npos))
            {
                std::remove(request.c_str());
                take(name);
            }

            return true;
        });
    }

    void fini() override
    {
        numbered.disconnect();
        requests.disconnect();
        if (!directory.empty())
        {
            output->render->rem_post(&hook);
        }
    }
};

DECLARE_WAYFIRE_PLUGIN(screenshot_t);
