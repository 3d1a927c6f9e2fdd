import type { ContentItem } from '@stratum/contracts'
import { describe, expect, it } from 'vitest'
import { DEFAULT_CHART, initialChartConfig, readChartConfig } from '../src/features/query-widget/chart'
import { reportLayout, withWidgetChart } from '../src/features/reports/layout'

const reportWith = (layout: unknown) => ({ id: 'r', name: 'R', type: 'report', content: { schema_version: '1.0', sql: '', layout } }) as unknown as ContentItem

describe('readChartConfig', () => {
  it('keeps the fields of the right kind and drops the rest', () => {
    expect(readChartConfig({ type: 'line', view: 'chart', xKey: 'day', yKey: 'total', cumulative: true, showLabels: false, showGrid: true, extra: 1 })).toEqual({
      type: 'line',
      view: 'chart',
      xKey: 'day',
      yKey: 'total',
      cumulative: true,
      showLabels: false,
      showGrid: true,
    })
    expect(readChartConfig({ type: 'pie', view: 'grid', xKey: 3, yKey: '', cumulative: 'yes' })).toEqual({})
    for (const value of [undefined, null, 'line', 42, ['line']]) expect(readChartConfig(value)).toEqual({})
  })
})

describe('initialChartConfig', () => {
  it('starts from the defaults (a bar chart shown as the table)', () => {
    expect(initialChartConfig()).toEqual(DEFAULT_CHART)
    expect(initialChartConfig(undefined, undefined)).toMatchObject({ type: 'bar', view: 'table' })
  })

  it("lets the report widget's settings win over the snippet's, field by field", () => {
    const snippetChart = { type: 'bar', view: 'chart', xKey: 'a', yKey: 'b', showLabels: true }
    const widgetChart = { type: 'area', xKey: 'c' }
    expect(initialChartConfig(snippetChart, widgetChart)).toEqual({ ...DEFAULT_CHART, type: 'area', view: 'chart', xKey: 'c', yKey: 'b', showLabels: true })
  })

  it('ignores a stored type it does not know rather than failing', () => {
    expect(initialChartConfig({ type: 'radar', view: 'chart' }).type).toBe('bar')
  })
})

describe('report layout', () => {
  it('reads widgets with and without chart settings, and skips malformed entries', () => {
    const layout = reportLayout(reportWith([{ snippet_id: 'a' }, { snippet_id: 'b', chart: { type: 'line', bogus: true } }, null, { id: 'c' }, 'd']))
    expect(layout).toEqual([{ snippet_id: 'a' }, { snippet_id: 'b', chart: { type: 'line' } }])
    expect(reportLayout(reportWith(undefined))).toEqual([])
    expect(reportLayout(reportWith({ snippet_id: 'a' }))).toEqual([])
  })

  it('replaces the chart settings of one widget only, even when a snippet is pinned twice', () => {
    const layout = [{ snippet_id: 'a' }, { snippet_id: 'a', chart: { type: 'bar' as const } }, { snippet_id: 'b' }]
    const next = withWidgetChart(layout, 1, { type: 'line', view: 'chart', xKey: 'x', yKey: 'y' })
    expect(next).toEqual([{ snippet_id: 'a' }, { snippet_id: 'a', chart: { type: 'line', view: 'chart', xKey: 'x', yKey: 'y' } }, { snippet_id: 'b' }])
    expect(layout[1]!.chart).toEqual({ type: 'bar' })
  })
})
