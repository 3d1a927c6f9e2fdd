import { type Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { apiCall, healthyProject, signIn } from './helpers'

/*
 * The AI assistant of the right panel against the e2e server's loopback model (e2e/server.mjs,
 * scriptedAssistantReply): OpenAI-compatible streaming with tool calls, through the real platform.
 */

async function screenshot(page: Page, name: string) {
  if (process.env.AI_SCREENSHOTS_DIR) await page.screenshot({ path: `${process.env.AI_SCREENSHOTS_DIR}/${name}.png` })
}

/** Opens the assistant with the top bar's button (the page is ready once it shows) and waits for the panel. */
async function togglePanel(page: Page) {
  await page.getByRole('button', { name: 'Toggle AI assistant' }).click()
  const panel = page.getByTestId('assistant-panel')
  await expect(panel).toBeVisible()
  return panel
}

/** A project with a todos table, and the assistant opened on its home page with no chats. */
async function openAssistant(page: Page, name: string) {
  await signIn(page)
  const project = await healthyProject(page, name)
  await apiCall(page, 'POST', `/platform/pg-meta/${project.ref}/query`, {
    query:
      'create table if not exists public.todos (id bigint generated always as identity primary key, title text not null, done boolean not null default false);' +
      "insert into public.todos (title, done) select 'todo ' || n, n % 3 = 0 from generate_series(1, 9) n where not exists (select 1 from public.todos)",
    read_only: false,
  })
  for (const chat of await apiCall(page, 'GET', `/platform/projects/${project.ref}/assistant/chats`)) {
    await apiCall(page, 'DELETE', `/platform/projects/${project.ref}/assistant/chats/${chat.id}`)
  }
  await page.goto(`/project/${project.ref}`)
  const panel = await togglePanel(page)
  return { project, panel, input: panel.getByLabel('Message the AI assistant') }
}

test('asks, thinks, calls display_query once, runs it as a chart, and keeps the chat on the server', async ({ page }) => {
  const { project, panel, input } = await openAssistant(page, 'Assistant chart')
  // Starters that fit the project: built from its own table.
  await expect(panel.getByRole('button', { name: 'Summarize todos' })).toBeVisible()
  await screenshot(page, 'assistant-empty')

  await input.fill('Why so slow?')
  // 'Thinking' and the disabled input last as long as the model's 1.5 s answer: the panel's state is kept each time it
  // changes, so a busy machine that looks late still sees them.
  await page.evaluate(() => {
    const seen: string[] = ((window as unknown as { assistantStates: string[] }).assistantStates = [])
    const panel = document.querySelector('[data-testid="assistant-panel"]')!
    const scan = () => {
      const thinking = Array.from(panel.querySelectorAll('[role="status"]')).some((status) => status.textContent?.includes('Thinking'))
      const disabled = panel.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message the AI assistant"]')?.disabled
      for (const state of [thinking ? 'thinking' : '', disabled ? 'disabled' : '']) if (state && !seen.includes(state)) seen.push(state)
    }
    new MutationObserver(scan).observe(panel, { childList: true, subtree: true, characterData: true, attributes: true })
  })
  const states = () => page.evaluate(() => (window as unknown as { assistantStates: string[] }).assistantStates)
  await input.press('Enter')
  await expect.poll(states).toContain('thinking')
  await expect.poll(states).toContain('disabled')
  await expect(panel.getByText('That took a while.')).toBeVisible()
  await expect(input).toBeEnabled()

  // Shift+Enter makes a new line; Enter sends.
  await input.fill('Draw a chart')
  await input.press('Shift+Enter')
  await input.pressSequentially('of my todos')
  await expect(input).toHaveValue('Draw a chart\nof my todos')
  await input.press('Enter')
  const calling = panel.getByText('Calling display_query...')
  await expect(calling).toBeVisible()
  await expect(calling).toHaveCount(1)
  const widget = panel.getByTestId('query-result-widget')
  await expect(widget.getByRole('heading', { name: 'Todos by state' })).toBeVisible()
  await expect(calling).toHaveCount(0)
  // runQuery: it ran at once, and shows as the chart the model asked for.
  await expect(widget.locator('.recharts-surface')).toBeVisible()
  await expect(panel.getByText('There it is: run it again whenever you like.')).toBeVisible()
  await widget.getByRole('radio', { name: 'Table' }).click()
  await expect(widget.getByRole('gridcell', { name: 'open' })).toBeVisible()
  await screenshot(page, 'assistant-query-block')

  // Stored on the server: the chat comes back after a reload, named after its first question.
  await expect.poll(async () => (await apiCall(page, 'GET', `/platform/projects/${project.ref}/assistant/chats`))[0]?.message_count).toBe(4)
  await page.reload()
  await togglePanel(page)
  await expect(panel.getByRole('article', { name: 'You' }).filter({ hasText: 'of my todos' })).toBeVisible()
  await expect(panel.getByRole('button', { name: /^Chats: Why so slow\?/ })).toBeVisible()

  // Edit in SQL editor: a new snippet with the block's SQL.
  await panel.getByTestId('query-result-widget').getByRole('button', { name: 'Edit in SQL editor' }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${project.ref}/sql/[0-9a-f-]{36}`))
  await expect(page.locator('.monaco-editor').first()).toContainText('from public.todos')
})

test('deploys a display_edge_function block, with the replace warning the second time', async ({ page }) => {
  const { panel, input } = await openAssistant(page, 'Assistant function')
  await input.fill('Write me an edge function')
  await input.press('Enter')
  const block = panel.getByRole('region', { name: 'Edge function hello-assistant' })
  await expect(block).toContainText("Deno.serve(() => new Response(JSON.stringify({ hello: 'from the assistant' })")
  await block.getByRole('button', { name: 'Deploy' }).click()
  await expect(page.getByText('Successfully deployed edge function').first()).toBeVisible()
  await expect(block.getByText(/Deployed, version \d+/)).toBeVisible()
  await expect(block.getByLabel('Function URL')).toHaveValue(/\/functions\/v1\/hello-assistant$/)

  await input.fill('Another function please')
  await input.press('Enter')
  const second = panel.getByRole('region', { name: 'Edge function hello-assistant' }).nth(1)
  await second.getByRole('button', { name: 'Deploy' }).click()
  const replace = page.getByRole('dialog', { name: 'Replace hello-assistant?' })
  await expect(replace).toBeVisible()
  await replace.getByRole('button', { name: 'Cancel' }).click()
  await expect(replace).toHaveCount(0)
  await second.getByRole('button', { name: 'Deploy' }).click()
  await page.getByRole('dialog', { name: 'Replace hello-assistant?' }).getByRole('button', { name: 'Replace function' }).click()
  await expect(second.getByText(/Deployed, version \d+/)).toBeVisible()
  await screenshot(page, 'assistant-function-block')
})

test('chats: new, search, rename with Enter, Escape and blur, delete only beside another, scroll above four', async ({ page }) => {
  const { panel, input } = await openAssistant(page, 'Assistant chats')
  await input.fill('hello')
  await input.press('Enter')
  await expect(panel.getByText('Hello from the scripted assistant.')).toBeVisible()

  const trigger = panel.getByRole('button', { name: /^Chats: / })
  const list = page.getByTestId('assistant-chat-list')
  await trigger.click()
  // One chat: it can be renamed, not deleted.
  await expect(list.getByRole('button', { name: 'Rename hello' })).toBeVisible()
  await expect(list.getByRole('button', { name: /^Delete / })).toHaveCount(0)

  // Enter saves.
  await list.getByRole('button', { name: 'Rename hello' }).click()
  await page.getByLabel('Chat name').fill('Greetings')
  await page.getByLabel('Chat name').press('Enter')
  await expect(list.getByRole('button', { name: 'Greetings', exact: true })).toBeVisible()
  // Escape cancels.
  await list.getByRole('button', { name: 'Rename Greetings' }).click()
  await page.getByLabel('Chat name').fill('Not this')
  await page.getByLabel('Chat name').press('Escape')
  await expect(list.getByRole('button', { name: 'Greetings', exact: true })).toBeVisible()
  await expect(list.getByRole('button', { name: 'Not this', exact: true })).toHaveCount(0)
  // Blank text is refused, even on Enter; blur saves when there is text.
  await list.getByRole('button', { name: 'Rename Greetings' }).click()
  await page.getByLabel('Chat name').fill('   ')
  await page.getByLabel('Chat name').press('Enter')
  await expect(list.getByRole('button', { name: 'Greetings', exact: true })).toBeVisible()
  await list.getByRole('button', { name: 'Rename Greetings' }).click()
  await page.getByLabel('Chat name').fill('Blurred name')
  await page.getByLabel('Search chats').click()
  await expect(list.getByRole('button', { name: 'Blurred name', exact: true })).toBeVisible()

  // New chats: four of them do not scroll, five do.
  for (let count = 2; count <= 5; count++) {
    await page.getByRole('button', { name: 'New chat' }).click()
    await expect(trigger).toHaveAccessibleName('Chats: Untitled')
    await trigger.click()
    await expect(list.getByRole('listitem')).toHaveCount(count)
    await expect(list).toHaveAttribute('data-scrolls', String(count > 4))
  }
  const scrolls = await list.evaluate((element) => element.scrollHeight > element.clientHeight)
  expect(scrolls).toBe(true)
  // Delete shows beside another chat; search narrows the list.
  await expect(list.getByRole('button', { name: 'Delete Blurred name' })).toBeVisible()
  await page.getByLabel('Search chats').fill('blurred')
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await screenshot(page, 'assistant-chats')
  await list.getByRole('button', { name: 'Delete Blurred name' }).click()
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(list.getByText('No chats match “blurred”')).toBeVisible()
})

test('links: javascript: as plain text, https behind the verify dialog', async ({ page }) => {
  const { panel, input } = await openAssistant(page, 'Assistant links')
  await input.fill('Show me links')
  await input.press('Enter')
  const message = panel.getByRole('article', { name: 'Assistant' })
  await expect(message.getByText('run this')).toBeVisible()
  await expect(message.getByRole('link', { name: 'run this' })).toHaveCount(0)
  await message.getByRole('link', { name: 'the docs' }).click()
  const verify = page.getByRole('dialog', { name: 'Verify the link before navigating' })
  await expect(verify).toContainText('https://example.com/docs')
  await screenshot(page, 'assistant-verify-link')
  await verify.getByRole('button', { name: 'Cancel' }).click()
  await expect(verify).toHaveCount(0)
})

test("the model's error shows as a toast with its message, and the input comes back", async ({ page }) => {
  const { input } = await openAssistant(page, 'Assistant links')
  await input.fill('Please refuse this')
  await input.press('Enter')
  await expect(page.locator('.toast-error').filter({ hasText: 'The scripted model refuses this request' })).toBeVisible()
  await expect(input).toBeEnabled()
})

test('a failed turn leaves no empty reply: the question keeps a Retry, also after a reload, that asks it again (issue 33 item 8)', async ({ page }) => {
  const { project, panel, input } = await openAssistant(page, 'Assistant retry')
  const question = `Please fail once (${Date.now()})`
  await input.fill(question)
  await input.press('Enter')
  const failure = panel.getByRole('alert')
  await expect(failure).toContainText('The scripted model fails this once')
  await expect(panel.getByRole('article', { name: 'You' })).toContainText(question)
  await expect(panel.getByRole('article', { name: 'Assistant' })).toHaveCount(0)
  await expect(input).toBeEnabled()
  await screenshot(page, 'assistant-failed-turn')

  // Stored without an empty reply: after a reload the question is there, unanswered, with its Retry.
  await expect
    .poll(async () => {
      const [chat] = await apiCall(page, 'GET', `/platform/projects/${project.ref}/assistant/chats`)
      return chat ? (await apiCall(page, 'GET', `/platform/projects/${project.ref}/assistant/chats/${chat.id}`)).messages.map((m: { role: string }) => m.role) : []
    })
    .toEqual(['user'])
  await page.reload()
  await togglePanel(page)
  await expect(failure).toContainText('This question was not answered.')
  await failure.getByRole('button', { name: 'Retry' }).click()
  await expect(panel.getByRole('article', { name: 'Assistant' })).toContainText('Answered on the second try.')
  await expect(failure).toHaveCount(0)
  await expect(panel.getByRole('article', { name: 'You' })).toHaveCount(1)

  // Dark mode: the disabled Send button does not look like the enabled one (issue 33 item 12).
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  const send = panel.getByRole('button', { name: 'Send' })
  // The color once its transition (button.css: 120 ms) has run: read mid-way it is still the previous state's.
  const background = () =>
    send.evaluate(async (element) => {
      await Promise.all(element.getAnimations().map((animation) => animation.finished))
      return getComputedStyle(element).backgroundColor
    })
  await input.fill('something to send')
  await expect(send).toBeEnabled()
  const enabled = await background()
  await input.fill('')
  await expect(send).toBeDisabled()
  expect(await background()).not.toBe(enabled)
})

test('a chat that cannot be shown ends in the crash fallback; clearing its messages recovers', async ({ page }) => {
  const { project, panel, input } = await openAssistant(page, 'Assistant crash')
  await input.fill('hello')
  await input.press('Enter')
  await expect(panel.getByText('Hello from the scripted assistant.')).toBeVisible()
  // The dashboard saves the chat after the reply has streamed: the reload below must find it stored, or there is no
  // message to damage and the chat opens empty (a CI run reloaded first).
  await expect
    .poll(async () => {
      const [chat] = await apiCall(page, 'GET', `/platform/projects/${project.ref}/assistant/chats`)
      return chat ? (await apiCall(page, 'GET', `/platform/projects/${project.ref}/assistant/chats/${chat.id}`)).messages.length : 0
    })
    .toBeGreaterThanOrEqual(2)
  // A stored chat whose message parts are not a list (as a damaged row would be) makes the chat view throw while rendering.
  await page.route(`**/platform/projects/${project.ref}/assistant/chats/*`, async (route) => {
    if (route.request().method() !== 'GET') return route.fallback()
    const response = await route.fetch()
    const chat = await response.json()
    await route.fulfill({ response, json: { ...chat, messages: chat.messages.map((message: object) => ({ ...message, parts: 'damaged' })) } })
  })
  await page.reload()
  await togglePanel(page)
  const fallback = panel.getByRole('alert')
  await expect(fallback).toContainText('Something went wrong with the AI Assistant')
  await expect(fallback).toContainText("We've been notified and will review and fix this issue")
  await expect(fallback.getByRole('button', { name: 'Try again' })).toBeVisible()
  await screenshot(page, 'assistant-crash')
  await page.unroute(`**/platform/projects/${project.ref}/assistant/chats/*`)
  await fallback.getByRole('button', { name: 'Clear messages and refresh' }).click()
  await expect(panel.getByRole('button', { name: 'Summarize todos' })).toBeVisible()
})

test('notices: no provider key, and the assistant turned off, disable the input', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Assistant chart')
  await page.route('**/api/ai/sql/check-api-key', (route) =>
    route.fulfill({ json: { hasKey: false, message: "The AI provider's API key is not set. Set STRATUM_AI_PROVIDER and its API key where the platform runs (see the README) to turn on AI features." } }),
  )
  await page.route(`**/platform/projects/${project.ref}/assistant`, async (route) => {
    const response = await route.fetch()
    await route.fulfill({ response, json: { ...(await response.json()), disabled: true } })
  })
  await page.goto(`/project/${project.ref}`)
  const panel = await togglePanel(page)
  await expect(panel.getByRole('note').filter({ hasText: "The AI provider's API key is not set" })).toBeVisible()
  await expect(panel.getByRole('note').filter({ hasText: 'Assistant has been temporarily disabled' })).toBeVisible()
  await expect(panel.getByLabel('Message the AI assistant')).toBeDisabled()
  await screenshot(page, 'assistant-notices')
})

test('a query block dragged onto a report is saved as a snippet of mine and pinned there', async ({ page }) => {
  const { project, panel, input } = await openAssistant(page, 'Assistant report')
  const created = await page.request.post(`/platform/projects/${project.ref}/content`, {
    headers: { origin: new URL(page.url()).origin, version: '2' },
    data: { id: crypto.randomUUID(), name: 'Assistant drops', type: 'report', visibility: 'user', content: { schema_version: '1.0', sql: '', layout: [] } },
  })
  expect(created.status()).toBe(201)
  const report = await created.json()
  await page.goto(`/project/${project.ref}/reports/${report.id}`)
  await expect(page.getByText('No snippets pinned yet.')).toBeVisible()
  await togglePanel(page)
  await input.fill('Draw a chart of my todos')
  await input.press('Enter')
  const block = panel.locator('.assistant-query-block').first()
  await expect(block.getByRole('heading', { name: 'Todos by state' })).toBeVisible()
  // The chart and the turn's closing sentence come after the block: until both are there the message grows and the
  // block moves under the pointer mid-drag (a loaded CI run's drop missed the report).
  await expect(block.locator('.recharts-surface')).toBeVisible()
  await expect(panel.getByText('There it is: run it again whenever you like.')).toBeVisible()
  // Grabbed by its title, as a person would: dragTo's default is the block's centre, which lies on the chart's Y axis
  // select once the chart has drawn, and a press there opens the select instead of starting a drag (a CI run did).
  await block
    .getByRole('heading', { name: 'Todos by state' })
    .dragTo(page.getByTestId('report-page').getByRole('heading', { name: 'Assistant drops' }))
  const pinned = page.getByTestId('report-page').getByTestId('query-result-widget')
  await expect(pinned.getByRole('heading', { name: 'Todos by state' })).toBeVisible()
  const snippets = await apiCall(page, 'GET', `/platform/projects/${project.ref}/content?type=sql&limit=100`)
  expect(snippets.data.some((item: { name: string }) => item.name === 'Todos by state')).toBe(true)
})

test('owners choose the opt-in level; a HIPAA project says what it sends', async ({ page }) => {
  await signIn(page)
  const project = await healthyProject(page, 'Assistant chart')
  await page.goto(`/org/${project.orgSlug}/general`)
  const card = page.locator('.card').filter({ hasText: 'Opt-in level' })
  const select = card.getByLabel('Opt-in level')
  await expect(select).toHaveValue('schema')
  await expect(card.getByRole('button', { name: 'Save' })).toBeDisabled()
  await select.selectOption('schema_and_log')
  await card.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Assistant opt-in level updated')).toBeVisible()
  expect((await apiCall(page, 'GET', `/platform/organizations/${project.orgSlug}`)).ai_opt_in_level).toBe('schema_and_log')
  await select.selectOption('schema')
  await card.getByRole('button', { name: 'Save' }).click()
  await expect.poll(async () => (await apiCall(page, 'GET', `/platform/organizations/${project.orgSlug}`)).ai_opt_in_level).toBe('schema')

  await page.goto(`/project/${project.ref}/settings/general`)
  const hipaa = page.getByRole('switch', { name: /HIPAA project/ })
  await expect(hipaa).not.toBeChecked()
  await hipaa.click()
  await expect(hipaa).toBeChecked()
  expect((await apiCall(page, 'GET', `/platform/projects/${project.ref}/assistant`)).sends_metadata).toBe(false)
  await screenshot(page, 'assistant-hipaa')
  await hipaa.click()
  await expect(hipaa).not.toBeChecked()
})
