#include "export_dialog.h"

#include "exporter.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>

#include <cmath>
#include <variant>

namespace evx {

namespace {

const QString kScreen = QStringLiteral("screen");
const QString kCustom = QStringLiteral("custom");

QDoubleSpinBox* spinBox(double lo, double hi, int decimals, const QString& suffix)
{
    auto* box = new QDoubleSpinBox;
    box->setRange(lo, hi);
    box->setDecimals(decimals);
    box->setSuffix(suffix);
    box->setKeyboardTracking(false);
    return box;
}

} // namespace

ExportDialog::ExportDialog(const QString& scenarioId, const Figure& figure, QSize windowPixels,
                           double windowFontPt, QWidget* parent)
    : QDialog(parent), m_figure(figure), m_windowPixels(windowPixels), m_windowFontPt(windowFontPt)
{
    setWindowTitle(tr("Export Figure or Data"));
    QSettings settings;

    m_path =
        new QLineEdit(QDir(settings.value("export/folder", QDir::homePath()).toString())
                          .filePath(scenarioId + "." + settings.value("export/suffix", "pdf").toString()));
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    // The row's label is the layout's buddy, not the line edit's: a screen reader needs the name.
    m_path->setAccessibleName(tr("File"));
    pathRow->addWidget(browse);

    m_choice = new QComboBox;
    m_choice->addItem(tr("As on screen (%1 x %2 px)").arg(windowPixels.width()).arg(windowPixels.height()),
                      kScreen);
    for (const FigureSizePreset& p : figureSizePresets())
        m_choice->addItem(p.description.isEmpty() ? p.name : QString("%1: %2").arg(p.name, p.description),
                          p.name);
    m_choice->addItem(tr("Custom size"), kCustom);
    m_width = spinBox(10, 1000, 1, tr(" mm"));
    m_height = spinBox(0, 1000, 1, tr(" mm"));
    m_height->setSpecialValueText(tr("to suit the figure"));
    m_font = spinBox(4, 72, 1, tr(" pt"));
    m_dpi = spinBox(36, kMaxPrintDpi, 0, tr(" dpi"));
    m_dpi->setToolTip(tr("Pixels per inch of a PNG; PDF and SVG are vector"));

    const int at = m_choice->findData(settings.value("export/size", "single-column").toString());
    m_choice->setCurrentIndex(at >= 0 ? at : 1);
    choiceChanged();
    if (m_choice->currentData().toString() == kCustom)
        m_width->setValue(settings.value("export/widthMm", 120.0).toDouble());
    if (settings.contains("export/heightMm"))
        m_height->setValue(settings.value("export/heightMm").toDouble());
    if (settings.contains("export/fontPt"))
        m_font->setValue(settings.value("export/fontPt").toDouble());
    if (settings.contains("export/dpi"))
        m_dpi->setValue(settings.value("export/dpi").toDouble());

    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);

    auto* form = new QFormLayout(this);
    form->addRow(tr("&File:"), pathRow);
    form->addRow(tr("&Size:"), m_choice);
    form->addRow(tr("&Width:"), m_width);
    form->addRow(tr("&Height:"), m_height);
    form->addRow(tr("&Text:"), m_font);
    form->addRow(tr("&Resolution:"), m_dpi);
    form->addRow(m_summary);
    form->addRow(m_buttons);

    connect(m_choice, &QComboBox::currentIndexChanged, this, &ExportDialog::choiceChanged);
    for (QDoubleSpinBox* box : {m_width, m_height, m_font, m_dpi})
        connect(box, &QDoubleSpinBox::valueChanged, this, &ExportDialog::update);
    connect(m_path, &QLineEdit::textChanged, this, &ExportDialog::update);
    update();
}

QString ExportDialog::path() const
{
    return m_path->text();
}

void ExportDialog::setPath(const QString& path)
{
    m_path->setText(path);
}

