import { type APIRequestContext, type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, dismissToasts, healthyProject, memberByInvitation, projectUrl, signIn } from './helpers'

// The JWT signing keys page (issue 30 point 2): the current, standby, previously used and revoked keys of a project,
// with the legacy JWT secret among them, and what the auth service does once the page changes them.

const WRITE_DENIED = 'You need additional permissions to change the JWT signing keys of this project'

/** Screenshots for people when AI_SCREENSHOTS_DIR is set; nothing otherwise. */
async function shot(page: Page, name: string) {
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/jwt-keys-${name}.png`, fullPage: true, animations: 'disabled' })
}

const rowsOf = (page: Page, card: string) => page.getByTestId(card).getByTestId('signing-key-row')
const headerOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as { alg: string; kid?: string }

async function jwksKids(request: APIRequestContext, url: string): Promise<string[]> {
  const response = await request.get(`${url}/auth/v1/.well-known/jwks.json`)
  expect(response.status()).toBe(200)
  return ((await response.json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid)
}

/** A user of the project's auth service with a password, and an access token of theirs, from the project URL. */
async function accessToken(page: Page, ref: string, url: string, anonKey: string): Promise<string> {
  const email = `jwt-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`
  const password = 'jwt-user-password-1'
  await apiCall(page, 'POST', `/platform/auth/${ref}/users`, { email, password, email_confirm: true })
  const response = await page.request.post(`${url}/auth/v1/token?grant_type=password`, { headers: { apikey: anonKey }, data: { email, password } })
  expect(response.status(), await response.text()).toBe(200)
  return ((await response.json()) as { access_token: string }).access_token
}

const userStatus = async (page: Page, url: string, anonKey: string, token: string) =>
  (await page.request.get(`${url}/auth/v1/user`, { headers: { apikey: anonKey, authorization: `Bearer ${token}` } })).status()

test('an owner creates a standby ES256 key, rotates to it, rotates again, then revokes and deletes the previous key', async ({ page }) => {
  test.setTimeout(150_000)
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.emulateMedia({ colorScheme: 'light' })
  await signIn(page)
  const project = await healthyProject(page, 'JWT keys')
  const url = await projectUrl(page, project.ref)
  const settings = await apiCall(page, 'GET', `/platform/projects/${project.ref}/settings`)
  const anonKey = (settings.service_api_keys as { tags: string; api_key: string }[]).find((key) => key.tags === 'anon')!.api_key

  // Reached from the product menu, beside the API settings.
  await page.goto(`/project/${project.ref}`)
  await page.getByRole('navigation', { name: 'Product menu' }).getByRole('link', { name: 'JWT Keys' }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/settings/jwt$`))
  await expect(page.getByRole('heading', { name: 'JWT Signing Keys', level: 1 })).toBeVisible()
  await expect(page.getByLabel('JWKS URL')).toHaveValue(`${url}/auth/v1/.well-known/jwks.json`)

  // A new project signs with the legacy secret: an HS256 key, never published.
  const legacyRow = rowsOf(page, 'current-key-card')
  await expect(legacyRow).toHaveAttribute('data-algorithm', 'HS256')
  await expect(legacyRow).toHaveAttribute('data-status', 'in_use')
  await expect(legacyRow).toContainText('Legacy JWT secret')
  const legacyId = (await legacyRow.getAttribute('data-key-id'))!
  await expect(page.getByText('Access tokens are signed with the legacy JWT secret')).toBeVisible()
  await expect(page.getByTestId('standby-key-card')).toContainText('No standby key')
  expect(await jwksKids(page.request, url)).toEqual([])

  // Create a standby ES256 key: listed, published in the JWKS, not yet signing.
  await page.getByTestId('standby-key-card').getByRole('button', { name: 'Create standby key' }).click()
  const create = page.getByRole('dialog', { name: 'Create standby key' })
  await expect(create.getByRole('radio', { name: /ECC \(P-256\)/ })).toBeChecked()
  await create.getByRole('button', { name: 'Create standby key' }).click()
  await expect(create).toBeHidden()
  await expect(page.getByText('Created a new standby key')).toBeVisible()
  const standbyRow = rowsOf(page, 'standby-key-card')
  await expect(standbyRow).toHaveAttribute('data-algorithm', 'ES256')
  const esId = (await standbyRow.getAttribute('data-key-id'))!
  await expect.poll(() => jwksKids(page.request, url)).toEqual([esId])
  expect(headerOf(await accessToken(page, project.ref, url, anonKey)).alg).toBe('HS256')
  await shot(page, 'standby-1440-light')

  // Its public key, as the JWKS has it.
  await standbyRow.getByRole('button', { name: `View public key ${esId.slice(0, 8)}` }).click()
  const jwk = page.getByRole('dialog', { name: `Public key ${esId.slice(0, 8)}` })
  await expect(jwk.getByLabel('Public JWK')).toContainText('"crv": "P-256"')
  await expect(jwk.getByLabel('Public JWK')).toContainText(`"kid": "${esId}"`)
  await expect(jwk.getByLabel('Public JWK')).not.toContainText('"d"')
  await jwk.getByRole('button', { name: 'Close', exact: true }).click()
  await expect(jwk).toBeHidden()

  // Rotate, after a confirmation that says what moves where.
  await page.getByTestId('standby-key-card').getByRole('button', { name: 'Rotate keys' }).click()
  const rotate = page.getByRole('dialog', { name: 'Rotate signing keys' })
  await expect(rotate.getByRole('list', { name: 'What changes' })).toContainText(`ES256 key ${esId.slice(0, 8)}`)
  await expect(rotate.getByRole('list', { name: 'What changes' })).toContainText('legacy JWT secret')
  await shot(page, 'rotate-dialog-1440-light')
  await rotate.getByRole('button', { name: 'Rotate keys' }).click()
  await expect(rotate).toBeHidden()
  await expect(page.getByText('Signing key rotated')).toBeVisible()
  await expect(rowsOf(page, 'current-key-card')).toHaveAttribute('data-key-id', esId)
  const previousLegacy = page.getByTestId('previous-keys-card').locator(`[data-key-id="${legacyId}"]`)
  await expect(previousLegacy).toHaveAttribute('data-status', 'previously_used')
  await expect(previousLegacy.getByRole('button', { name: /^Revoke/ })).toHaveCount(0)
  await expect(page.getByTestId('standby-key-card')).toContainText('No standby key')
  await expect(page.getByText('Access tokens are signed with the legacy JWT secret')).toHaveCount(0)

  // The auth service now signs with the ES256 key (the change reaches it through the gateway's directory).
  let esToken = ''
  await expect
    .poll(async () => {
      esToken = await accessToken(page, project.ref, url, anonKey)
      return headerOf(esToken)
    })
    .toEqual({ alg: 'ES256', typ: 'JWT', kid: esId })
  expect(await userStatus(page, url, anonKey, esToken)).toBe(200)

  // A second rotation (to an RSA key) leaves the ES256 key previously used: it still verifies its tokens.
  await page.getByTestId('standby-key-card').getByRole('button', { name: 'Create standby key' }).click()
  await create.getByRole('radio', { name: /RSA/ }).check()
  await create.getByRole('button', { name: 'Create standby key' }).click()
  await expect(create).toBeHidden()
  await expect(rowsOf(page, 'standby-key-card')).toHaveAttribute('data-algorithm', 'RS256')
  const rsId = (await rowsOf(page, 'standby-key-card').getAttribute('data-key-id'))!
  await page.getByTestId('standby-key-card').getByRole('button', { name: 'Rotate keys' }).click()
  await rotate.getByRole('button', { name: 'Rotate keys' }).click()
  await expect(rotate).toBeHidden()
  await expect(rowsOf(page, 'current-key-card')).toHaveAttribute('data-key-id', rsId)
  const previousEs = page.getByTestId('previous-keys-card').locator(`[data-key-id="${esId}"]`)
  await expect(previousEs).toHaveAttribute('data-status', 'previously_used')
  await expect(rowsOf(page, 'previous-keys-card')).toHaveCount(2)
  expect(await userStatus(page, url, anonKey, esToken)).toBe(200)
  await dismissToasts(page)
  await shot(page, 'rotated-1440-light')

  // Revoking asks for the typed word; then the ES256 key verifies nothing and leaves the JWKS.
  // Toasts sit over the rows' buttons at the bottom right: out of the way first.
  await dismissToasts(page)
  await previousEs.getByRole('button', { name: `Revoke key ${esId.slice(0, 8)}` }).click()
  const revoke = page.getByRole('dialog', { name: `Revoke ES256 key ${esId.slice(0, 8)}` })
  await revoke.getByRole('button', { name: 'Revoke key' }).click()
  await expect(revoke.getByText('Value entered does not match.')).toBeVisible()
  await revoke.getByLabel('Type revoke to confirm.').fill('revoke')
  await revoke.getByRole('button', { name: 'Revoke key' }).click()
  await expect(revoke).toBeHidden()
  await expect(page.getByText('Signing key revoked')).toBeVisible()
  const revokedEs = rowsOf(page, 'revoked-keys-card')
  await expect(revokedEs).toHaveAttribute('data-key-id', esId)
  await expect(revokedEs).toHaveAttribute('data-status', 'revoked')
  await expect.poll(() => userStatus(page, url, anonKey, esToken)).toBe(403)
  expect(await jwksKids(page.request, url)).toEqual([rsId])

  // Light and dark, as the rest of the dashboard.
  await dismissToasts(page)
  await shot(page, 'revoked-1440-light')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await shot(page, 'revoked-1440-dark')
  await page.emulateMedia({ colorScheme: 'light' })

  // Deleting a revoked key asks first, then it is gone for good.
  await revokedEs.getByRole('button', { name: `Delete key ${esId.slice(0, 8)}` }).click()
  const remove = page.getByRole('dialog', { name: `Delete revoked key ${esId.slice(0, 8)}?` })
  await remove.getByRole('button', { name: 'Delete key' }).click()
  await expect(remove).toBeHidden()
  await expect(page.getByText('Revoked key deleted')).toBeVisible()
  await expect(page.getByTestId('revoked-keys-card')).toContainText('No revoked keys')
  const listed = await apiCall(page, 'GET', `/v1/projects/${project.ref}/config/auth/signing-keys`)
  expect((listed.keys as { id: string }[]).map((key) => key.id).sort()).toEqual([legacyId, rsId].sort())
})

