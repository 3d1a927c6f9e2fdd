import { CONTENT_LIST_LIMIT } from '@stratum/contracts'
import { type Locator, type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, healthyProject, signIn } from './helpers'

/**
 * The SQL editor's explorer lists each section a page at a time (the server's default limit is
 * 100, the SQL editor spec's limits): further pages come as the user scrolls to a section's end, the titles count what
 * the server holds, and changes made to a snippet of a late page show at once.
 */

const name = (prefix: string, n: number) => `${prefix} ${String(n).padStart(3, '0')}`

/** Saved snippets made through the API, oldest first (one at a time, so that their order is known). */
async function createSnippets(page: Page, ref: string, prefix: string, count: number, extra: object = {}) {
  const origin = new URL(page.url()).origin
  for (let n = 1; n <= count; n++) {
    const response = await page.request.post(`/platform/projects/${ref}/content`, {
      headers: { Version: '2', origin },
      data: { name: name(prefix, n), type: 'sql', visibility: 'user', content: { schema_version: '1.0', sql: `select ${n} as n;` }, ...extra },
    })
    expect(response.status(), await response.text()).toBe(201)
  }
}

/** A project with no saved SQL snippets or folders (the data directory lives for the whole run). */
async function emptyProject(page: Page, projectName: string) {
  const project = await healthyProject(page, projectName)
  const listed = await apiCall(page, 'GET', `/platform/projects/${project.ref}/content?type=sql&limit=1000`)
  const ids = listed.data.map((item: { id: string }) => item.id)
  if (ids.length) await apiCall(page, 'DELETE', `/platform/projects/${project.ref}/content?ids=${ids.join(',')}`)
  const folders = (await apiCall(page, 'GET', `/platform/projects/${project.ref}/content/folders?type=sql`)).data.folders
  if (folders.length) await apiCall(page, 'DELETE', `/platform/projects/${project.ref}/content/folders?ids=${folders.map((f: { id: string }) => f.id).join(',')}`)
  return project
}

/**
 * Scrolls the explorer down a step at a time, as a user would (a jump to the end would pass over
 * the end of an earlier section), until the link is listed; then shows it.
 */
async function scrollUntilListed(explorer: Locator, link: Locator) {
  await explorer.evaluate((element) => element.scrollTo({ top: 0 }))
  await expect
    .poll(
      async () => {
        await explorer.evaluate((element) => element.scrollBy({ top: element.clientHeight * 0.8 }))
        return link.count()
      },
      // Each step is a round trip, and a further page a request: a busy machine takes its time over 230 snippets.
      { timeout: 60_000, intervals: [200] },
    )
    .toBe(1)
  await link.scrollIntoViewIfNeeded()
}

const sectionTitle = (explorer: Locator, title: string) => explorer.getByRole('heading', { level: 3, name: title, exact: true })

