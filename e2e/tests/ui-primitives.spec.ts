import { type Locator, type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { healthyProject, signIn } from './helpers'

/**
 * The shared tooltip and popover (components/ui/Tooltip and Popover, on Radix): keyboard, outside
 * click, and that they stay attached to their trigger when the page scrolls.
 */

/** A short window, so that the project pages scroll; the copy button may write to the clipboard. */
test.use({ viewport: { width: 1280, height: 420 }, permissions: ['clipboard-read', 'clipboard-write'] })

/**
 * Scrolls the nearest scrolling ancestor of `element` by a few pixels (up if it can, else down),
 * and waits until the element has moved. Returns how far it moved.
 */
async function scrollAround(page: Page, element: Locator): Promise<number> {
  const before = (await element.boundingBox())!.y
  const scrolled = await element.evaluate((node) => {
    let box: Element | null = node.parentElement
    while (box && !(/(auto|scroll)/.test(getComputedStyle(box).overflowY) && box.scrollHeight > box.clientHeight)) box = box.parentElement
    const scroller = box ?? document.scrollingElement!
    const by = scroller.scrollTop >= 40 ? -40 : 40
    scroller.scrollBy(0, by)
    return by
  })
  await expect.poll(async () => (await element.boundingBox())!.y).toBeCloseTo(before - scrolled, 0)
  return scrolled
}

/** Where `floating` sits relative to `anchor` (top-left corners). */
async function offset(anchor: Locator, floating: Locator): Promise<{ x: number; y: number }> {
  const [a, f] = [(await anchor.boundingBox())!, (await floating.boundingBox())!]
  return { x: f.x - a.x, y: f.y - a.y }
}

/**
 * The offset once `floating` has stopped moving: the tooltip slides 2 px as it opens (a 120 ms animation), and a busy
 * machine may read its box during that. Its opening animations finished, then two reads a frame apart that agree.
 */
async function settledOffset(anchor: Locator, floating: Locator): Promise<{ x: number; y: number }> {
  await floating.evaluate(async (node) => {
    const animations: Animation[] = []
    for (let element: Element | null = node; element; element = element.parentElement) animations.push(...element.getAnimations())
    const finite = animations.filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)))
  })
  let last = await offset(anchor, floating)
  await expect
    .poll(async () => {
      await floating.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))))
      const now = await offset(anchor, floating)
      const same = Math.abs(now.x - last.x) < 0.5 && Math.abs(now.y - last.y) < 0.5
      last = now
      return same
    })
    .toBe(true)
  return last
}

/**
 * True when `floating` sits where it sat before, within a pixel: after a scroll both boxes land on
 * fractional positions that round either way.
 */
async function stillAttached(anchor: Locator, floating: Locator, before: { x: number; y: number }): Promise<boolean> {
  const now = await offset(anchor, floating)
  return Math.abs(now.x - before.x) <= 1 && Math.abs(now.y - before.y) <= 1
}

test('tooltip: shown on keyboard focus and hover, closed by Escape, blur and an outside click, attached to its trigger on scroll', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'UI primitives')
  await page.goto(`/project/${project.ref}/settings/general`)
  const projectId = page.getByLabel('Project ID', { exact: true })
  await expect(projectId).toHaveValue(project.ref)
  const copy = page.getByRole('button', { name: 'Copy project id' })
  const tooltip = page.getByRole('tooltip')
  await copy.evaluate((node) => node.scrollIntoView({ block: 'center' }))

  // A mouse click focusing a control does not show its text; Tab to it does.
  await projectId.click()
  await expect(tooltip).toHaveCount(0)
  await page.keyboard.press('Tab')
  await expect(copy).toBeFocused()
  await expect(tooltip).toHaveText('Copy project id')
  await expect(tooltip).toBeVisible()

  // Scrolling moves the text with its control.
  const before = await settledOffset(copy, tooltip)
  await scrollAround(page, copy)
  await expect(tooltip).toBeVisible()
  await expect.poll(() => stillAttached(copy, tooltip, before)).toBe(true)

  // Escape closes it and leaves focus where it was.
  await page.keyboard.press('Escape')
  await expect(tooltip).toHaveCount(0)
  await expect(copy).toBeFocused()

  // Focus leaving closes it.
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Tab')
  await expect(tooltip).toHaveText('Copy project id')
  await page.keyboard.press('Shift+Tab')
  await expect(projectId).toBeFocused()
  await expect(tooltip).toHaveCount(0)

  // An outside click closes it.
  await page.keyboard.press('Tab')
  await expect(tooltip).toHaveText('Copy project id')
  await page.getByRole('heading', { level: 1 }).click()
  await expect(tooltip).toHaveCount(0)

  // Hover shows it; leaving hides it. A click keeps it up: the label turns to Copied.
  await copy.hover()
  await expect(tooltip).toHaveText('Copy project id')
  await copy.click()
  await expect(tooltip).toHaveText('Copied')
  await page.mouse.move(0, 0)
  await expect(tooltip).toHaveCount(0)
})