test('a Read-only member reads the keys but every change is disabled with the reason, and the server refuses it', async ({ page }) => {
  test.setTimeout(120_000)
  await page.setViewportSize({ width: 1440, height: 900 })
  await signIn(page)
  const project = await healthyProject(page, 'JWT keys by role')
  // A key in each state, made by the owner through the Management API.
  const keysPath = `/v1/projects/${project.ref}/config/auth/signing-keys`
  const current = await apiCall(page, 'POST', keysPath, { algorithm: 'ES256', status: 'in_use' })
  const standby = await apiCall(page, 'POST', keysPath, { algorithm: 'RS256' })
  const gone = await apiCall(page, 'POST', keysPath, { algorithm: 'ES256' })
  await apiCall(page, 'PATCH', `${keysPath}/${gone.id}`, { status: 'revoked' })

  const reader = (await memberByInvitation(page, project.orgSlug, 'read_only')).page
  await reader.setViewportSize({ width: 1440, height: 900 })
  await reader.goto(`/project/${project.ref}/settings/jwt`)
  await expect(reader.getByRole('heading', { name: 'JWT Signing Keys', level: 1 })).toBeVisible()
  await expect(rowsOf(reader, 'current-key-card')).toHaveAttribute('data-key-id', current.id)
  await expect(rowsOf(reader, 'standby-key-card')).toHaveAttribute('data-key-id', standby.id)
  await expect(rowsOf(reader, 'revoked-keys-card')).toHaveAttribute('data-key-id', gone.id)
  await expect(rowsOf(reader, 'previous-keys-card')).toHaveAttribute('data-algorithm', 'HS256')
  await expect(reader.getByText(`${WRITE_DENIED}.`)).toBeVisible()

  const controls = [
    reader.getByTestId('standby-key-card').getByRole('button', { name: 'Rotate keys' }),
    rowsOf(reader, 'standby-key-card').getByRole('button', { name: /^Revoke key/ }),
    rowsOf(reader, 'previous-keys-card').getByRole('button', { name: /^Use again key/ }),
    rowsOf(reader, 'revoked-keys-card').getByRole('button', { name: /^Delete key/ }),
  ]
  for (const control of controls) {
    await expect(control).toHaveAttribute('aria-disabled', 'true')
    await expect(control).toHaveAccessibleDescription(WRITE_DENIED)
  }
  // Viewing a public key needs no permission.
  await rowsOf(reader, 'current-key-card').getByRole('button', { name: `View public key ${current.id.slice(0, 8)}` }).click()
  await expect(reader.getByRole('dialog', { name: `Public key ${current.id.slice(0, 8)}` }).getByLabel('Public JWK')).toContainText(current.id)
  await reader.keyboard.press('Escape')
  await expect(reader.getByRole('dialog')).toHaveCount(0)
  await shot(reader, 'read-only-1440-light')

  // The server checks too: the member's own session is refused each change.
  const origin = new URL(reader.url()).origin
  const refused = [
    await reader.request.fetch(`${keysPath}/${standby.id}`, { method: 'PATCH', data: { status: 'in_use' }, headers: { origin } }),
    await reader.request.fetch(keysPath, { method: 'POST', data: { algorithm: 'ES256' }, headers: { origin } }),
    await reader.request.fetch(`${keysPath}/${gone.id}`, { method: 'DELETE', headers: { origin } }),
  ]
  expect(refused.map((response) => response.status())).toEqual([403, 403, 403])
  const after = await apiCall(page, 'GET', keysPath)
  expect((after.keys as { id: string; status: string }[]).find((key) => key.id === standby.id)?.status).toBe('standby')
})
