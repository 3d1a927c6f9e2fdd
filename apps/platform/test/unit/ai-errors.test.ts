import { createServer } from 'node:net'
import { APICallError, generateText, RetryError } from 'ai'
import { describe, expect, it } from 'vitest'
import { providerMessage } from '../../src/ai/errors.js'
import { createLanguageModel } from '../../src/ai/model.js'

/** A loopback port nobody listens on: taken from the OS, then let go. */
async function deadPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe('providerMessage', () => {
  it('says plainly that a provider at a dead address did not answer, with the address (issue 33 item 8)', async () => {
    const port = await deadPort()
    const model = createLanguageModel({ provider: 'openai-compatible', model: 'any', baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: null })
    const failure = await generateText({ model, prompt: 'hello', maxRetries: 0 }).then(
      () => null,
      (error: unknown) => error,
    )
    expect(APICallError.isInstance(failure)).toBe(true)
    const expected = `The AI provider at http://127.0.0.1:${port} did not answer: the connection was refused. Check the provider's base URL in the AI settings.`
    expect(providerMessage(failure)).toBe(expected)
    // After the SDK's retries it is wrapped: the last error is still the one told.
    expect(providerMessage(new RetryError({ message: 'Failed after 3 attempts', reason: 'maxRetriesExceeded', errors: [failure, failure] }))).toBe(expected)
  })

  it("keeps a provider's own message, and says something when there is none", () => {
    const refused = new APICallError({ message: 'Incorrect API key provided', url: 'https://api.example.com/v1/chat/completions', requestBodyValues: {}, statusCode: 401 })
    expect(providerMessage(refused)).toBe('Incorrect API key provided')
    expect(providerMessage(new Error('  '))).toBe('The AI provider failed without a message')
  })
})
