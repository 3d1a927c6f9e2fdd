import { INVITATION_TEXTS } from '@stratum/contracts'
import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, firstOrgSlug, memberByInvitation, otherPersonPage, signIn } from './helpers'

test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText())

test('an owner invites a new address; the invitee opens the copied link, sets a password and lands in the organization', async ({ page }) => {
  await signIn(page)
  const slug = await firstOrgSlug(page)
  await page.goto(`/org/${slug}/team`)
  const email = `invitee-${Date.now()}@example.com`
  const form = page.getByRole('form', { name: 'Add member' })
  await form.getByLabel('Email').fill(email)
  await form.getByLabel('Role').selectOption({ label: 'Developer' })
  await form.getByRole('button', { name: 'Add member' }).click()

  const dialog = page.getByRole('dialog', { name: 'Invitation created' })
  await expect(dialog.getByText(INVITATION_TEXTS.linkShownOnce)).toBeVisible()
  await dialog.getByRole('button', { name: 'Copy invitation link' }).click()
  // The copy is asynchronous: the clipboard is read until it has the link.
  await expect.poll(() => clipboard(page)).toMatch(/\/invite\/[\w-]{43}$/)
  const link = await clipboard(page)
  await expect(dialog.getByLabel('Invitation link')).toHaveValue(link)
  await dialog.getByRole('button', { name: 'Done' }).click()

  // Pending, not a member yet.
  const pending = page.getByRole('region', { name: 'Pending invitations' })
  const members = page.getByRole('region', { name: 'Members', exact: true })
  await expect(pending.getByRole('cell', { name: email, exact: true })).toBeVisible()
  await expect(members.getByText(email, { exact: true })).toHaveCount(0)

  // A fresh browser: nobody signed in.
  const invitee = await otherPersonPage(page)
  await invitee.goto(link)
  await expect(invitee.getByRole('heading', { level: 1 })).toHaveText(/^Join /)
  await expect(invitee.getByLabel('Email')).toHaveValue(email)
  await invitee.getByLabel('Password', { exact: true }).fill('short')
  await invitee.getByLabel('Confirm password').fill('short')
  await invitee.getByRole('button', { name: /^Join / }).click()
  await expect(invitee.getByText('Password must be at least 8 characters')).toBeVisible()
  await invitee.getByLabel('Password', { exact: true }).fill('invitee-password-1')
  await invitee.getByLabel('Confirm password').fill('invitee-password-1')
  await invitee.getByRole('button', { name: /^Join / }).click()
  await expect(invitee).toHaveURL(new RegExp(`/org/${slug}$`))
  const permissions = await apiCall(invitee, 'GET', '/platform/profile/permissions')
  expect(permissions).toEqual([expect.objectContaining({ organization_slug: slug, role: 'developer' })])

  // The link worked once.
  const again = await otherPersonPage(page)
  await again.goto(link)
  await expect(again.getByRole('heading', { name: 'Invitation unavailable' })).toBeVisible()
  await expect(again.getByText(INVITATION_TEXTS.used)).toBeVisible()

  // The owner sees a member, and no pending invitation.
  await page.reload()
  await expect(members.getByText(email, { exact: true })).toBeVisible()
  await expect(pending.getByText(email)).toHaveCount(0)
})

test('an existing account is told about an invitation, and joins only when it accepts on the link', async ({ page }) => {
  await signIn(page)
  const { page: member, email } = await memberByInvitation(page, await firstOrgSlug(page), 'developer')
  const other = await apiCall(page, 'POST', '/platform/organizations', { name: `Second team ${Date.now()}` })
  const created = await apiCall(page, 'POST', `/platform/organizations/${other.slug}/members/invitations`, { email, role: 'read_only' })

  await member.goto('/organizations')
  const received = member.getByRole('region', { name: 'Invitations for you' })
  await expect(received.getByText(other.name)).toBeVisible()
  await expect(member.getByRole('link', { name: new RegExp(other.name) })).toHaveCount(0)

  await member.goto(new URL(created.invitation_url).pathname)
  await member.getByRole('button', { name: 'Accept invitation' }).click()
  await expect(member).toHaveURL(new RegExp(`/org/${other.slug}$`))
  await member.goto('/organizations')
  await expect(member.getByRole('link', { name: new RegExp(other.name) })).toBeVisible()
  await expect(member.getByRole('region', { name: 'Invitations for you' })).toHaveCount(0)
})
