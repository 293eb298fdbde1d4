#include "browser/scenario_browser.h"

namespace evx {
namespace {

constexpr int kIdRole = Qt::UserRole;

} // namespace

ScenarioBrowser::ScenarioBrowser(QWidget* parent) : QTreeWidget(parent)
{
    setColumnCount(1);
    setHeaderHidden(true);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setUniformRowHeights(true);
    setMinimumWidth(180);
    connect(this, &QTreeWidget::itemSelectionChanged, this, &ScenarioBrowser::onSelectionChanged);
}

void ScenarioBrowser::setScenarios(const std::vector<ScenarioInfo>& scenarios)
{
    m_silent = true;
    clear();
    m_current.clear();
    // Topics in order of first appearance: the registry's order is the teaching order.
    QList<QTreeWidgetItem*> topics;
    for (const auto& info : scenarios) {
        const QString topic = QString::fromStdString(info.topic);
        QTreeWidgetItem* parent = nullptr;
        for (auto* t : topics)
            if (t->text(0) == topic)
                parent = t;
        if (!parent) {
            parent = new QTreeWidgetItem(this, {topic});
            QFont bold = parent->font(0);
            bold.setBold(true);
            parent->setFont(0, bold);
            parent->setFlags(Qt::ItemIsEnabled);
            topics << parent;
        }
        auto* item = new QTreeWidgetItem(parent, {QString::fromStdString(info.title)});
        item->setData(0, kIdRole, QString::fromStdString(info.id));
        item->setToolTip(0, QString::fromStdString(info.summary));
        item->setStatusTip(0, QString::fromStdString(info.summary));
    }
    expandAll();
    m_silent = false;
}

QTreeWidgetItem* ScenarioBrowser::itemFor(const QString& id) const
{
    for (int t = 0; t < topLevelItemCount(); ++t) {
        QTreeWidgetItem* topic = topLevelItem(t);
        for (int c = 0; c < topic->childCount(); ++c)
            if (topic->child(c)->data(0, kIdRole).toString() == id)
                return topic->child(c);
    }
    return nullptr;
}

void ScenarioBrowser::setCurrent(const QString& id)
{
    m_silent = true;
    QTreeWidgetItem* item = itemFor(id);
    if (item) {
        setCurrentItem(item);
        scrollToItem(item);
        m_current = id;
    } else {
        clearSelection();
        m_current.clear();
    }
    m_silent = false;
}

void ScenarioBrowser::onSelectionChanged()
{
    if (m_silent)
        return;
    const auto selected = selectedItems();
    // Moving the keyboard onto a topic row selects nothing; the running scenario stays.
    if (selected.isEmpty())
        return;
    const QString id = selected.first()->data(0, kIdRole).toString();
    if (id.isEmpty() || id == m_current)
        return;
    m_current = id;
    emit scenarioActivated(id);
}

} // namespace evx
