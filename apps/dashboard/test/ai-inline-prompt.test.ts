import { AI_KEY_NOT_SET_MESSAGE } from '@stratum/contracts'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { InlinePrompt, type KeyCheck } from '../src/features/sql-editor/ai/InlinePrompt'

/** The box's first render (no effects run: the editor is never touched). */
function render(keyCheck: KeyCheck, extra: { generating?: boolean; error?: string | null } = {}) {
  const noop = () => {}
  return renderToStaticMarkup(
    createElement(InlinePrompt, {
      editor: {} as Parameters<typeof InlinePrompt>[0]['editor'],
      line: 1,
      initialPrompt: 'count the todos',
      hasSelection: true,
      generating: extra.generating ?? false,
      error: extra.error ?? null,
      keyCheck,
      onSubmit: noop,
      onStop: noop,
      onClose: noop,
    }),
  )
}

describe('InlinePrompt', () => {
  it("shows the platform's notice and no input when no AI provider is configured", () => {
    const html = render({ loading: false, data: { hasKey: false, message: AI_KEY_NOT_SET_MESSAGE } })
    expect(html).toContain(AI_KEY_NOT_SET_MESSAGE.replace("'", '&#x27;'))
    expect(html).not.toContain('<input')
    expect(html).not.toContain('Generate')
  })

  it('offers the prompt input when a provider is configured', () => {
    const html = render({ loading: false, data: { hasKey: true, message: 'An AI provider is configured.' } })
    expect(html).toContain('aria-label="Prompt for AI"')
    expect(html).toContain('value="count the todos"')
    expect(html).not.toContain('An AI provider is configured.')
  })

  it('shows progress while generating, and the error of the last try', () => {
    const ok = { loading: false, data: { hasKey: true, message: '' } }
    expect(render(ok, { generating: true })).toContain('Generating…')
    expect(render(ok, { error: 'Failed to generate: The model is overloaded' })).toMatch(/role="alert"[^>]*>Failed to generate: The model is overloaded</)
  })

  it('says it is checking while the key check is out', () => {
    expect(render({ loading: true })).toContain('Checking the AI provider…')
  })
})