test('popover: focus moves in and back out, Escape and an outside click close it, attached to its trigger on scroll', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'UI primitives')
  const origin = new URL(page.url()).origin
  const post = async (data: object) => {
    const response = await page.request.post(`/platform/projects/${project.ref}/content`, { headers: { Version: '2', origin }, data })
    expect(response.status(), await response.text()).toBeLessThan(300)
    return response.json()
  }
  // A snippet with one parameter, pinned to a report.
  const snippetId = crypto.randomUUID()
  await post({
    id: snippetId,
    name: `Kind ${Date.now()}`,
    type: 'sql',
    visibility: 'user',
    content: { schema_version: '1.0', sql: '-- @set kind:alpha|beta = alpha\nselect :kind as kind' },
  })
  const report = await post({
    id: crypto.randomUUID(),
    name: `Primitives ${Date.now()}`,
    type: 'report',
    visibility: 'user',
    content: { schema_version: '1.0', layout: [{ snippet_id: snippetId }], sql: '' },
  })
  await page.goto(`/project/${project.ref}/reports/${report.id}`)
  const widget = page.getByTestId('query-result-widget')
  await expect(widget.getByRole('gridcell', { name: 'alpha' })).toBeVisible()

  const trigger = widget.getByRole('button', { name: /Parameters/ })
  const popover = widget.getByRole('dialog', { name: 'Query parameters' })
  const kind = popover.getByLabel('kind', { exact: true })
  await trigger.evaluate((node) => node.scrollIntoView({ block: 'center' }))

  // Keyboard: Enter opens it and focus moves to its first field; Tab stays inside; Escape closes it
  // and focus returns to the button.
  await trigger.focus()
  await page.keyboard.press('Enter')
  await expect(popover).toBeVisible()
  await expect(trigger).toHaveAttribute('aria-expanded', 'true')
  await expect(kind).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(popover.getByRole('button', { name: 'Reset' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(popover.getByRole('button', { name: 'Run with parameters' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(kind).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(popover).toHaveCount(0)
  await expect(trigger).toBeFocused()
  await expect(trigger).toHaveAttribute('aria-expanded', 'false')

  // Scrolling moves the popover with its button.
  await trigger.click()
  await expect(popover).toBeVisible()
  const before = await settledOffset(trigger, popover)
  await scrollAround(page, trigger)
  await expect(popover).toBeVisible()
  await expect.poll(() => stillAttached(trigger, popover, before)).toBe(true)

  // A click outside closes it.
  await page.getByRole('heading', { level: 1 }).click()
  await expect(popover).toHaveCount(0)

  // Submitting runs with the values, closes it and gives focus back to the button.
  await trigger.click()
  await kind.selectOption('beta')
  await popover.getByRole('button', { name: 'Run with parameters' }).click()
  await expect(popover).toHaveCount(0)
  await expect(trigger).toBeFocused()
  await expect(widget.getByRole('gridcell', { name: 'beta' })).toBeVisible()
})