test('the explorer lists all 230 snippets as the user scrolls; a snippet of the third page is renamed, favorited, shared and deleted', async ({ page }) => {
  test.setTimeout(120_000)
  await signIn(page)
  const project = await emptyProject(page, 'SQL explorer paging')
  await createSnippets(page, project.ref, 'Paged', 230)

  // Opening the editor makes no snippet (a draft, stored only once typed into).
  await page.goto(`/project/${project.ref}/sql`)
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/sql$`))
  const explorer = page.getByRole('navigation', { name: 'Queries' })
  await expect(sectionTitle(explorer, 'Private (230)')).toBeVisible()
  await expect(sectionTitle(explorer, 'Shared (0)')).toBeVisible()
  const links = explorer.locator('.explorer-link')
  // One page first: the 100 newest.
  await expect(explorer.getByRole('link', { name: name('Paged', 230), exact: true })).toBeVisible()
  expect(await links.count()).toBeGreaterThanOrEqual(CONTENT_LIST_LIMIT)
  expect(await links.count()).toBeLessThanOrEqual(CONTENT_LIST_LIMIT + 1)
  await expect(explorer.getByRole('link', { name: name('Paged', 1), exact: true })).toHaveCount(0)
  // Row menus are mounted only when opened.
  await expect(page.locator('[data-radix-menu-content]')).toHaveCount(0)

  // Scrolling to the end brings the second and third pages, down to the oldest snippet.
  const oldest = explorer.getByRole('link', { name: name('Paged', 1), exact: true })
  await scrollUntilListed(explorer, oldest)
  await expect(oldest).toBeInViewport()
  await expect(links).toHaveCount(230)
  await expect(explorer.getByText(/Load more/)).toHaveCount(0)

  // The keyboard opens a row's menu (first item focused); Escape closes it and focus returns.
  const menuButton = explorer.getByRole('button', { name: `Actions for ${name('Paged', 2)}`, exact: true })
  await menuButton.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('menuitem', { name: 'Rename query' })).toBeFocused()
  await expect(page.locator('[data-radix-menu-content]')).toHaveCount(1)
  await page.keyboard.press('Escape')
  await expect(page.getByRole('menu')).toHaveCount(0)
  await expect(menuButton).toBeFocused()

  // Rename a snippet of the third page.
  await explorer.getByRole('button', { name: `Actions for ${name('Paged', 7)}`, exact: true }).click()
  await page.getByRole('menuitem', { name: 'Rename query' }).click()
  await page.getByRole('dialog').getByLabel('Name').fill('Paged 007 renamed')
  await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(explorer.getByRole('link', { name: 'Paged 007 renamed', exact: true })).toBeVisible()
  await expect(explorer.getByRole('link', { name: name('Paged', 7), exact: true })).toHaveCount(0)

  // Favorite one: the Favorites section shows it with its count.
  await explorer.getByRole('button', { name: `Actions for ${name('Paged', 2)}`, exact: true }).click()
  await page.getByRole('menuitem', { name: 'Add to favorites' }).click()
  await expect(sectionTitle(explorer, 'Favorites (1)')).toBeVisible()
  await expect(explorer.getByRole('link', { name: new RegExp(`^${name('Paged', 2)}`) })).toHaveCount(2)

  // Share one: it moves from Private to Shared.
  await explorer.getByRole('button', { name: `Actions for ${name('Paged', 4)}`, exact: true }).click()
  await page.getByRole('menuitem', { name: 'Share query with project' }).click()
  await expect(page.getByText('Query shared with the project')).toBeVisible()
  await expect(sectionTitle(explorer, 'Shared (1)')).toBeVisible()
  await expect(sectionTitle(explorer, 'Private (229)')).toBeVisible()
  await expect(explorer.getByRole('link', { name: name('Paged', 4), exact: true })).toHaveCount(1)

  // Delete one.
  await explorer.getByRole('button', { name: `Actions for ${name('Paged', 3)}`, exact: true }).click()
  await page.getByRole('menuitem', { name: 'Delete query' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Successfully deleted query')).toBeVisible()
  await expect(explorer.getByRole('link', { name: name('Paged', 3), exact: true })).toHaveCount(0)
  await expect(sectionTitle(explorer, 'Private (228)')).toBeVisible()
  await expect(links).toHaveCount(228 + 1 + 1) // private, shared, and the favorite listed twice

  // The server agrees, and a reload lists the same.
  const counts = await apiCall(page, 'GET', `/platform/projects/${project.ref}/content/count?type=sql`)
  expect(counts).toEqual({ favorites: 1, private: 228, shared: 1 })
  await page.reload()
  await expect(sectionTitle(explorer, 'Private (228)')).toBeVisible()
  await scrollUntilListed(explorer, oldest)
  await expect(explorer.getByRole('link', { name: 'Paged 007 renamed', exact: true })).toHaveCount(1)
  await expect(links).toHaveCount(230)
})

test('a folder and the shared section load further pages too; a snippet moved from a late page shows in its folder', async ({ page }) => {
  test.setTimeout(120_000)
  await signIn(page)
  const project = await emptyProject(page, 'SQL explorer folders')
  const folder = await apiCall(page, 'POST', `/platform/projects/${project.ref}/content/folders`, { name: 'Big folder' })
  const other = await apiCall(page, 'POST', `/platform/projects/${project.ref}/content/folders`, { name: 'Small folder' })
  await createSnippets(page, project.ref, 'Filed', 105, { folder_id: folder.id })
  await createSnippets(page, project.ref, 'Team', 103, { visibility: 'project' })
  await createSnippets(page, project.ref, 'Loose', 2)

  await page.goto(`/project/${project.ref}/sql`)
  const explorer = page.getByRole('navigation', { name: 'Queries' })
  await expect(sectionTitle(explorer, 'Shared (103)')).toBeVisible()
  await expect(sectionTitle(explorer, 'Private (107)')).toBeVisible()

  // The shared section ends with a page to come; scrolling there brings the oldest.
  await expect(explorer.getByRole('link', { name: name('Team', 103), exact: true })).toBeVisible()
  await scrollUntilListed(explorer, explorer.getByRole('link', { name: name('Team', 1), exact: true }))

  // The big folder too.
  const bigFolder = explorer.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Big folder', exact: true }) })
  await expect(bigFolder.getByRole('link', { name: name('Filed', 105), exact: true })).toBeAttached()
  await scrollUntilListed(explorer, bigFolder.getByRole('link', { name: name('Filed', 1), exact: true }))
  await expect(bigFolder.locator('.explorer-link')).toHaveCount(105)

  // Moving the oldest filed snippet to the small folder.
  await explorer.getByRole('button', { name: `Actions for ${name('Filed', 1)}`, exact: true }).click()
  await page.getByRole('menuitem', { name: 'Move query' }).click()
  await page.getByRole('dialog').getByLabel('Folder').selectOption({ label: 'Small folder' })
  await page.getByRole('dialog').getByRole('button', { name: 'Move' }).click()
  await expect(page.getByText('Query moved')).toBeVisible()
  const smallFolder = explorer.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Small folder', exact: true }) })
  await expect(smallFolder.getByRole('link', { name: name('Filed', 1), exact: true })).toBeVisible()
  await expect(bigFolder.locator('.explorer-link')).toHaveCount(104)
  expect((await apiCall(page, 'GET', `/platform/projects/${project.ref}/content/folders/${other.id}?type=sql`)).data.contents.map((c: { name: string }) => c.name)).toEqual([
    name('Filed', 1),
  ])
})
