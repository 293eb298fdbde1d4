#include "animation_dialog.h"

#include "plot/plot_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <cmath>

namespace evx {

AnimationDialog::AnimationDialog(std::shared_ptr<const Scenario> scenario, const RunInput& input,
                                 QSize pixels, double fontPt, QWidget* parent)
    : QDialog(parent), m_scenario(std::move(scenario)), m_input(input), m_pixels(pixels), m_fontPt(fontPt)
{
    setWindowTitle(tr("Export Animation"));
    QSettings settings;
    const QString id = QString::fromStdString(m_scenario->info().id);
    m_path = new QLineEdit(QDir(settings.value("animation/folder", QDir::homePath()).toString())
                               .filePath(id + "." + settings.value("animation/suffix", "webp").toString()));
    m_path->setAccessibleName(tr("File"));
    auto* browse = new QPushButton(tr("Browse…"));
    browse->setAccessibleName(tr("Browse for the file"));
    connect(browse, &QPushButton::clicked, this, &AnimationDialog::browse);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);

    // Only numbers sweep smoothly: a choice or a switch has no values in between.
    m_parameter = new QComboBox;
    for (const ParameterSpec& p : m_scenario->schema().specs())
        if (p.kind == ParameterKind::Real || p.kind == ParameterKind::Integer)
            m_parameter->addItem(QString::fromStdString(p.label), QString::fromStdString(p.name));
    m_parameter->setAccessibleName(tr("Parameter to sweep"));
    m_from = new QDoubleSpinBox;
    m_from->setAccessibleName(tr("From"));
    m_to = new QDoubleSpinBox;
    m_to->setAccessibleName(tr("To"));
    m_frames = new QSpinBox;
    m_frames->setRange(kMinAnimationFrames, kMaxAnimationFrames);
    m_frames->setValue(60);
    m_frames->setAccessibleName(tr("Frames"));
    m_fps = new QSpinBox;
    m_fps->setRange(1, kMaxAnimationFps);
    m_fps->setValue(kDefaultAnimationFps);
    m_fps->setSuffix(tr(" frames/s"));
    m_fps->setAccessibleName(tr("Frame rate"));
    m_hold = new QSpinBox;
    m_hold->setRange(0, kMaxAnimationHoldMs);
    m_hold->setSingleStep(250);
    m_hold->setValue(1000);
    m_hold->setSuffix(tr(" ms"));
    m_hold->setAccessibleName(tr("Hold on the last frame"));
    m_loop = new QCheckBox(tr("&Loop forever"));
    m_loop->setChecked(true);
    m_loop->setAccessibleName(tr("Loop forever"));
    m_summary = new QLabel;
    m_summary->setWordWrap(true);

