import { expect, test } from './fixtures'
import { healthyProject, recordShown, signIn } from './helpers'

/*
 * The connecting check (issue 33 item 3): the REST API's 2 s check, told apart from the database. A REST API that is
 * still starting (a cold start after a restart, a resize or a new branch) is waited for instead of showing "the
 * database is not answering" under a Healthy badge; one that stays down is named, not the database.
 */

test('a REST API slower than the 2 s check while it starts shows no connecting screen', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Connecting check')
  // A cold start: the first REST check gets no answer until the dashboard has asked the platform about the database.
  let databaseAsked!: () => void
  const asked = new Promise<void>((resolve) => (databaseAsked = resolve))
  page.on('request', (request) => {
    if (request.url().endsWith(`/platform/projects/${project.ref}/database/health`)) databaseAsked()
  })
  let restChecks = 0
  await page.route('**/rest/v1/', async (route) => {
    restChecks++
    if (restChecks === 1) await asked
    // The dashboard gave up on the first one after 2 s: continuing an aborted request fails, which is fine.
    await route.continue().catch(() => {})
  })
  await page.goto(`/project/${project.ref}/sql`)
  const connecting = await recordShown(page, '[data-testid="connecting-screen"]')
  await expect.poll(() => restChecks, { timeout: 30_000 }).toBeGreaterThanOrEqual(2)
  await expect(page.getByTestId('sql-editor')).toBeVisible()
  expect(await connecting()).toEqual([])
})

test('a REST API that stays down is named on the connecting screen, not the database, and the page comes back', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Connecting check')
  await page.route('**/rest/v1/', (route) => route.fulfill({ status: 503, json: { message: 'down for the test' } }))
  await page.goto(`/project/${project.ref}/sql`)
  const screen = page.getByTestId('connecting-screen')
  await expect(screen).toContainText("The project's REST API is not answering right now, though its database is.")
  await expect(screen).not.toContainText("The project's database is not answering")
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/connecting-rest-down.png` })
  await page.unroute('**/rest/v1/')
  // Checked again every 4 s: the page comes back by itself.
  await expect(screen).toBeHidden({ timeout: 15_000 })
  await expect(page.getByTestId('sql-editor')).toBeVisible()
})
