#include "animation_encoders.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <gif_lib.h>
#include <webp/encode.h>
#include <webp/mux.h>

#include <algorithm>
#include <cmath>

namespace evx {
namespace {

QString wrongSize(QSize frame, QSize animation)
{
    return QString("a frame of %1 x %2 pixels in a %3 x %4 animation")
        .arg(frame.width())
        .arg(frame.height())
        .arg(animation.width())
        .arg(animation.height());
}

class WebPSink : public FrameSink {
public:
    WebPSink(const QString& path, QSize size, const FrameSinkOptions& options, QString& error)
        : m_path(path), m_size(size)
    {
        WebPAnimEncoderOptions encoderOptions;
        if (!WebPAnimEncoderOptionsInit(&encoderOptions) || !WebPConfigInit(&m_config)) {
            error = "libwebp is not the version this program was built with";
            return;
        }
        encoderOptions.anim_params.loop_count = options.loop ? 0 : 1; // 0: forever
        encoderOptions.anim_params.bgcolor = 0xffffffff;
        m_config.lossless = 1;
        m_config.exact = 1; // keep every pixel as rendered: the tests compare them with stills
        m_config.method = options.webpMethod;
        m_config.quality = options.webpQuality;
        if (!WebPValidateConfig(&m_config)) {
            error = "libwebp refused the encoder settings";
            return;
        }
        m_encoder = WebPAnimEncoderNew(size.width(), size.height(), &encoderOptions);
        if (!m_encoder)
            error = QString("libwebp cannot encode a %1 x %2 animation").arg(size.width()).arg(size.height());
    }
    ~WebPSink() override
    {
        if (m_encoder)
            WebPAnimEncoderDelete(m_encoder);
    }

    QString add(const QImage& frame, int delayMs) override
    {
        if (frame.size() != m_size)
            return wrongSize(frame.size(), m_size);
        // RGBA8888 is byte-ordered R, G, B, A on every platform, as WebPPictureImportRGBA reads it.
        const QImage rgba = frame.convertToFormat(QImage::Format_RGBA8888);
        WebPPicture picture;
        if (!WebPPictureInit(&picture))
            return "libwebp is not the version this program was built with";
        picture.use_argb = 1;
        picture.width = m_size.width();
        picture.height = m_size.height();
        QString error;
        if (!WebPPictureImportRGBA(&picture, rgba.constBits(), int(rgba.bytesPerLine())))
            error = "libwebp: out of memory importing a frame";
        else if (!WebPAnimEncoderAdd(m_encoder, &picture, m_timestampMs, &m_config))
            error = QString("libwebp: %1").arg(WebPAnimEncoderGetError(m_encoder));
        WebPPictureFree(&picture);
        m_timestampMs += delayMs;
        return error;
    }

