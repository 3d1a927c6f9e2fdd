import { describe, expect, it } from 'vitest'
import { widgetIsAt, withoutWidget } from '../src/features/reports/layout'

describe('report layout changes made on a page not yet re-rendered', () => {
  const layout = [{ snippet_id: 'a' }, { snippet_id: 'b', chart: { type: 'bar' as const } }, { snippet_id: 'c' }]

  it('unpins the widget shown at the index', () => {
    expect(withoutWidget(layout, 1, 'b')).toEqual([{ snippet_id: 'a' }, { snippet_id: 'c' }])
    expect(layout).toHaveLength(3)
  })

  it('leaves the layout as it is when that widget is no longer there (a second Unpin clicked before the page re-rendered)', () => {
    const afterFirst = withoutWidget(layout, 1, 'b')
    // The stale page still shows b at index 1: the click must not unpin c, which is there now.
    expect(widgetIsAt(afterFirst, 1, 'b')).toBe(false)
    expect(withoutWidget(afterFirst, 1, 'b')).toEqual(afterFirst)
    expect(withoutWidget(afterFirst, 5, 'b')).toEqual(afterFirst)
  })

  it('tells a widget pinned twice apart by its place', () => {
    const twice = [{ snippet_id: 'a' }, { snippet_id: 'a' }]
    expect(widgetIsAt(twice, 1, 'a')).toBe(true)
    expect(withoutWidget(twice, 1, 'a')).toEqual([{ snippet_id: 'a' }])
  })
})
