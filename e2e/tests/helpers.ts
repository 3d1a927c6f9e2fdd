import { expect, type APIRequestContext, type BrowserContext, type Cookie, type Locator, type Page } from '@playwright/test'

export const OWNER = { email: 'owner@example.com', password: 'owner-password-1' }

/**
 * Signed in as the owner (or another account): the owner's session is made once per worker through the sign-in API
 * and its cookie given to each test's context, so tests pay for neither the form nor a password hash. The form itself
 * is tested in project-journey.spec.ts; other accounts still sign in through it.
 */
export async function signIn(page: Page, email = OWNER.email, password = OWNER.password): Promise<void> {
  if (email !== OWNER.email || password !== OWNER.password) return signInWithForm(page, email, password)
  ownerSession ??= sessionCookies(page, email, password)
  await page.context().addCookies(await ownerSession)
  await page.goto('/')
  await expect(page).not.toHaveURL(/\/sign-in/)
}

let ownerSession: Promise<Cookie[]> | null = null

/** Signs in through the API in the page's own cookie jar, and hands back the session's cookies. */
async function sessionCookies(page: Page, email: string, password: string): Promise<Cookie[]> {
  const origin = `http://127.0.0.1:${process.env.E2E_PORT}`
  const response = await page.request.post(`${origin}/api/auth/login`, { data: { email, password }, headers: { origin } })
  expect(response.status(), await response.text()).toBe(200)
  return page.context().cookies(origin)
}

export async function signInWithForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).not.toHaveURL(/\/sign-in/)
}

/** API calls with the page's session cookie; mutations carry our Origin like the dashboard's fetches. */
export async function apiCall(page: Page, method: string, path: string, body?: unknown): Promise<any> {
  const request: APIRequestContext = page.request
  const origin = new URL(page.url()).origin
  const response = await request.fetch(path, { method, data: body, headers: { origin } })
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300)
  return response.status() === 204 ? null : response.json()
}

/**
 * A second browser context (another person, or nobody signed in) that closes with the test's own: Playwright closes
 * the contexts it made for a test, not those made through `browser`, and a forgotten one keeps its dashboard polling
 * for the rest of the run (a run once ended with ten such pages open).
 */
export async function otherPersonPage(page: Page): Promise<Page> {
  const context: BrowserContext = await page.context().browser()!.newContext()
  page.context().once('close', () => void context.close().catch(() => {}))
  return context.newPage()
}

/**
 * A new member of the organization, signed in on a browser context of their own: `owner` invites
 * them, and they set their own password on the invitation link (invitations.spec.ts does it by hand).
 */
export async function memberByInvitation(
  owner: Page,
  orgSlug: string,
  role: 'administrator' | 'developer' | 'read_only',
  password = `${role}-password-1`,
): Promise<{ page: Page; email: string }> {
  const email = `${role.replace('_', '-')}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`
  const created = await apiCall(owner, 'POST', `/platform/organizations/${orgSlug}/members/invitations`, { email, role })
  const link = new URL(created.invitation_url)
  const member = await otherPersonPage(owner)
  await member.goto(link.pathname)
  // The answer's session cookie lands in the member's context.
  await apiCall(member, 'POST', `/platform/invitations${link.pathname.slice('/invite'.length)}/sign-up`, { password })
  return { page: member, email }
}

/** The project URL as the API settings show it: its own origin, never the dashboard's. */
export async function projectUrl(page: Page, ref: string): Promise<string> {
  const settings = await apiCall(page, 'GET', `/platform/projects/${ref}/settings`)
  return `${settings.app_config.protocol}://${settings.app_config.endpoint}`
}

export async function firstOrgSlug(page: Page): Promise<string> {
  const orgs = await apiCall(page, 'GET', '/platform/organizations')
  return orgs[0].slug
}