    auto* form = new QFormLayout;
    form->addRow(tr("&File (.webp, .gif, or folder/ for PNG frames):"), pathRow);
    form->addRow(tr("&Parameter:"), m_parameter);
    form->addRow(tr("F&rom:"), m_from);
    form->addRow(tr("&To:"), m_to);
    form->addRow(tr("Fra&mes:"), m_frames);
    form->addRow(tr("Frame r&ate:"), m_fps);
    form->addRow(tr("&Hold last frame:"), m_hold);
    form->addRow(QString(), m_loop);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    m_buttons->button(QDialogButtonBox::Ok)->setAccessibleName(tr("Export"));
    m_buttons->button(QDialogButtonBox::Cancel)->setAccessibleName(tr("Cancel"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &AnimationDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(m_buttons);

    connect(m_parameter, &QComboBox::currentIndexChanged, this, &AnimationDialog::parameterChanged);
    for (QDoubleSpinBox* box : {m_from, m_to})
        connect(box, &QDoubleSpinBox::valueChanged, this, &AnimationDialog::update);
    for (QSpinBox* box : {m_frames, m_fps, m_hold})
        connect(box, &QSpinBox::valueChanged, this, &AnimationDialog::update);
    connect(m_path, &QLineEdit::textChanged, this, &AnimationDialog::update);
    const int remembered = m_parameter->findData(settings.value("animation/parameter/" + id).toString());
    m_parameter->setCurrentIndex(remembered >= 0 ? remembered : 0);
    parameterChanged();
}

QString AnimationDialog::path() const
{
    return m_path->text().trimmed();
}

void AnimationDialog::setPath(const QString& path)
{
    m_path->setText(path);
}

void AnimationDialog::parameterChanged()
{
    const ParameterSpec* p = m_scenario->schema().find(m_parameter->currentData().toString().toStdString());
    if (!p)
        return update();
    const int decimals = p->kind == ParameterKind::Integer ? 0 : std::max(p->decimals, 0);
    for (QDoubleSpinBox* box : {m_from, m_to}) {
        const QSignalBlocker block(box);
        box->setDecimals(decimals);
        box->setRange(p->minimum, p->maximum);
        box->setSingleStep(p->step > 0 ? p->step : 1);
        box->setSuffix(p->unit.empty() ? QString() : " " + QString::fromStdString(p->unit));
    }
    // Its whole range: the widest sweep, and the user narrows it.
    {
        const QSignalBlocker a(m_from), b(m_to);
        m_from->setValue(p->minimum);
        m_to->setValue(p->maximum);
    }
    update();
}

AnimationJob AnimationDialog::job() const
{
    AnimationJob job;
    job.scenario = m_scenario.get();
    job.input = m_input;
    job.settings.parameter = m_parameter->currentData().toString().toStdString();
    job.settings.from = m_from->value();
    job.settings.to = m_to->value();
    job.settings.frames = m_frames->value();
    job.settings.fps = m_fps->value();
    job.settings.holdMs = m_hold->value();
    job.settings.loop = m_loop->isChecked();
    job.size = PrintSize::fromPixels(m_pixels, m_fontPt);
    return job;
}

QString AnimationDialog::problem() const
{
    if (m_parameter->count() == 0)
        return tr("This scenario has no numeric parameter to sweep.");
    if (path().isEmpty() || !animationFormatFor(path(), false))
        return tr("Name a .webp or .gif file, or a folder ending in / for PNG frames.");
    if (m_from->value() == m_to->value())
        return tr("From and To are the same value: nothing would move.");
    return {};
}

void AnimationDialog::update()
{
    const QString why = problem();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
    const double seconds =
        (m_frames->value() * std::lround(1000.0 / m_fps->value()) + m_hold->value()) / 1000.0;
    m_summary->setText(why.isEmpty() ? tr("%1 frames of %2 x %3 pixels, %4 s per loop.")
                                           .arg(m_frames->value())
                                           .arg(m_pixels.width())
                                           .arg(m_pixels.height())
                                           .arg(seconds, 0, 'g', 3)
                                     : why);
}

void AnimationDialog::browse()
{
    const QString chosen = QFileDialog::getSaveFileName(this, tr("Export Animation"), path(),
                                                        tr("Animated WebP (*.webp);;Animated GIF (*.gif)"));
    if (!chosen.isEmpty())
        setPath(chosen);
}

QString AnimationDialog::exportNow()
{
    if (const QString why = problem(); !why.isEmpty())
        return why;
    const AnimationJob job = this->job();
    const int frames = job.settings.frames;
    QProgressDialog progress(tr("Computing the frames…"), tr("Cancel"), 0, 2 * frames, this);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(500);
    std::atomic<bool> cancel{false};
    std::atomic<int> computed{0};
    connect(&progress, &QProgressDialog::canceled, this, [&cancel] { cancel.store(true); });

    // The GUI thread never computes (DESIGN.md): the runs go to a worker, the window stays live.
    QFutureWatcher<std::variant<std::vector<Figure>, QString>> watcher;
    QEventLoop loop;
    connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, &progress, [&] { progress.setValue(computed.load()); });
    ticker.start(100);
    watcher.setFuture(QtConcurrent::run([&job, &cancel, &computed] {
        return computeAnimationFigures(job, cancel,
                                       [&computed](const char*, int done, int) { computed.store(done); });
    }));
    loop.exec();
    ticker.stop();
    const auto figures = watcher.result();
    if (const auto* why = std::get_if<QString>(&figures))
        return *why;

    progress.setLabelText(tr("Drawing and encoding the frames…"));
    PlotView view; // offscreen: the window's own view keeps its figure and zoom
    view.resize(m_pixels);
    view.setTheme(m_highContrast ? PlotView::Theme::HighContrast : PlotView::Theme::Standard);
    view.setHiddenSeries(m_hidden);
    return writeAnimation(path(), job, std::get<std::vector<Figure>>(figures), view, cancel,
                          [&](const char*, int done, int) {
                              progress.setValue(frames + done);
                              QCoreApplication::processEvents(); // Cancel stays clickable
                          });
}

void AnimationDialog::accept()
{
    const QString error = exportNow();
    if (error == kAnimationCancelled)
        return; // stays open: the user may change something and try again
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Cannot export the animation"), error);
        return;
    }
    QSettings settings;
    const QFileInfo info(path());
    settings.setValue("animation/folder", info.absolutePath());
    if (!path().endsWith('/'))
        settings.setValue("animation/suffix", info.suffix().toLower());
    settings.setValue("animation/parameter/" + QString::fromStdString(m_scenario->info().id),
                      m_parameter->currentData());
    QDialog::accept();
}

} // namespace evx