    QString finish() override
    {
        // A last, empty frame at the end time gives the last real frame its duration.
        if (!WebPAnimEncoderAdd(m_encoder, nullptr, m_timestampMs, nullptr))
            return QString("libwebp: %1").arg(WebPAnimEncoderGetError(m_encoder));
        WebPData data;
        WebPDataInit(&data);
        if (!WebPAnimEncoderAssemble(m_encoder, &data))
            return QString("libwebp: %1").arg(WebPAnimEncoderGetError(m_encoder));
        QString error;
        QSaveFile file(m_path);
        if (!file.open(QIODevice::WriteOnly))
            error = QString("cannot write %1: %2").arg(m_path, file.errorString());
        else if (file.write(reinterpret_cast<const char*>(data.bytes), qint64(data.size)) !=
                     qint64(data.size) ||
                 !file.commit())
            error = QString("cannot write %1: %2; the previous file, if any, is unchanged")
                        .arg(m_path, file.errorString());
        WebPDataClear(&data);
        return error;
    }

private:
    QString m_path;
    QSize m_size;
    WebPConfig m_config;
    WebPAnimEncoder* m_encoder = nullptr;
    int m_timestampMs = 0;
};

// giflib writes through this into the QSaveFile, so each frame leaves memory as it is added.
int writeToSaveFile(GifFileType* gif, const GifByteType* bytes, int length)
{
    auto* file = static_cast<QSaveFile*>(gif->UserData);
    return int(file->write(reinterpret_cast<const char*>(bytes), length));
}

class GifSink : public FrameSink {
public:
    GifSink(const QString& path, QSize size, const FrameSinkOptions& options, QString& error)
        : m_path(path), m_size(size), m_file(path)
    {
        if (!m_file.open(QIODevice::WriteOnly)) {
            error = QString("cannot write %1: %2").arg(path, m_file.errorString());
            return;
        }
        int code = 0;
        m_gif = EGifOpen(&m_file, writeToSaveFile, &code);
        if (!m_gif) {
            error = QString("giflib: %1").arg(GifErrorString(code));
            return;
        }
        EGifSetGifVersion(m_gif, true); // GIF89a: delays and the loop extension
        // No global colour table: each frame carries the palette Qt chose for it.
        if (EGifPutScreenDesc(m_gif, size.width(), size.height(), 8, 0, nullptr) == GIF_ERROR) {
            error = failure();
            return;
        }
        if (options.loop) {
            // The NETSCAPE2.0 application extension: sub-block 1, loop count 0 = forever.
            static const GifByteType application[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
            static const GifByteType loopForever[] = {1, 0, 0};
            if (EGifPutExtensionLeader(m_gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
                EGifPutExtensionBlock(m_gif, sizeof application, application) == GIF_ERROR ||
                EGifPutExtensionBlock(m_gif, sizeof loopForever, loopForever) == GIF_ERROR ||
                EGifPutExtensionTrailer(m_gif) == GIF_ERROR)
                error = failure();
        }
    }
    ~GifSink() override
    {
        if (m_gif) {
            int code = 0;
            EGifCloseFile(m_gif, &code);
        }
        if (!m_committed)
            m_file.cancelWriting();
    }

    QString add(const QImage& frame, int delayMs) override
    {
        if (frame.size() != m_size)
            return wrongSize(frame.size(), m_size);
        const QImage indexed = gifFrame(frame);
        const QList<QRgb> colours = indexed.colorTable();
        // A GIF colour table has a power of two entries; Qt's may have fewer.
        int bits = 1;
        while ((1 << bits) < colours.size())
            ++bits;
        ColorMapObject* map = GifMakeMapObject(1 << bits, nullptr);
        if (!map)
            return "giflib: out of memory for a colour table";
        for (int i = 0; i < colours.size(); ++i)
            map->Colors[i] = {GifByteType(qRed(colours[i])), GifByteType(qGreen(colours[i])),
                              GifByteType(qBlue(colours[i]))};
        GraphicsControlBlock control{DISPOSE_DO_NOT, false, gifDelayCentiseconds(delayMs),
                                     NO_TRANSPARENT_COLOR};
        GifByteType extension[4];
        EGifGCBToExtension(&control, extension);
        bool ok = EGifPutExtension(m_gif, GRAPHICS_EXT_FUNC_CODE, sizeof extension, extension) != GIF_ERROR &&
                  EGifPutImageDesc(m_gif, 0, 0, m_size.width(), m_size.height(), false, map) != GIF_ERROR;
        GifFreeMapObject(map);
        for (int y = 0; ok && y < m_size.height(); ++y)
            ok = EGifPutLine(m_gif, const_cast<GifPixelType*>(indexed.constScanLine(y)), m_size.width()) !=
                 GIF_ERROR;
        return ok ? QString() : failure();
    }

    QString finish() override
    {
        int code = 0;
        const bool closed = EGifCloseFile(m_gif, &code) != GIF_ERROR;
        m_gif = nullptr; // freed by EGifCloseFile either way
        if (!closed)
            return QString("cannot write %1: %2")
                .arg(m_path, m_file.error() != QFileDevice::NoError ? m_file.errorString()
                                                                    : QString(GifErrorString(code)));
        if (m_file.error() != QFileDevice::NoError || !m_file.commit())
            return QString("cannot write %1: %2; the previous file, if any, is unchanged")
                .arg(m_path, m_file.errorString());
        m_committed = true;
        return {};
    }

private:
    QString failure() const
    {
        // A failed write shows as giflib's write error; the file says why.
        if (m_file.error() != QFileDevice::NoError)
            return QString("cannot write %1: %2").arg(m_path, m_file.errorString());
        return QString("giflib: %1").arg(GifErrorString(m_gif ? m_gif->Error : 0));
    }

    QString m_path;
    QSize m_size;
    QSaveFile m_file;
    GifFileType* m_gif = nullptr;
    bool m_committed = false;
};

class FramesSink : public FrameSink {
public:
    FramesSink(const QString& folder, QString& error) : m_folder(folder)
    {
        if (!QDir().mkpath(folder))
            error = QString("cannot create the folder %1").arg(folder);
    }

    QString add(const QImage& frame, int) override
    {
        ++m_count;
        const QString path = QDir(m_folder).filePath(QString("frame-%1.png").arg(m_count, 4, 10, QChar('0')));
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return QString("cannot write %1: %2").arg(path, file.errorString());
        if (!frame.save(&file, "PNG") || !file.commit())
            return QString("cannot write %1: %2").arg(path, file.errorString());
        return {};
    }

    QString finish() override
    {
        // Frames of an earlier, longer export would play on after this one: remove them.
        const QDir dir(m_folder);
        for (const QString& name : dir.entryList({"frame-*.png"}, QDir::Files)) {
            bool ok = false;
            const int number = name.mid(6, name.size() - 10).toInt(&ok);
            if (ok && number > m_count && !QFile::remove(dir.filePath(name)))
                return QString("cannot remove the old frame %1").arg(dir.filePath(name));
        }
        return {};
    }

private:
    QString m_folder;
    int m_count = 0;
};

} // namespace

QImage gifFrame(const QImage& frame)
{
    // Qt keeps the exact colours when there are at most 256 (a plot drawn without antialiased
    // edges); otherwise it maps to a 6 x 6 x 6 cube. Ordered dithering mixes cube colours into
    // the plot's own with a pattern fixed to the pixel grid, so what does not move between
    // frames keeps its pixels (no shimmer, and a GIF's LZW compresses it alike); diffusion would
    // let every change ripple across the frame. RGB32 first: Qt always quantises ARGB32.
    return frame.convertToFormat(QImage::Format_RGB32)
        .convertToFormat(QImage::Format_Indexed8, Qt::OrderedDither | Qt::AvoidDither);
}

int gifDelayCentiseconds(int delayMs)
{
    return std::max(1, int(std::lround(delayMs / 10.0)));
}

std::unique_ptr<FrameSink> openFrameSink(AnimationFormat format, const QString& path, QSize size,
                                         const FrameSinkOptions& options, QString& error)
{
    error.clear();
    std::unique_ptr<FrameSink> sink;
    switch (format) {
    case AnimationFormat::WebP:
        sink = std::make_unique<WebPSink>(path, size, options, error);
        break;
    case AnimationFormat::Gif:
        sink = std::make_unique<GifSink>(path, size, options, error);
        break;
    case AnimationFormat::Frames:
        sink = std::make_unique<FramesSink>(path, error);
        break;
    case AnimationFormat::Filmstrip:
        error = "a filmstrip is not an animation";
        break;
    }
    if (!error.isEmpty())
        sink.reset();
    return sink;
}

} // namespace evx
