import type { ContentItem } from '@stratum/contracts'
import { readChartConfig, type ChartConfig } from '../query-widget'

/** One pinned snippet of a report, with the view and chart settings chosen for it on this report. */
export interface ReportWidget {
  snippet_id: string
  chart?: ChartConfig
}

export interface ReportContent {
  schema_version: '1.0'
  layout: ReportWidget[]
}

/** The layout of a report: content.layout (declared by the content contract); chart settings read field by field. */
export function reportLayout(item: ContentItem): ReportWidget[] {
  const layout = (item.content as Partial<ReportContent> | undefined)?.layout
  if (!Array.isArray(layout)) return []
  return layout
    .filter((widget) => typeof widget?.snippet_id === 'string')
    .map((widget) => (widget.chart === undefined ? { snippet_id: widget.snippet_id } : { snippet_id: widget.snippet_id, chart: readChartConfig(widget.chart) }))
}

/** The layout with one widget's chart settings replaced (the others as they are). */
export function withWidgetChart(layout: readonly ReportWidget[], index: number, chart: ChartConfig): ReportWidget[] {
  return layout.map((widget, i) => (i === index ? { ...widget, chart: readChartConfig(chart) } : widget))
}

/**
 * Whether the widget shown at `index` (pinning `snippetId`) is still there in the layout as last changed: a click on a
 * page not yet re-rendered after an unpin would otherwise change or unpin its neighbour.
 */
export function widgetIsAt(layout: readonly ReportWidget[], index: number, snippetId: string): boolean {
  return layout[index]?.snippet_id === snippetId
}

/** The layout without the widget shown at `index`; unchanged when it is no longer there (see widgetIsAt). */
export function withoutWidget(layout: readonly ReportWidget[], index: number, snippetId: string): ReportWidget[] {
  return widgetIsAt(layout, index, snippetId) ? layout.filter((_, i) => i !== index) : [...layout]
}
