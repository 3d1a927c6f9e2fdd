import { expect, test } from './fixtures'
import { apiCall, healthyProject, signIn } from './helpers'
import { otherOrigin } from './other-origin'

/*
 * The project's auth service as a web app on another origin uses it (supabase-js's browser bundle):
 * sign-up, the confirmation email read in the dashboard's outbox, its link opened back into the app
 * (allowed by the redirect URLs set on the Sign In / Providers page), sign-in; then the Users page
 * lists the user, and a user is created and deleted there.
 */

test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

type Supabase = { createClient: (url: string, key: string) => { auth: Record<string, (...args: unknown[]) => Promise<{ data: any; error: any }>> } }

test('an app on another origin signs a user up and in; the outbox shows the confirmation and the Users page lists them', async ({ page, context }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Auth users')
  const settings = await apiCall(page, 'GET', `/platform/projects/${project.ref}/settings`)
  const url = `${settings.app_config.protocol}://${settings.app_config.endpoint}`
  const anonKey: string = settings.service_api_keys.find((key: { tags: string }) => key.tags === 'anon').api_key
  const elsewhere = await otherOrigin()
  const email = `reader-${Date.now()}@example.com`

  try {
    // The app's origin becomes an allowed redirect, on the Sign In / Providers page.
    await page.goto(`/project/${project.ref}/auth/providers`)
    const urls = page.getByRole('region', { name: 'URL configuration' })
    await urls.getByLabel('Redirect URLs').fill(`${elsewhere.origin}/**`)
    await urls.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText('URL configuration saved')).toBeVisible()

    const app = await context.newPage()
    await app.goto(`${elsewhere.origin}/`)
    const signedUp = await app.evaluate(
      async ({ url, anonKey, email, redirect }) => {
        const supabase = (window as unknown as { supabase: Supabase }).supabase.createClient(url, anonKey)
        const { data, error } = await supabase.auth.signUp!({ email, password: 'reader-password-1', options: { emailRedirectTo: redirect } })
        return { user: data.user?.email, session: data.session, error: error?.message ?? null }
      },
      { url, anonKey, email, redirect: `${elsewhere.origin}/welcome` },
    )
    expect(signedUp).toEqual({ user: email, session: null, error: null })

    // The confirmation email, in the outbox; its link leads back into the app with a session.
    await page.getByRole('navigation').getByRole('link', { name: 'Outbox', exact: true }).click()
    const message = page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: email })
    await expect(message.getByRole('heading', { name: 'Confirm Your Signup' })).toBeVisible({ timeout: 20_000 })
    await expect(message).toContainText('Follow this link to confirm your user:')
    const link = await message.getByRole('link').first().getAttribute('href')
    expect(link).toContain('/auth/v1/verify?token=')
    if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/auth-outbox.png`, fullPage: true })

    await app.goto(link!)
    await expect(app).toHaveURL(new RegExp(`^${elsewhere.origin}/welcome#access_token=`))
    const confirmed = await app.evaluate(
      async ({ url, anonKey, email }) => {
        const supabase = (window as unknown as { supabase: Supabase }).supabase.createClient(url, anonKey)
        // supabase-js reads the session from the link's fragment (detectSessionInUrl).
        const fromLink = await supabase.auth.getSession!()
        const signedIn = await supabase.auth.signInWithPassword!({ email, password: 'reader-password-1' })
        return { fromLink: fromLink.data.session?.user?.email ?? null, signedIn: signedIn.data.session?.user?.email ?? null, error: signedIn.error?.message ?? null }
      },
      { url, anonKey, email },
    )
    expect(confirmed).toEqual({ fromLink: email, signedIn: email, error: null })

    // The docs drawer's User Management snippet, copied and run by the app as it is.
    await page.getByRole('button', { name: 'API Docs' }).click()
    const drawer = page.getByRole('dialog', { name: 'API Docs' })
    await drawer.getByRole('navigation', { name: 'API docs sections' }).getByRole('button', { name: 'User Management' }).click()
    await drawer.getByRole('region', { name: 'Sign up', exact: true }).getByRole('button', { name: /Copy/ }).click()
    // The copy is asynchronous: the clipboard is read until it has the snippet.
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('supabase.auth.signUp(')
    const snippet = await page.evaluate(() => navigator.clipboard.readText())
    await page.keyboard.press('Escape')
    const fromDocs = await app.evaluate(
      async ({ url, anonKey, snippet }) => {
        const supabase = (window as unknown as { supabase: Supabase }).supabase.createClient(url, anonKey)
        const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (client: unknown) => Promise<unknown>
        return new AsyncFunction('supabase', `${snippet}\nreturn { email: data.user?.email ?? null, error: error?.message ?? null }`)(supabase)
      },
      { url, anonKey, snippet },
    )
    expect(fromDocs).toEqual({ email: 'someone@email.com', error: null })
    await app.close()

    // The Users page lists them, confirmed and signed in.
    await page.getByRole('navigation').getByRole('link', { name: 'Users', exact: true }).click()
    const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: email })
    await expect(row).toContainText('Confirmed')
    await expect(page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: 'someone@email.com' })).toContainText('Waiting for verification')
    await expect(row).not.toContainText('Never')
    if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/auth-users.png`, fullPage: true })

    // Create a user there, find it by search, delete it.
    await page.getByRole('button', { name: 'Create user' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create user' })
    await dialog.getByLabel('Email address').fill('made-in-dashboard@example.com')
    await dialog.getByLabel('User password').fill('made-password-1')
    await dialog.getByRole('button', { name: 'Create user' }).click()
    await expect(page.getByText('Created user made-in-dashboard@example.com')).toBeVisible()
    await page.getByLabel('Search users').fill('made-in')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page.getByRole('table', { name: 'Users' }).getByRole('row')).toHaveCount(2)
    await page.getByRole('button', { name: 'Delete user made-in-dashboard@example.com' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete user made-in-dashboard@example.com' })
    await confirm.getByRole('textbox').fill('made-in-dashboard@example.com')
    await confirm.getByRole('button', { name: 'Delete user' }).click()
    await expect(page.getByText('No users match "made-in"')).toBeVisible()
  } finally {
    await elsewhere.close()
  }
})

test('the Multi-Factor page turns TOTP enrollment off while codes still verify, and sets the factor limit', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Auth users')
  await page.goto(`/project/${project.ref}/auth/users`)
  await page.getByRole('navigation').getByRole('link', { name: 'Multi-Factor', exact: true }).click()
  const mfa = page.getByRole('region', { name: 'Multi-Factor Authentication (MFA)' })
  const totp = mfa.getByLabel('TOTP (App Authenticator)')
  await expect(totp).toHaveValue('enabled')
  await totp.selectOption({ label: 'Verify enabled (no new enrollments)' })
  await mfa.getByLabel('Maximum number of factors per user').fill('3')
  await mfa.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Multi-Factor Authentication (MFA) saved')).toBeVisible()
  const saved = await apiCall(page, 'GET', `/platform/auth/${project.ref}/config`)
  expect({ enroll: saved.mfa_totp_enroll_enabled, verify: saved.mfa_totp_verify_enabled, max: saved.mfa_max_enrolled_factors }).toEqual({ enroll: false, verify: true, max: 3 })
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/auth-mfa.png`, fullPage: true })
  // Back as it was, for the other tests of this project.
  await totp.selectOption({ label: 'Enabled' })
  await mfa.getByLabel('Maximum number of factors per user').fill(String(10))
  await mfa.getByRole('button', { name: 'Save' }).click()
  await expect.poll(async () => (await apiCall(page, 'GET', `/platform/auth/${project.ref}/config`)).mfa_totp_enroll_enabled).toBe(true)
})