void ExportDialog::choiceChanged()
{
    const QString choice = m_choice->currentData().toString();
    const bool screen = choice == kScreen;
    m_width->setEnabled(choice == kCustom);
    for (QDoubleSpinBox* box : {m_height, m_font, m_dpi})
        box->setEnabled(!screen);
    const QSignalBlocker blockers[] = {QSignalBlocker(m_width), QSignalBlocker(m_height),
                                       QSignalBlocker(m_font), QSignalBlocker(m_dpi)};
    if (screen) {
        const PrintSize size = PrintSize::fromPixels(m_windowPixels, m_windowFontPt);
        m_width->setValue(size.widthMm);
        m_height->setValue(size.heightMm);
        m_font->setValue(m_windowFontPt);
        m_dpi->setValue(PrintSize::kScreenDpi);
    } else {
        for (const FigureSizePreset& p : figureSizePresets()) {
            if (p.name != choice)
                continue;
            m_width->setValue(p.widthMm);
            m_height->setValue(p.heightMm);
            m_font->setValue(p.fontPt);
            m_dpi->setValue(p.dpi);
        }
        if (choice == kCustom) {
            m_font->setValue(kDefaultPrintFontPt);
            m_dpi->setValue(kDefaultPrintDpi);
        }
    }
    if (m_summary)
        update();
}

void ExportDialog::update()
{
    const QString choice = m_choice->currentData().toString();
    const auto format = exportFormatFor(path());
    m_valid = false;
    if (!format) {
        m_problem = tr("The file name must end in one of: %1").arg(exportFormatList());
    } else if (choice == kScreen) {
        m_size = PrintSize::fromPixels(m_windowPixels, m_windowFontPt);
        m_valid = true;
    } else {
        PrintRequest request;
        if (choice == kCustom)
            request.widthMm = m_width->value();
        else
            request.preset = choice;
        if (m_height->value() > 0)
            request.heightMm = m_height->value();
        request.fontPt = m_font->value();
        request.dpi = m_dpi->value();
        const auto resolved = resolvePrintSize(request, m_figure, format == ExportFormat::Png);
        if (const auto* why = std::get_if<QString>(&resolved)) {
            m_problem = *why;
        } else {
            m_size = std::get<PrintSize>(resolved);
            m_valid = true;
        }
    }
    if (m_valid) {
        m_problem.clear();
        const QSize px = m_size.pixels();
        QString text;
        if (format == ExportFormat::Png)
            text = tr("%1 x %2 px at %3 dpi (%4 x %5 mm), %6 pt text")
                       .arg(px.width())
                       .arg(px.height())
                       .arg(m_size.dpi)
                       .arg(m_size.widthMm, 0, 'f', 1)
                       .arg(m_size.heightMm, 0, 'f', 1)
                       .arg(m_size.fontPt);
        else if (format == ExportFormat::Pdf || format == ExportFormat::Svg)
            text = tr("%1 x %2 mm (%3 x %4 pt), %5 pt text, vector")
                       .arg(m_size.widthMm, 0, 'f', 1)
                       .arg(m_size.heightMm, 0, 'f', 1)
                       .arg(m_size.widthPt(), 0, 'f', 1)
                       .arg(m_size.heightPt(), 0, 'f', 1)
                       .arg(m_size.fontPt);
        else
            text = tr("Numbers, not a picture: the size does not apply");
        m_summary->setText(text);
        m_summary->setStyleSheet({});
    } else {
        m_summary->setText(m_problem);
        m_summary->setStyleSheet("color: #c62828");
    }
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_valid);
}

void ExportDialog::browse()
{
    QString selectedFilter;
    QString chosen = QFileDialog::getSaveFileName(this, tr("Export Figure or Data"), path(),
                                                  exportFileFilter(), &selectedFilter);
    if (chosen.isEmpty())
        return;
    if (!exportFormatFor(chosen)) {
        const int star = selectedFilter.indexOf("*.");
        chosen += selectedFilter.mid(star + 1, selectedFilter.indexOf(')', star) - star - 1);
    }
    setPath(chosen);
}

void ExportDialog::accept()
{
    update();
    if (!m_valid)
        return;
    QSettings settings;
    settings.setValue("export/folder", QFileInfo(path()).absolutePath());
    settings.setValue("export/suffix", QFileInfo(path()).suffix().toLower());
    settings.setValue("export/size", m_choice->currentData().toString());
    if (m_choice->currentData().toString() != kScreen) {
        settings.setValue("export/widthMm", m_width->value());
        settings.setValue("export/heightMm", m_height->value());
        settings.setValue("export/fontPt", m_font->value());
        settings.setValue("export/dpi", m_dpi->value());
    }
    QDialog::accept();
}

} // namespace evx
