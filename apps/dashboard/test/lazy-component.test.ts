import { createElement, type ComponentType } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { lazyComponent } from '../src/lib/lazyComponent'

/*
 * A component on demand renders straight away once its chunk is there (preloaded, or shown before), and otherwise
 * its fallback until then, without Suspense: React's 300 ms hold on a boundary's content after its fallback does
 * not apply (bench/panels, bench/table-editor). The load that follows a first render runs in an effect, which
 * renderToString does not run: the e2e specs that open the side panels, the grids and the charts cover it.
 */

const Greeting: ComponentType<{ name: string }> = ({ name }) => createElement('p', null, `hello ${name}`)

describe('lazyComponent', () => {
  it('shows its fallback until the chunk is there, then the component itself, loading the chunk once', async () => {
    let loads = 0
    const OnDemand = lazyComponent(async () => {
      loads++
      return Greeting
    }, createElement('span', null, 'loading'))
    expect(renderToString(createElement(OnDemand, { name: 'a' }))).toContain('loading')
    await OnDemand.preload()
    await OnDemand.preload()
    expect(renderToString(createElement(OnDemand, { name: 'b' }))).toBe('<p>hello b</p>')
    expect(loads).toBe(1)
  })

  it('loads again after a failed load', async () => {
    let attempts = 0
    const OnDemand = lazyComponent(async () => {
      attempts++
      if (attempts === 1) throw new Error('chunk gone')
      return Greeting
    }, null)
    await expect(OnDemand.preload()).rejects.toThrow('chunk gone')
    await OnDemand.preload()
    expect(renderToString(createElement(OnDemand, { name: 'c' }))).toBe('<p>hello c</p>')
    expect(attempts).toBe(2)
  })
})
