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