/** A healthy project made through the API, for tests about the shell rather than creation. */
export async function healthyProject(page: Page, name: string): Promise<{ ref: string; name: string; orgSlug: string }> {
  const orgSlug = await firstOrgSlug(page)
  const existing = (await apiCall(page, 'GET', '/platform/projects')).find((p: { name: string }) => p.name === name)
  const project = existing ?? (await apiCall(page, 'POST', '/platform/projects', { name, organization_slug: orgSlug, db_pass: 'e2e-db-password-1' }))
  await expect
    // A new project's first start (initdb included) on a busy 2-core machine can take longer than the 15 s expect default.
    .poll(async () => (await apiCall(page, 'GET', `/platform/projects/${project.ref}/status`)).status, { timeout: 45_000 })
    .toBe('ACTIVE_HEALTHY')
  return { ref: project.ref, name, orgSlug }
}

/**
 * For the first wait on a Monaco editor: it is a 3 MB lazy chunk, and a fresh browser context on a busy 2-core
 * machine once took longer than the default 10 s to load and compile it (the page showed 'Loading editor…').
 */
export const EDITOR_LOAD = { timeout: 30_000 }

/**
 * Clicks into a Monaco editor (its `.monaco-editor` element) and waits until it has the keyboard. Keys pressed
 * before that (a busy machine can take a while to finish mounting the editor and give it focus) go elsewhere or are lost.
 */
export async function focusEditor(monaco: Locator): Promise<void> {
  await expect(monaco).toBeVisible(EDITOR_LOAD)
  await monaco.locator('.view-lines').click()
  await expect(monaco).toHaveClass(/(^|\s)focused(\s|$)/)
}

/**
 * Replaces a Monaco editor's text (it has no form value to fill). The text arrives as one input, as a paste does:
 * typing it key by key costs a second per line on a busy machine, and the tests that are about typing (completion,
 * the save debounce) type their own keys.
 */
export async function replaceEditorText(monaco: Locator, text: string): Promise<void> {
  await focusEditor(monaco)
  const keyboard = monaco.page().keyboard
  await keyboard.press('ControlOrMeta+A')
  await keyboard.press('Delete')
  await keyboard.insertText(text)
}

/**
 * From now on (until the page navigates), keeps the text of every element matching `selector` each time the page changes,
 * in the order first seen. For transient UI (toasts dismiss themselves, progress states end when the work does) that a
 * busy machine may not get to look at while it is on screen. Returns a reader for `expect.poll`.
 */
export async function recordShown(page: Page, selector: string): Promise<() => Promise<string[]>> {
  const key = `__shown_${Math.random().toString(36).slice(2)}`
  await page.evaluate(
    ({ key, selector }) => {
      const seen: string[] = []
      ;(window as unknown as Record<string, string[]>)[key] = seen
      const scan = () => {
        for (const element of document.querySelectorAll(selector)) {
          const text = element.textContent ?? ''
          if (!seen.includes(text)) seen.push(text)
        }
      }
      scan()
      new MutationObserver(scan).observe(document.body, { childList: true, subtree: true, characterData: true })
    },
    { key, selector },
  )
  return async () => (await page.evaluate((key) => (window as unknown as Record<string, string[] | undefined>)[key], key)) ?? []
}

/**
 * Closes every notification on screen, as a user does before reaching what they cover. Toasts sit fixed at the
 * bottom right, over a table's row actions once the page scrolls, and when one expires the others slide down: a
 * click aimed at a row's button between Playwright's hit test and the press once landed on a sliding toast, and the
 * dialog it should have opened never came.
 */
export async function dismissToasts(page: Page): Promise<void> {
  const close = page.getByRole('region', { name: 'Notifications' }).getByRole('button', { name: 'Dismiss notification' })
  while ((await close.count()) > 0) {
    // One may expire by itself between the count and the click: then the click gives up and the count is taken again.
    await close.first().click({ timeout: 5_000 }).catch(() => {})
  }
  await expect(close).toHaveCount(0)
}
