#pragma once
// Where animation frames go, one at a time (animation.cpp renders them): a WebP through
// libwebp's WebPAnimEncoder, a GIF through giflib, or a folder of numbered PNGs. No sink keeps
// a frame's pixels after add() returns: WebP keeps each frame compressed, GIF writes it out at
// once, so a 300-frame 1080p sweep costs one frame of pixels plus the compressed file.
// Files are written atomically: beside the target first, renamed over it only by finish().

#include <QImage>
#include <QString>

#include <memory>

namespace evx {

enum class AnimationFormat { WebP, Gif, Frames, Filmstrip };

class FrameSink {
public:
    virtual ~FrameSink() = default;
    // Each returns "" or the one-line reason it failed; after a failure only the destructor is
    // called, which leaves any old target untouched.
    virtual QString add(const QImage& frame, int delayMs) = 0;
    virtual QString finish() = 0;
};

struct FrameSinkOptions {
    bool loop = true; // forever; false plays once (GIF: no NETSCAPE2.0 extension)
    // WebP: lossless at method 0 and quality 0, the fastest effort; at 1080p larger efforts
    // cost several times the time per frame for 10-20 % smaller files.
    int webpMethod = 0;
    float webpQuality = 0;
};

// The sink for `path` (a folder for Frames, its trailing slash optional); nullptr and `error`
// set if it cannot be opened. Filmstrip is not a frame sink.
std::unique_ptr<FrameSink> openFrameSink(AnimationFormat format, const QString& path, QSize size,
                                         const FrameSinkOptions& options, QString& error);

// The frame as the GIF stores it: Qt's colour reduction to 256 colours (what tests compare with).
QImage gifFrame(const QImage& frame);
// GIF delays are in hundredths of a second: the nearest, at least 1 (browsers play 0 as 100 ms).
int gifDelayCentiseconds(int delayMs);

} // namespace evx
