import { type Locator, type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { healthyProject, signIn } from './helpers'

const modifier = process.platform === 'darwin' ? 'Meta' : 'Control'

async function panelWidthShare(page: Page, selector: string): Promise<number> {
  const box = await page.locator(selector).boundingBox()
  const width = page.viewportSize()!.width
  return box ? box.width / width : 0
}

/**
 * The first shortcut after a navigation: the listener comes with the project layout, so a press during page load is lost.
 * Pressed again only while the panel is still absent after a long wait (a second press during a slow render would close it).
 */
async function firstShortcut(page: Page, key: string, panel: Locator) {
  await expect(page.getByRole('button', { name: 'Toggle AI assistant' })).toBeVisible()
  await expect(async () => {
    if ((await panel.count()) === 0) await page.keyboard.press(key)
    await expect(panel).toBeVisible({ timeout: 10_000 })
  }).toPass()
}

test.describe('project shell', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page)
  })

  test('Cmd/Ctrl+I and Cmd/Ctrl+E toggle the right panel, never both', async ({ page }) => {
    const project = await healthyProject(page, 'Shell')
    await page.goto(`/project/${project.ref}`)
    const assistant = page.getByTestId('assistant-panel')
    const editor = page.getByTestId('editor-panel')
    await expect(page.getByTestId('project-status').first()).toBeVisible()

    await firstShortcut(page, `${modifier}+i`, assistant)
    await expect(assistant).toBeVisible()
    await expect(editor).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Toggle AI assistant' })).toHaveAttribute('aria-pressed', 'true')
    // Polled: the panel's width is read once it has been laid out at its size.
    await expect.poll(() => panelWidthShare(page, '[data-testid="assistant-panel"]')).toBeGreaterThanOrEqual(0.29)
    expect(await panelWidthShare(page, '[data-testid="assistant-panel"]')).toBeLessThanOrEqual(0.51)

    await page.keyboard.press(`${modifier}+e`)
    await expect(editor).toBeVisible()
    await expect(assistant).toHaveCount(0)

    await page.keyboard.press(`${modifier}+e`)
    await expect(editor).toHaveCount(0)
    await expect(assistant).toHaveCount(0)

    await page.keyboard.press(`${modifier}+i`)
    await expect(assistant).toBeVisible()
    await page.keyboard.press(`${modifier}+i`)
    await expect(assistant).toHaveCount(0)
  })

  test('the product menu is at most a third of the width and hidden on small screens', async ({ page }) => {
    const project = await healthyProject(page, 'Shell')
    await page.goto(`/project/${project.ref}`)
    const menu = page.getByRole('navigation', { name: 'Product menu' })
    await expect(menu).toBeVisible()
    // Drag the separator far to the right: the menu stops at 33%.
    const handle = page.getByRole('separator', { name: 'Resize product menu' })
    const box = (await handle.boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + 200)
    await page.mouse.down()
    await page.mouse.move(box.x + 900, box.y + 200, { steps: 10 })
    await page.mouse.up()
    const menuBox = (await menu.boundingBox())!
    expect(menuBox.x + menuBox.width).toBeLessThanOrEqual(page.viewportSize()!.width * 0.335)

    await page.setViewportSize({ width: 600, height: 800 })
    await expect(menu).toBeHidden()
    await page.getByRole('button', { name: 'Open menu' }).click()
    await expect(page.getByRole('dialog', { name: 'Project menu' })).toBeVisible()
  })

  test('a new page starts at the top; Back returns to where the page was left', async ({ page }) => {
    const project = await healthyProject(page, 'Shell')
    await page.goto(`/project/${project.ref}/settings/api`)
    await expect(page.getByText('Data API settings')).toBeVisible()
    const scroller = page.locator('.project-panel-scroll')
    // Where the page is left is where it is when the link is followed: a section that loads late makes the page taller
    // and the browser's scroll anchoring moves it (a CI run read 1198, then left at 1247). Kept as the page scrolls.
    await scroller.evaluate((element) => {
      const record = () => {
        if (window.location.pathname.endsWith('/settings/api')) (window as unknown as { apiScrollTop: number }).apiScrollTop = element.scrollTop
      }
      element.addEventListener('scroll', record, { passive: true })
      element.scrollTo(0, element.scrollHeight)
    })
    await expect.poll(() => scroller.evaluate((element) => element.scrollTop)).toBeGreaterThan(100)
    await page.getByRole('navigation', { name: 'Product menu' }).getByRole('link', { name: 'General' }).click()
    await expect(page).toHaveURL(/\/settings\/general$/)
    await expect(page.getByRole('heading', { level: 1 })).toBeInViewport()
    // Polled: one busy run read the panel while the new page was still being committed (a lazy page's chunk).
    await expect.poll(() => scroller.evaluate((element) => element.scrollTop)).toBe(0)
    const left = await page.evaluate(() => (window as unknown as { apiScrollTop: number }).apiScrollTop)
    expect(left).toBeGreaterThan(100)
    await page.goBack()
    await expect(page.getByText('Data API settings')).toBeVisible()
    await expect.poll(() => scroller.evaluate((element) => element.scrollTop)).toBe(left)
  })

  test('every route of the project layout is reachable with a page title in the spec form', async ({ page }) => {
    const project = await healthyProject(page, 'Shell')
    const routes = [
      '', '/settings/general', '/database', '/storage', '/infrastructure', '/settings/infrastructure', '/addons',
      '/settings/vault', '/branches', '/database/backups/scheduled', '/database/backups/pitr', '/reports', '/sql', '/settings/api',
    ]
    for (const route of routes) {
      await page.goto(`/project/${project.ref}${route}`)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await expect(page, route).toHaveTitle(new RegExp(`^(.+ \\| )?Shell \\| .+ \\| Stratum$`))
      await expect(page.getByText('Page not found')).toHaveCount(0)
    }
  })

  test('support requests take their fields from the query and are listed', async ({ page }) => {
    const project = await healthyProject(page, 'Shell')
    await page.goto(`/support/new?category=Database_unresponsive&ref=${project.ref}&subject=Cannot%20connect&message=Timeouts%20since%20noon`)
    await expect(page.getByLabel('Subject')).toHaveValue('Cannot connect')
    await expect(page.getByLabel('Message')).toHaveValue('Timeouts since noon')
    await page.getByRole('button', { name: /Send|Submit/ }).click()
    await expect(page.getByText('Cannot connect').last()).toBeVisible()
    await page.reload()
    await expect(page.getByText('Timeouts since noon').last()).toBeVisible()
  })
})
